/** Query keys of the integrations pages (Microsoft Teams, ETQ Reliance), per plant. */
export const notificationKeys = {
  all: ["notifications"] as const,
  teams: (plantId: string) => ["notifications", plantId, "teams"] as const,
  reliance: (plantId: string) => ["notifications", plantId, "reliance"] as const,
  health: (plantId: string, channel: "teams" | "etq") =>
    ["notifications", plantId, "health", channel] as const,
};
