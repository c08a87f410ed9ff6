import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import {
  customers,
  lines,
  loginFailures,
  passwordTokens,
  plants,
  sessions,
  users,
} from "../../db/schema/index.js";

export function createAuthRepo(db: Tx) {
  return {
    async findUserByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, customerId: users.customerId })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return row;
    },

    async countRecentFailures(email: string, since: Date) {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(loginFailures)
        .where(and(eq(loginFailures.email, email.toLowerCase()), gt(loginFailures.at, since)));
      return row?.n ?? 0;
    },

    async recordFailure(email: string, at: Date) {
      await db.insert(loginFailures).values({ email: email.toLowerCase(), at });
    },

    async clearFailures(email: string) {
      await db.delete(loginFailures).where(eq(loginFailures.email, email.toLowerCase()));
    },

    async createSession(tokenHash: string, userId: string, actingCustomerId: string, now: Date) {
      await db
        .insert(sessions)
        .values({ tokenHash, userId, actingCustomerId, createdAt: now, lastSeenAt: now });
      await db.update(users).set({ lastLogin: now }).where(eq(users.id, userId));
    },

    /** The session with its user, roles and customers; one round trip on every request. */
    async findSession(tokenHash: string) {
      const [row] = await db
        .select({
          tokenHash: sessions.tokenHash,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          actingCustomerId: sessions.actingCustomerId,
          userId: users.id,
          email: users.email,
          homeCustomerId: users.customerId,
          homeCustomerIsProvider: customers.isProvider,
          locationName: users.locationName,
          locationPlantId: users.locationPlantId,
          selectedPlantId: users.selectedPlantId,
          selectedLineId: users.selectedLineId,
          isAdministrator: sql<boolean>`exists (select 1 from user_roles ur where ur.user_id = "users"."id" and ur.role = 'administrator')`,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(sessions.tokenHash, tokenHash));
      return row;
    },

    async touchSession(tokenHash: string, now: Date) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
    },

    async deleteSession(tokenHash: string) {
      await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    },

    async setActingCustomer(tokenHash: string, customerId: string) {
      await db
        .update(sessions)
        .set({ actingCustomerId: customerId })
        .where(eq(sessions.tokenHash, tokenHash));
    },

    /** The customer's plants by name, and the lines (name, active) of one plant. */
    async plantIds(customerId: string) {
      return db
        .select({ id: plants.id })
        .from(plants)
        .where(eq(plants.customerId, customerId))
        .orderBy(asc(plants.name));
    },

    async linesOfPlant(customerId: string, plantId: string) {
      return db
        .select({ id: lines.id, plantId: lines.plantId, name: lines.name, active: lines.active })
        .from(lines)
        .where(and(eq(lines.customerId, customerId), eq(lines.plantId, plantId)));
    },

    async customerName(id: string) {
      const [row] = await db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(eq(customers.id, id));
      return row;
    },

    async createPasswordToken(tokenHash: string, userId: string, expiresAt: Date) {
      await db.insert(passwordTokens).values({ tokenHash, userId, expiresAt });
    },

    async findPasswordToken(tokenHash: string) {
      const [row] = await db
        .select({
          userId: passwordTokens.userId,
          expiresAt: passwordTokens.expiresAt,
          usedAt: passwordTokens.usedAt,
        })
        .from(passwordTokens)
        .where(eq(passwordTokens.tokenHash, tokenHash));
      return row;
    },

    async usePasswordToken(tokenHash: string, userId: string, passwordHash: string, now: Date) {
      await db.update(passwordTokens).set({ usedAt: now }).where(eq(passwordTokens.tokenHash, tokenHash));
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
      // A new password ends every existing session of that user.
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },
  };
}
