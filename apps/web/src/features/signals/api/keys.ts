/** Query keys of a line's signals and signal groups (the signal tree and whoever reads them). */
export const signalKeys = {
  active: (lineId: string) => ["lines", lineId, "signals", "active"] as const,
  groups: (lineId: string) => ["lines", lineId, "signal-groups"] as const,
  associatedClassifications: (signalIds: string[]) =>
    ["signals", "associated-result-classifications", [...signalIds].sort()] as const,
};
