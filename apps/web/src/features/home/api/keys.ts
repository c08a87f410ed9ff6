export const homeKeys = {
  /** Under the plant, so refreshing a plant's data refreshes its overview too. */
  overview: (plantId: string) => ["plants", plantId, "overview"] as const,
};
