/** Query keys of Line Management; the plant's lines themselves are the shared plantKeys.lines. */
export const lineManagementKeys = {
  all: ["line-management"] as const,
  monitorCounts: (plantId: string) => ["line-management", plantId, "active-monitor-count"] as const,
  alertWindows: (plantId: string) => ["line-management", plantId, "alert-viewing-window"] as const,
  feederInfo: (lineId: string) => ["line-management", "feeder-lines", lineId] as const,
  exclusionOptions: (lineId: string) => ["line-management", "exclusion-options", lineId] as const,
};
