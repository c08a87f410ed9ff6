import type { TAlertState } from "@linewatch/contracts";
import { Chip } from "@mui/material";

const COLOR = { OPEN: "error", ACKNOWLEDGED: "warning", RESOLVED: "success" } as const;
const LABEL = { OPEN: "Open", ACKNOWLEDGED: "Acknowledged", RESOLVED: "Resolved" } as const;

export function AlertStateChip({ state }: { state: TAlertState }) {
  return (
    <Chip
      size="small"
      color={COLOR[state]}
      label={LABEL[state]}
      variant={state === "RESOLVED" ? "outlined" : "filled"}
    />
  );
}
