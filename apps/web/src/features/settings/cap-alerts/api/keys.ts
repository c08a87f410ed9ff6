/** Query keys of the Cap Alerts page. */
export const capAlertsKeys = {
  status: (lineId: string) => ["cap-alerts", lineId, "status"] as const,
};
