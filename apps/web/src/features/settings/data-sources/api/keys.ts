/** Query keys of the Data Sources screen; mutations invalidate through these. */
export const dataSourceKeys = {
  all: ["data-sources"] as const,
  list: (plantId: string) => ["data-sources", "plant", plantId] as const,
  detail: (dataSourceId: string) => ["data-sources", "detail", dataSourceId] as const,
  ingestor: (plantId: string) => ["plants", plantId, "ingestor"] as const,
};
