export const plantKeys = {
  all: ["plants"] as const,
  lines: (plantId: string) => ["plants", plantId, "lines"] as const,
  line: (lineId: string) => ["lines", lineId] as const,
};
