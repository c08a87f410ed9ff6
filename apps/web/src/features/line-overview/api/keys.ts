export const lineOverviewKeys = {
  monitors: (lineId: string) => ["lines", lineId, "monitors"] as const,
};
