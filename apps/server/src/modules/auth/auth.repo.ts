import { and, asc, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
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

// Advisory lock namespaces (the first key of pg_advisory_xact_lock(int, int)).
const LOCK_ADDRESS = 7301;
const LOCK_EMAIL = 7302;

export function createAuthRepo(db: Tx) {
  return {
    async findUserByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, customerId: users.customerId })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return row;
    },

    /**
     * Reserves a sign-in attempt: under locks on the client address and the email (held until
     * the transaction ends; run it in one), counts the failures of both within the window and,
     * when neither is at its limit, writes the attempt as a failure. Concurrent attempts queue on
     * the locks, so each sees the ones before it: at most `emailLimit` passwords of one email and
     * `addressLimit` of one address are ever checked per window. Says which limit was reached, if any.
     */
    async reserveAttempt(a: {
      email: string;
      clientAddress: string | null;
      at: Date;
      since: Date;
      emailLimit: number;
      /** 0 = no limit per address. */
      addressLimit: number;
    }): Promise<"reserved" | "emailLimit" | "addressLimit"> {
      const email = a.email.toLowerCase();
      // Always the address first, then the email: no two attempts can wait on each other in a cycle.
      // Two-key advisory locks: key 1 names the kind, so an address and an email never share a lock.
      if (a.addressLimit > 0 && a.clientAddress != null) {
        await db.execute(sql`select pg_advisory_xact_lock(${LOCK_ADDRESS}, hashtext(${a.clientAddress}))`);
      }
      await db.execute(sql`select pg_advisory_xact_lock(${LOCK_EMAIL}, hashtext(${email}))`);
      const [counts] = await db
        .select({
          byEmail: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})::int`,
          byAddress: sql<number>`count(*) filter (where ${loginFailures.clientAddress} = ${a.clientAddress})::int`,
        })
        .from(loginFailures)
        .where(
          and(
            gt(loginFailures.at, a.since),
            a.addressLimit > 0 && a.clientAddress != null
              ? or(eq(loginFailures.email, email), eq(loginFailures.clientAddress, a.clientAddress))
              : eq(loginFailures.email, email),
          ),
        );
      if ((counts?.byEmail ?? 0) >= a.emailLimit) return "emailLimit";
      if (a.addressLimit > 0 && (counts?.byAddress ?? 0) >= a.addressLimit) return "addressLimit";
      // Failures of this email from before the window count for nothing any more.
      await db
        .delete(loginFailures)
        .where(and(eq(loginFailures.email, email), lte(loginFailures.at, a.since)));
      await db.insert(loginFailures).values({ email, clientAddress: a.clientAddress, at: a.at });
      return "reserved";
    },

    /** After a right password: the email's failures (the reserved attempt among them) are forgotten. */
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
          language: users.language,
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

    /** Who a user is, for the audit record of their own password change. */
    async userIdentity(userId: string) {
      const [row] = await db
        .select({
          customerId: users.customerId,
          email: users.email,
          locationName: users.locationName,
          locationPlantId: users.locationPlantId,
          homeCustomerIsProvider: customers.isProvider,
        })
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.id, userId));
      return row;
    },

    /** A new password from the user menu: every other session of the user ends, `keepSession` stays. */
    async changePassword(userId: string, passwordHash: string, keepSession: string) {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
      await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepSession)));
    },

    /**
     * An administrator's new password link (issue 33 §2): the user's links not yet used stop
     * working (only the newest one sets a password) and every session of the user ends.
     */
    async resetForPasswordLink(userId: string, now: Date) {
      await db
        .update(passwordTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },

    async usePasswordToken(tokenHash: string, userId: string, passwordHash: string, now: Date) {
      await db.update(passwordTokens).set({ usedAt: now }).where(eq(passwordTokens.tokenHash, tokenHash));
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
      // A new password ends every existing session of that user.
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },
  };
}
