/** Query keys of the user's own API tokens (the user, not the customer, owns them). */
export const apiTokenKeys = {
  all: ["api-tokens"] as const,
  list: (userId: string | undefined) => ["api-tokens", userId ?? "none", "list"] as const,
};
