import { MQTT_CREDENTIAL_MESSAGES, type TRotateMqttPasswordResponse } from "@linewatch/contracts";
import { Typography } from "@mui/material";
import { SecretDialog, SecretField } from "./SecretDialog";

export type MqttPasswordDialogProps = {
  plantName: string;
  answer: TRotateMqttPasswordResponse;
  onClose: () => void;
};

/** The plant's new MQTT login, shown this once. */
export function MqttPasswordDialog({ plantName, answer, onClose }: MqttPasswordDialogProps) {
  return (
    <SecretDialog
      title={MQTT_CREDENTIAL_MESSAGES.rotateTitle(plantName)}
      warning={MQTT_CREDENTIAL_MESSAGES.passwordSet}
      onClose={onClose}
    >
      <SecretField label="Username" value={answer.credential.username} testId="mqtt-username" />
      <SecretField label="Password" value={answer.password} testId="mqtt-password" />
      <Typography variant="body2" color="text.secondary">
        Publish part records with QoS 1 on a topic of this plant's data sources; other topics are refused.
      </Typography>
    </SecretDialog>
  );
}
