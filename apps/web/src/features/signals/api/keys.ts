/** Query keys of a line's signals and signal groups (the signal tree and whoever reads them). */
export const signalKeys = {
  /** Every signal query of a line (a Signal Management save invalidates them all). */
  line: (lineId: string) => ["lines", lineId, "signals"] as const,
  active: (lineId: string) => ["lines", lineId, "signals", "active"] as const,
  all: (lineId: string) => ["lines", lineId, "signals", "all"] as const,
  associatedClassificationsAll: ["signals", "associated-result-classifications"] as const,
  groups: (lineId: string) => ["lines", lineId, "signal-groups"] as const,
  associatedClassifications: (signalIds: string[]) =>
    ["signals", "associated-result-classifications", [...signalIds].sort()] as const,
};
