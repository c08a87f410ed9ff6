import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { apiTokens, customers, users } from "../../db/schema/index.js";

const columns = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  scope: apiTokens.scope,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

export function createApiTokensRepo(db: Tx) {
  return {
    /** One user's tokens, newest first. */
    list(userId: string) {
      return db
        .select(columns)
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(apiTokens.createdAt));
    },

    async countOf(userId: string) {
      const [row] = await db.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId));
      return row?.n ?? 0;
    },

    async insert(values: typeof apiTokens.$inferInsert) {
      const [row] = await db.insert(apiTokens).values(values).returning(columns);
      if (!row) throw new Error("insert returned nothing");
      return row;
    },

    /** Deletes one of the user's tokens; undefined when the user holds no token of that id. */
    async delete(userId: string, tokenId: string) {
      const [row] = await db
        .delete(apiTokens)
        .where(and(eq(apiTokens.userId, userId), eq(apiTokens.id, tokenId)))
        .returning(columns);
      return row;
    },

    /**
     * The token of a secret's hash (its unique index: an indexed lookup, no comparison in
     * JavaScript), with its user as a request needs it: roles and customer read now, so a
     * changed role or a deleted user holds at the next request.
     */
    async findByHash(tokenHash: string) {
      const [row] = await db
        .select({
          id: apiTokens.id,
          scope: apiTokens.scope,
          expiresAt: apiTokens.expiresAt,
          lastUsedAt: apiTokens.lastUsedAt,
          userId: users.id,
          email: users.email,
          homeCustomerId: users.customerId,
          homeCustomerIsProvider: customers.isProvider,
          locationName: users.locationName,
          locationPlantId: users.locationPlantId,
          selectedPlantId: users.selectedPlantId,
          selectedLineId: users.selectedLineId,
          language: users.language,
          isAdministrator: sql<boolean>`exists (select 1 from user_roles ur where ur.user_id = "users"."id" and ur.role = 'administrator')`,
        })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .innerJoin(customers, eq(customers.id, users.customerId))
        // The token's customer is its user's: a user moved to another customer (never done today) keeps none.
        .where(and(eq(apiTokens.tokenHash, tokenHash), eq(apiTokens.customerId, users.customerId)));
      return row;
    },

    async touch(tokenId: string, at: Date) {
      await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, tokenId));
    },
  };
}
