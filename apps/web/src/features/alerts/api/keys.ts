export const alertKeys = {
  /** A line's alerts (under the line, so refreshing a line's data refreshes them too). */
  byLine: (lineId: string) => ["lines", lineId, "alerts"] as const,
  alert: (alertId: string) => ["alerts", alertId] as const,
  causes: (alertId: string) => ["alerts", alertId, "causes"] as const,
  evaluationValues: (alertId: string, evaluationId: string) =>
    ["alerts", alertId, "evaluations", evaluationId, "values"] as const,
};
