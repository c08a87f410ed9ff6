import { z } from "zod";
import { API_TOKEN_BOUNDS, API_TOKEN_SCOPES } from "./api-token-texts.js";
import { ZId, ZIsoDateTime, zString, zText } from "./common.js";

// Personal API tokens (issue 33 §3, decision 0319): a user's credential for scripts, sent as
// `Authorization: Bearer lwt_…`. The secret is in the create answer only; the server keeps its
// SHA-256.

/** "read": GET and HEAD only; "role": whatever the user's role allows when the token is used. */
export const ZApiTokenScope = z.enum(API_TOKEN_SCOPES);
export type TApiTokenScope = z.infer<typeof ZApiTokenScope>;

/** A token as its owner sees it in the list: never the secret. */
export const ZApiToken = z.object({
  id: ZId,
  name: zString(),
  /** The first characters of the secret, so the owner can tell tokens apart. */
  prefix: zString(),
  scope: ZApiTokenScope,
  createdAt: ZIsoDateTime,
  expiresAt: ZIsoDateTime,
  lastUsedAt: ZIsoDateTime.nullable(),
});
export type TApiToken = z.infer<typeof ZApiToken>;
export const ZApiTokenList = z.array(ZApiToken);

/** POST /api/auth/tokens. */
export const ZCreateApiTokenBody = z.strictObject({
  name: zText(API_TOKEN_BOUNDS.nameMax),
  expiresInDays: z.number().int().min(1).max(API_TOKEN_BOUNDS.maxDays),
  scope: ZApiTokenScope,
});
export type TCreateApiTokenBody = z.infer<typeof ZCreateApiTokenBody>;

/** The secret is in this answer only: it is shown once. */
export const ZCreateApiTokenResponse = z.object({ token: ZApiToken, secret: zString() });
export type TCreateApiTokenResponse = z.infer<typeof ZCreateApiTokenResponse>;

export const ZApiTokenParams = z.strictObject({ tokenId: ZId });
