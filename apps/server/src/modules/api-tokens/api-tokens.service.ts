import {
  API_TOKEN_BOUNDS,
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  AUDIT_SECRET_MARK,
  type TApiToken,
  type TCreateApiTokenBody,
  type TCreateApiTokenResponse,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import { type AuthContext, isProviderStaff } from "../auth/auth.service.js";
import { createApiTokensRepo } from "./api-tokens.repo.js";

type Row = Awaited<ReturnType<ReturnType<typeof createApiTokensRepo>["list"]>>[number];

const toToken = (r: Row): TApiToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  createdAt: r.createdAt.toISOString(),
  expiresAt: r.expiresAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
});

/** A token as the audit log records it: never the secret, its prefix only. */
const auditFieldsOf = (r: Row) => ({
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  expiresAt: r.expiresAt.toISOString(),
});

const DAY_MS = 86_400_000;
/** The last-used time is written at most once a minute a token, not on every request. */
const TOUCH_EVERY_MS = 60_000;

const notFound = () => new AppError("NOT_FOUND", API_TOKEN_MESSAGES.notFound);

/**
 * Personal API tokens (issue 33 §3, decision 0319). A token belongs to its user and acts for the
 * user's own customer (a provider's staff member acting for another customer makes tokens of
 * their own customer). Everything about tokens is the owner's: another user's token, of this
 * customer or another, is "not found".
 */
export function createApiTokensService(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const repo = createApiTokensRepo(deps.db);
  /** Records for the owner's own customer, whichever customer the session acts for. */
  const actorOf = (ctx: AuthContext) => ({ ...ctx, customerId: ctx.homeCustomerId });

  return {
    async list(ctx: AuthContext): Promise<TApiToken[]> {
      return (await repo.list(ctx.userId)).map(toToken);
    },

    /** The secret is in this answer only; the table keeps its SHA-256. */
    async create(ctx: AuthContext, body: TCreateApiTokenBody): Promise<TCreateApiTokenResponse> {
      if ((await repo.countOf(ctx.userId)) >= API_TOKEN_BOUNDS.perUser) {
        throw new AppError("CONFLICT", API_TOKEN_MESSAGES.tooMany(API_TOKEN_BOUNDS.perUser));
      }
      const secret = `${API_TOKEN_PREFIX}${newToken()}`;
      const row = await deps.db.transaction(async (tx) => {
        const inserted = await createApiTokensRepo(tx).insert({
          userId: ctx.userId,
          customerId: ctx.homeCustomerId,
          name: body.name,
          tokenHash: hashToken(secret),
          prefix: secret.slice(0, API_TOKEN_PREFIX.length + 6),
          scope: body.scope,
          expiresAt: new Date(now().getTime() + body.expiresInDays * DAY_MS),
        });
        await recordAudit(tx, actorOf(ctx), {
          resource: "api_token",
          action: "create",
          resourceId: inserted.id,
          resourceName: inserted.name,
          before: null,
          after: { ...auditFieldsOf(inserted), token: AUDIT_SECRET_MARK },
        });
        return inserted;
      });
      return { token: toToken(row), secret };
    },

    /** Revoking deletes the token: the next request with it is a 401. */
    async revoke(ctx: AuthContext, tokenId: string) {
      await deps.db.transaction(async (tx) => {
        const row = await createApiTokensRepo(tx).delete(ctx.userId, tokenId);
        if (!row) throw notFound();
        await recordAudit(tx, actorOf(ctx), {
          resource: "api_token",
          action: "delete",
          resourceId: row.id,
          resourceName: row.name,
          before: auditFieldsOf(row),
          after: null,
        });
      });
    },

    /**
     * Who a bearer secret acts as, or null: unknown, revoked (deleted) or expired. The user's
     * role is read now, so a "role" token follows the user's current role; a "read" token keeps
     * the user's reading rights and makes no change (the request hook refuses those).
     */
    async resolve(secret: string): Promise<AuthContext | null> {
      if (!secret.startsWith(API_TOKEN_PREFIX) || secret.length > 200) return null;
      const row = await repo.findByHash(hashToken(secret));
      if (!row) return null;
      const t = now();
      if (row.expiresAt.getTime() <= t.getTime()) return null;
      if (!row.lastUsedAt || t.getTime() - row.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
        await repo.touch(row.id, t);
      }
      return {
        // No session: the routes that use one (sign-out, customer switch) are session-only.
        sessionHash: "",
        apiToken: { id: row.id, scope: row.scope },
        userId: row.userId,
        email: row.email,
        homeCustomerId: row.homeCustomerId,
        // A token acts for its user's own customer only, provider staff included.
        customerId: row.homeCustomerId,
        isAdministrator: row.isAdministrator,
        isProviderStaff: isProviderStaff(row),
        locationName: row.locationName,
        locationPlantId: row.locationPlantId,
        selectedPlantId: row.selectedPlantId,
        selectedLineId: row.selectedLineId,
        language: row.language,
      };
    },
  };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;
