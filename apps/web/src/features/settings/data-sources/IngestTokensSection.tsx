import type { TCreateIngestTokenResponse, TIngestToken, TPlant } from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Stack, Typography } from "@mui/material";
import { lazy, Suspense } from "react";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { useCreateIngestToken, useRevokeIngestToken } from "./api/mutations";
import { useIngestTokens } from "./api/queries";
import { IngestTokenTable } from "./components/IngestTokenTable";

// Dialogs load their code when first opened (issue #17).
const CreateIngestTokenDialog = lazy(() =>
  import("./components/CreateIngestTokenDialog").then((m) => ({ default: m.CreateIngestTokenDialog })),
);
const IngestTokenSecretDialog = lazy(() =>
  import("./components/IngestTokenSecretDialog").then((m) => ({ default: m.IngestTokenSecretDialog })),
);

type Dialogs = { create: undefined; secret: TCreateIngestTokenResponse; confirmRevoke: TIngestToken };

/**
 * The plant's ingest tokens on the Data Sources page (administrators): list, create (the secret
 * shown once) and revoke. A section of the page with its own data, so the page stays small.
 */
export function IngestTokensSection({ plant }: { plant: TPlant }) {
  const tokensQ = useIngestTokens(plant.id);
  const create = useCreateIngestToken(plant.id);
  const revoke = useRevokeIngestToken(plant.id);
  const dialogs = useDialogs<Dialogs>();
  const created = dialogs.data("secret");
  const target = dialogs.data("confirmRevoke");

  return (
    <Stack spacing={1.5} component="section" aria-labelledby="ingest-tokens-title">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h6" component="h3" id="ingest-tokens-title">
            Ingest tokens
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Machines and scripts send part records of this plant to POST /api/ingest with a token.
          </Typography>
        </Box>
        <HistoryButton
          resource="ingest_token"
          itemLabel="Ingest token"
          items={(tokensQ.data ?? []).map((t) => ({ id: t.id, name: `${t.name} (${t.prefix}…)` }))}
        />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => dialogs.open("create", undefined)}>
          Create ingest token
        </Button>
      </Box>
      <QueryState
        isLoading={tokensQ.isPending}
        error={tokensQ.error}
        errorTitle="Error fetching ingest tokens"
        onRetry={() => void tokensQ.refetch()}
      >
        <IngestTokenTable
          tokens={tokensQ.data ?? []}
          timeZone={plant.timeZone}
          onRevoke={(t) => dialogs.open("confirmRevoke", t)}
        />
      </QueryState>

      {dialogs.isOpen("create") && (
        <Suspense fallback={null}>
          <CreateIngestTokenDialog
            plantName={plant.name}
            onSubmit={async (body) => {
              dialogs.open("secret", await create.mutateAsync(body));
            }}
            onClose={dialogs.close}
          />
        </Suspense>
      )}
      {dialogs.isOpen("secret") && created && (
        <Suspense fallback={null}>
          <IngestTokenSecretDialog
            created={created}
            origin={window.location.origin}
            onClose={() => {
              // Forget the secret: it is never shown again.
              dialogs.closeAndForget();
            }}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={dialogs.isOpen("confirmRevoke")}
        title={`Revoke ingest token : ${target?.name ?? ""}`}
        confirmLabel="Revoke"
        destructive
        busy={revoke.isPending}
        onConfirm={() => target && revoke.mutate(target, { onSettled: dialogs.close })}
        onCancel={dialogs.close}
      >
        <Typography>
          Senders using this token are refused from now on (401). This cannot be undone: create a new token to
          let them send again.
        </Typography>
      </ConfirmDialog>
    </Stack>
  );
}
