/** Query keys of the SPC limits of a line (Cap Limits, Cap Alerts). */
export const spcLimitsKeys = {
  all: ["spc-limits"] as const,
  line: (lineId: string) => ["spc-limits", lineId] as const,
  lineSignals: (lineId: string) => ["spc-limits", lineId, "signals"] as const,
};
