/** Query keys of the Data Sources screen; mutations invalidate through these. */
export const dataSourceKeys = {
  all: ["data-sources"] as const,
  list: (plantId: string) => ["data-sources", "plant", plantId] as const,
  detail: (dataSourceId: string) => ["data-sources", "detail", dataSourceId] as const,
  insight: (dataSourceId: string) => ["data-sources", "insight", dataSourceId] as const,
  ingestor: (plantId: string) => ["plants", plantId, "ingestor"] as const,
  ingestTokens: (plantId: string) => ["plants", plantId, "ingest-tokens"] as const,
  mqttCredential: (plantId: string) => ["plants", plantId, "mqtt-credential"] as const,
  csvUploadProgress: (plantId: string, uploadId: string) =>
    ["plants", plantId, "csv-uploads", uploadId, "progress"] as const,
};
