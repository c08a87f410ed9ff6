import {
  AUDIT_SECRET_MARK,
  INGEST_MESSAGES,
  INGEST_TOKEN_PREFIX,
  type TCreateIngestTokenResponse,
  type TIngestToken,
} from "@linewatch/contracts";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { ingestors, ingestTokens } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";

const columns = {
  id: ingestTokens.id,
  name: ingestTokens.name,
  prefix: ingestTokens.prefix,
  createdAt: ingestTokens.createdAt,
  lastUsedAt: ingestTokens.lastUsedAt,
  revokedAt: ingestTokens.revokedAt,
};
type Row = {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};
const toToken = (r: Row): TIngestToken => ({
  ...r,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** Tokens that authenticate POST /api/ingest for one plant's ingestor. */
export function createIngestTokensService(deps: { db: Db; plants: PlantsService; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async list(ctx: AuthContext, plantId: string): Promise<TIngestToken[]> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      const rows = await db
        .select(columns)
        .from(ingestTokens)
        .where(and(eq(ingestTokens.customerId, ctx.customerId), eq(ingestTokens.ingestorId, ingestor.id)))
        .orderBy(desc(ingestTokens.createdAt));
      return rows.map(toToken);
    },

    async create(ctx: AuthContext, plantId: string, name: string): Promise<TCreateIngestTokenResponse> {
      const ingestor = await deps.plants.ingestor(ctx, plantId);
      const secret = `${INGEST_TOKEN_PREFIX}${newToken()}`;
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(ingestTokens)
          .values({
            customerId: ctx.customerId,
            ingestorId: ingestor.id,
            name,
            tokenHash: hashToken(secret),
            prefix: secret.slice(0, INGEST_TOKEN_PREFIX.length + 6),
          })
          .returning(columns);
        if (!inserted) throw new Error("insert returned nothing");
        // The token's value is shown once and never kept; the log notes only that one was set.
        await recordAudit(tx, ctx, {
          resource: "ingest_token",
          action: "create",
          resourceId: inserted.id,
          resourceName: inserted.name,
          plantId,
          before: null,
          after: { name: inserted.name, prefix: inserted.prefix, token: AUDIT_SECRET_MARK },
        });
        return inserted;
      });
      return { token: toToken(row), secret };
    },

    /** Revoking an already revoked token changes nothing and records nothing. */
    async revoke(ctx: AuthContext, tokenId: string) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(ingestTokens)
          .set({ revokedAt: now() })
          .where(
            and(
              eq(ingestTokens.customerId, ctx.customerId),
              eq(ingestTokens.id, tokenId),
              isNull(ingestTokens.revokedAt),
            ),
          )
          .returning({ id: ingestTokens.id, name: ingestTokens.name, ingestorId: ingestTokens.ingestorId });
        if (!row) {
          const [exists] = await tx
            .select({ id: ingestTokens.id })
            .from(ingestTokens)
            .where(and(eq(ingestTokens.customerId, ctx.customerId), eq(ingestTokens.id, tokenId)));
          if (!exists) throw new AppError("NOT_FOUND", INGEST_MESSAGES.tokenNotFound);
          return;
        }
        await recordAudit(tx, ctx, {
          resource: "ingest_token",
          action: "update",
          resourceId: row.id,
          resourceName: row.name,
          plantId: (
            await tx
              .select({ plantId: ingestors.plantId })
              .from(ingestors)
              .where(eq(ingestors.id, row.ingestorId))
          )[0]?.plantId,
          before: { revoked: false },
          after: { revoked: true },
        });
      });
    },

    /** The plant a bearer token ingests for, or a 401. */
    async resolve(
      secret: string | undefined,
    ): Promise<{ customerId: string; plantId: string; ingestorId: string }> {
      if (!secret?.startsWith(INGEST_TOKEN_PREFIX) || secret.length > 200) {
        throw new AppError("UNAUTHORIZED", INGEST_MESSAGES.invalidToken);
      }
      const [row] = await db
        .select({
          id: ingestTokens.id,
          customerId: ingestTokens.customerId,
          ingestorId: ingestTokens.ingestorId,
          plantId: ingestors.plantId,
        })
        .from(ingestTokens)
        .innerJoin(ingestors, eq(ingestors.id, ingestTokens.ingestorId))
        .where(and(eq(ingestTokens.tokenHash, hashToken(secret)), isNull(ingestTokens.revokedAt)));
      if (!row) throw new AppError("UNAUTHORIZED", INGEST_MESSAGES.invalidToken);
      await db.update(ingestTokens).set({ lastUsedAt: now() }).where(eq(ingestTokens.id, row.id));
      return { customerId: row.customerId, plantId: row.plantId, ingestorId: row.ingestorId };
    },
  };
}
export type IngestTokensService = ReturnType<typeof createIngestTokensService>;
