import type { TEvaluationState } from "@linewatch/contracts";

/** A monitor's last state as a colour of the theme (MUI colour names), wherever a state shows. */
export const MONITOR_STATE_COLOR = {
  OK: "success",
  BREACH: "error",
  NO_DATA: "default",
  ERROR: "warning",
} as const satisfies Record<TEvaluationState, string>;
