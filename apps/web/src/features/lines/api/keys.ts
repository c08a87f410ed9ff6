export const lineKeys = {
  alerts: (lineId: string) => ["lines", lineId, "alerts"] as const,
  alert: (alertId: string) => ["alerts", alertId] as const,
  causes: (alertId: string) => ["alerts", alertId, "causes"] as const,
  evaluationValues: (alertId: string, evaluationId: string) =>
    ["alerts", alertId, "evaluations", evaluationId, "values"] as const,
  monitors: (lineId: string) => ["lines", lineId, "monitors"] as const,
};
