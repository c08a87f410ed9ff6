import { API_TOKEN_TEXTS, type TApiToken, type TCreateApiTokenResponse } from "@linewatch/contracts";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Divider,
  Stack,
} from "@mui/material";
import { useState } from "react";
import { useTexts } from "../../../shared/i18n/language";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useCreateApiToken, useRevokeApiToken } from "./api/mutations";
import { useApiTokens } from "./api/queries";
import { ApiTokenTable } from "./components/ApiTokenTable";
import { CreateApiTokenForm } from "./components/CreateApiTokenForm";
import { NewApiTokenSecret } from "./components/NewApiTokenSecret";

/** Tokens are the user's, not a plant's: their times show in the browser's time zone. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The user menu's API tokens (issue 33 §3): the list, a form for a new token (its secret shown
 * here once, never again) and Revoke with a confirmation. Mounted only while open: closing it
 * forgets the secret.
 */
export function ApiTokensDialog({ onClose }: { onClose: () => void }) {
  const T = useTexts(API_TOKEN_TEXTS);
  const tokensQ = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [created, setCreated] = useState<TCreateApiTokenResponse | null>(null);
  const [revokeTarget, setRevokeTarget] = useState<TApiToken | null>(null);

  return (
    <>
      <Dialog
        open
        // Closes by its button or Escape only: a stray click beside it must not lose a new token.
        onClose={(_, reason) => reason !== "backdropClick" && onClose()}
        aria-labelledby="api-tokens-title"
        maxWidth="md"
        fullWidth
      >
        <DialogTitle id="api-tokens-title">{T.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{T.intro}</DialogContentText>
            {created && <NewApiTokenSecret created={created} />}
            <QueryState
              isLoading={tokensQ.isPending}
              error={tokensQ.error}
              errorTitle={T.loadError}
              onRetry={() => void tokensQ.refetch()}
            >
              <ApiTokenTable
                tokens={tokensQ.data ?? []}
                timeZone={TIME_ZONE}
                now={Date.now()}
                onRevoke={setRevokeTarget}
              />
            </QueryState>
            <Divider />
            <CreateApiTokenForm
              onSubmit={async (body) => {
                setCreated(await create.mutateAsync(body));
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            {T.close}
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={revokeTarget != null}
        title={revokeTarget ? T.revokeConfirm(revokeTarget.name) : ""}
        confirmLabel={T.revoke}
        cancelLabel={T.cancel}
        destructive
        busy={revoke.isPending}
        onConfirm={() =>
          revokeTarget &&
          revoke.mutate(revokeTarget, {
            onSettled: () => {
              // The secret on show is that of a token that may be the one revoked: hide it.
              if (created?.token.id === revokeTarget.id) setCreated(null);
              setRevokeTarget(null);
            },
          })
        }
        onCancel={() => setRevokeTarget(null)}
      />
    </>
  );
}
