export const sessionKeys = {
  me: ["me"] as const,
  flags: ["feature-flags"] as const,
  customers: ["customers-for-switch"] as const,
};
