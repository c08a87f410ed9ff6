// The API tokens dialog's words and the server's answers about tokens, apart from api-tokens.ts's
// schemas: the user menu opens the dialog, and the signed-in frame loads without zod (issue #17).

/** What a token may do: read only (GET), or what the user's role allows. */
export const API_TOKEN_SCOPES = ["read", "role"] as const;

/** The secret's recognisable start (ingest tokens start with "lwi_"). */
export const API_TOKEN_PREFIX = "lwt_";

export const API_TOKEN_BOUNDS = {
  nameMax: 100,
  /** The longest lifetime a token may be given: one year. */
  maxDays: 365,
  defaultDays: 90,
  /** Live and expired tokens one user may hold. */
  perUser: 50,
} as const;

/** The server's answers about tokens. */
export const API_TOKEN_MESSAGES = {
  created: "API token created",
  revoked: "API token revoked",
  notFound: "API token not found",
  invalid: "Invalid, expired or revoked API token",
  readOnly: "This API token is read-only: it cannot make changes",
  sessionOnly: "API tokens are not accepted here: sign in to do this",
  tooMany: (max: number) => `You hold ${max} API tokens: revoke one before creating another`,
} as const;

/** The API tokens dialog (user menu). */
export const API_TOKEN_TEXTS = {
  title: "API tokens",
  intro:
    "Personal tokens let scripts call the Linewatch API as you, with the header Authorization: Bearer followed by the token. A token works until it expires or you revoke it.",
  columns: {
    name: "Name",
    scope: "Scope",
    created: "Created",
    expires: "Expires",
    lastUsed: "Last used",
    actions: "Actions",
  },
  scopes: { read: "Read only", role: "Your role" },
  never: "Never",
  expired: "Expired",
  noTokens: "No API tokens yet",
  createHeading: "New token",
  name: "Name",
  expiresInDays: "Expires in (days)",
  expiresHelp: (max: number) => `1 to ${max} days`,
  scope: "Scope",
  create: "Create token",
  createdHeading: "Your new token",
  shownOnce: "Copy the token now: it will not be shown again.",
  tokenLabel: "Token",
  copy: "Copy token",
  copied: "Token copied",
  copyBlocked: "Copying is blocked here: select the token and copy it by hand.",
  revoke: "Revoke",
  revokeLabel: (name: string) => `Revoke ${name}`,
  revokeConfirm: (name: string) =>
    `Revoke the API token "${name}"? Scripts that use it stop working at once.`,
  cancel: "Cancel",
  close: "Close",
  loadError: "Error loading API tokens",
} as const;
