import { ALERT_TEXTS, type TAlertState } from "@linewatch/contracts";
import { Chip } from "@mui/material";
import { useTexts } from "../../../shared/i18n/language";

const COLOR = { OPEN: "error", ACKNOWLEDGED: "warning", RESOLVED: "success" } as const;

export function AlertStateChip({ state }: { state: TAlertState }) {
  const T = useTexts(ALERT_TEXTS);
  return (
    <Chip
      size="small"
      color={COLOR[state]}
      label={T.state[state]}
      variant={state === "RESOLVED" ? "outlined" : "filled"}
    />
  );
}
