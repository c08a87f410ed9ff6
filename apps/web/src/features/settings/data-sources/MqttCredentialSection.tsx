import {
  MQTT_CREDENTIAL_MESSAGES,
  type TPlant,
  type TRotateMqttPasswordResponse,
} from "@linewatch/contracts";
import KeyIcon from "@mui/icons-material/Key";
import { Alert, Box, Button, Paper, Stack, Typography } from "@mui/material";
import { lazy, Suspense } from "react";
import { formatDateTime } from "../../../shared/format";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { HistoryButton } from "../../audit-log/components/HistoryButton";
import { useRotateMqttPassword } from "./api/mutations";
import { useMqttCredential } from "./api/queries";

// Dialogs load their code when first opened (issue #17).
const MqttPasswordDialog = lazy(() =>
  import("./components/MqttPasswordDialog").then((m) => ({ default: m.MqttPasswordDialog })),
);

type Dialogs = { confirmRotate: undefined; password: TRotateMqttPasswordResponse };

/**
 * The plant's MQTT login on the embedded broker (Data Sources page, administrators): its
 * username, when the password was set, and a new password shown once. A new password replaces
 * the old at once: clients using the old one are disconnected.
 */
export function MqttCredentialSection({ plant }: { plant: TPlant }) {
  const credentialQ = useMqttCredential(plant.id);
  const rotate = useRotateMqttPassword(plant.id);
  const dialogs = useDialogs<Dialogs>();
  const answer = dialogs.data("password");
  const credential = credentialQ.data;
  const hasPassword = !!credential?.passwordSetAt;
  const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, plant.timeZone)}</time>;

  const setPassword = () =>
    rotate.mutate(undefined, {
      onSuccess: (a) => dialogs.open("password", a),
      onError: () => dialogs.close(),
    });

  return (
    <Stack spacing={1.5} component="section" aria-labelledby="mqtt-credential-title">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h6" component="h3" id="mqtt-credential-title">
            MQTT credential
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Machines publish this plant's part records to the embedded MQTT broker with this login, on the
            topics of this plant's data sources only.
          </Typography>
        </Box>
        {/* The login is the plant ingestor's id, which the credential's records name. */}
        <HistoryButton
          resource="mqtt_credential"
          items={credential ? [{ id: credential.username, name: plant.name }] : []}
        />
        <Button
          variant="outlined"
          startIcon={<KeyIcon />}
          disabled={!credential || rotate.isPending}
          onClick={() => (hasPassword ? dialogs.open("confirmRotate", undefined) : setPassword())}
        >
          {hasPassword ? "New MQTT password" : "Set MQTT password"}
        </Button>
      </Box>
      {rotate.isError && <Alert severity="error">{rotate.error.message}</Alert>}
      <QueryState
        isLoading={credentialQ.isPending}
        error={credentialQ.error}
        errorTitle="Error fetching the MQTT credential"
        onRetry={() => void credentialQ.refetch()}
      >
        {credential && (
          <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
            <Box
              component="dl"
              sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: 1, m: 0 }}
            >
              <Typography component="dt" variant="body2" color="text.secondary">
                Username
              </Typography>
              <Typography
                component="dd"
                data-testid="mqtt-credential-username"
                sx={{ m: 0, fontFamily: "monospace", fontSize: "0.875rem", userSelect: "all" }}
              >
                {credential.username}
              </Typography>
              <Typography component="dt" variant="body2" color="text.secondary">
                Password
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid="mqtt-credential-password">
                {credential.passwordSetAt ? (
                  <>Set {time(credential.passwordSetAt)}</>
                ) : (
                  "Not set: this plant's MQTT clients cannot connect"
                )}
              </Typography>
              <Typography component="dt" variant="body2" color="text.secondary">
                Last connected
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {credential.lastConnectedAt ? time(credential.lastConnectedAt) : "Never"}
              </Typography>
            </Box>
          </Paper>
        )}
      </QueryState>

      <ConfirmDialog
        open={dialogs.isOpen("confirmRotate")}
        title={MQTT_CREDENTIAL_MESSAGES.rotateTitle(plant.name)}
        confirmLabel="Set new password"
        destructive
        busy={rotate.isPending}
        onConfirm={setPassword}
        onCancel={dialogs.close}
      >
        <Typography>{MQTT_CREDENTIAL_MESSAGES.rotateWarning}</Typography>
      </ConfirmDialog>
      {dialogs.isOpen("password") && answer && (
        <Suspense fallback={null}>
          <MqttPasswordDialog
            plantName={plant.name}
            answer={answer}
            onClose={() => {
              // Forget the password: it is never shown again.
              dialogs.closeAndForget();
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}
