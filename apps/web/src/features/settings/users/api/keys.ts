/** Query keys of the Users page; the customer is part of the key (provider staff switch customers). */
export const userKeys = {
  all: ["users"] as const,
  list: (customerId: string | undefined) => ["users", customerId ?? "none", "list"] as const,
};
