import { MQTT_CREDENTIAL_MESSAGES, type TRotateMqttPasswordResponse } from "@linewatch/contracts";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from "@mui/material";
import { CopyButton } from "./CopyButton";

export type MqttPasswordDialogProps = {
  plantName: string;
  answer: TRotateMqttPasswordResponse;
  onClose: () => void;
};

const mono = {
  fontFamily: "monospace",
  fontSize: 13,
  bgcolor: "action.hover",
  borderRadius: 1,
  p: 1.5,
  m: 0,
  flexGrow: 1,
  overflowWrap: "anywhere",
} as const;

/**
 * The plant's new MQTT password, shown this once: the server keeps only its hash. Closes by its
 * button only, so a stray click outside does not lose the password.
 */
export function MqttPasswordDialog({ plantName, answer, onClose }: MqttPasswordDialogProps) {
  const field = (label: string, value: string, testId: string) => (
    <Box>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Box component="code" sx={mono} data-testid={testId}>
          {value}
        </Box>
        <CopyButton text={value} label={`Copy ${label.toLowerCase()}`} />
      </Stack>
    </Box>
  );
  return (
    <Dialog open aria-labelledby="mqtt-password-title" maxWidth="md" fullWidth>
      <DialogTitle id="mqtt-password-title">{MQTT_CREDENTIAL_MESSAGES.rotateTitle(plantName)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{MQTT_CREDENTIAL_MESSAGES.passwordSet}</Alert>
          {field("Username", answer.credential.username, "mqtt-username")}
          {field("Password", answer.password, "mqtt-password")}
          <Typography variant="body2" color="text.secondary">
            Publish part records with QoS 1 on a topic of this plant's data sources; other topics are refused.
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
