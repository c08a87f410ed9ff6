import { z } from "zod";
import { ZId, zString } from "./common.js";

/** An ingest token as administrators see it: never the secret after creation. */
export const ZIngestToken = z.object({
  id: ZId,
  name: zString(),
  prefix: zString(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type TIngestToken = z.infer<typeof ZIngestToken>;
export const ZIngestTokenList = z.array(ZIngestToken);
export const ZIngestTokenParams = z.strictObject({ tokenId: ZId });

/** The secret is in this answer only: it is shown once. */
export const ZCreateIngestTokenResponse = z.object({ token: ZIngestToken, secret: zString() });
export type TCreateIngestTokenResponse = z.infer<typeof ZCreateIngestTokenResponse>;

export const INGEST_TOKEN_PREFIX = "lwi_";
export const INGEST_MESSAGES = {
  invalidToken: "Invalid or revoked ingest token",
  tokenCreated: "Ingest token created. Copy it now: it will not be shown again.",
  tokenRevoked: "Ingest token revoked",
  tokenNotFound: "Ingest token not found",
} as const;
