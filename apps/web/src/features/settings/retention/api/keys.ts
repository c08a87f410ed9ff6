/** Query keys of Settings → Data retention (one per customer: the session's). */
export const retentionKeys = {
  all: ["retention"] as const,
};
