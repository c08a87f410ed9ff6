export const plantKeys = {
  all: ["plants"] as const,
  /** The Plants page's list, inactive plants included: under `all`, so one invalidation serves both. */
  withInactive: ["plants", "with-inactive"] as const,
  lines: (plantId: string) => ["plants", plantId, "lines"] as const,
  line: (lineId: string) => ["lines", lineId] as const,
};
