import {
  AUDIT_SECRET_MARK,
  AUTH_MESSAGES,
  defaultLine,
  LOCATION_PROVIDER,
  LOGIN_LIMIT,
  SESSION_LIMITS,
  type TApiTokenScope,
  type TChangePasswordBody,
  type TLanguage,
  type TLoginBody,
  type TMe,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { AppError } from "../../errors.js";
import { hashPassword, verifyPassword } from "../../lib/password.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import { createAuthRepo } from "./auth.repo.js";
import { createSessionCache } from "./session-cache.js";

/** Who is asking: resolved from the session on every request. */
export type AuthContext = {
  /** The session's token hash; "" for a request made with an API token (it has no session). */
  sessionHash: string;
  /** Set when the request came with an API token instead of a session (api-tokens.service.ts). */
  apiToken?: { id: string; scope: TApiTokenScope };
  userId: string;
  email: string;
  homeCustomerId: string;
  /** The customer every query is scoped to. */
  customerId: string;
  isAdministrator: boolean;
  isProviderStaff: boolean;
  locationName: string | null;
  locationPlantId: string | null;
  selectedPlantId: string | null;
  selectedLineId: string | null;
  /** The interface's language the user chose; null follows the browser's. */
  language: TLanguage | null;
};

/** Provider staff: users of the provider's customer at the provider's own location. */
export const isProviderStaff = (u: { homeCustomerIsProvider: boolean; locationName: string | null }) =>
  u.homeCustomerIsProvider && u.locationName === LOCATION_PROVIDER;

const PASSWORD_LINK_TTL_MS = 7 * 24 * 3_600_000;

export function createAuthService(deps: {
  db: Db;
  publicUrl: string;
  now?: () => Date;
  /** Failed sign-ins one client address may make within LOGIN_LIMIT.windowMs, across emails (0 = no limit). */
  signinFailuresPerAddress?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const repo = createAuthRepo(deps.db);
  type SessionRow = NonNullable<Awaited<ReturnType<typeof repo.findSession>>>;
  // Used only while `sessionCacheLive(true)` says the process hears the invalidation channel.
  const sessions = createSessionCache<SessionRow>({ now: () => now().getTime() });

  /**
   * The plant and line a session opens on: the user's remembered pick (in the home customer),
   * otherwise the plant's default line, its first active line by name (defaultLine). The server
   * decides, so every new session and every client opens on the same line.
   */
  async function selectionOf(ctx: AuthContext): Promise<{ plantId: string | null; lineId: string | null }> {
    const isHome = ctx.customerId === ctx.homeCustomerId;
    const plantIds = (await repo.plantIds(ctx.customerId)).map((p) => p.id);
    const remembered = isHome && ctx.selectedPlantId && plantIds.includes(ctx.selectedPlantId);
    const plantId = remembered ? ctx.selectedPlantId : (plantIds[0] ?? null);
    if (!plantId) return { plantId: null, lineId: null };
    const plantLines = await repo.linesOfPlant(ctx.customerId, plantId);
    const rememberedLine = isHome ? plantLines.find((l) => l.id === ctx.selectedLineId) : undefined;
    return { plantId, lineId: (rememberedLine ?? defaultLine(plantLines))?.id ?? null };
  }

  /**
   * Records a password attempt for this email and client address as a failure before the password
   * is checked (forgotten when it was right), and refuses it past the sign-in limits: sign-in and a
   * password change share the count, so neither can try more passwords than the limits allow.
   * Answers the attempt's time.
   */
  async function reserveAttempt(email: string, clientAddress: string | null): Promise<Date> {
    const t = now();
    const attempt = await deps.db.transaction((tx) =>
      createAuthRepo(tx).reserveAttempt({
        email,
        clientAddress,
        at: t,
        since: new Date(t.getTime() - LOGIN_LIMIT.windowMs),
        emailLimit: LOGIN_LIMIT.failures,
        addressLimit: deps.signinFailuresPerAddress ?? 0,
      }),
    );
    if (attempt === "emailLimit") throw new AppError("TOO_MANY_REQUESTS", AUTH_MESSAGES.tooManyAttempts);
    if (attempt === "addressLimit")
      throw new AppError("TOO_MANY_REQUESTS", AUTH_MESSAGES.tooManyAttemptsFromAddress);
    return t;
  }

  return {
    /**
     * Signs in: a fresh session id every time; same answer whether the email exists or not.
     * The attempt is recorded as a failure before the password is checked (and forgotten when it
     * was right), so concurrent attempts cannot check more passwords than the limits allow.
     */
    async login(body: TLoginBody, clientAddress: string | null = null): Promise<{ token: string }> {
      const t = await reserveAttempt(body.email, clientAddress);
      const user = await repo.findUserByEmail(body.email);
      const ok = await verifyPassword(user?.passwordHash, body.password);
      if (!user || !ok) throw new AppError("UNAUTHORIZED", AUTH_MESSAGES.invalidCredentials);
      await repo.clearFailures(body.email);
      const token = newToken();
      await repo.createSession(hashToken(token), user.id, user.customerId, t);
      return { token };
    },

    /** The session behind a cookie, or null when missing, idle for 12 h or older than 7 days. */
    async resolve(token: string | undefined): Promise<AuthContext | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hashToken(token);
      let s = sessions.get(tokenHash);
      if (!s) {
        const generation = sessions.generation();
        const row = await repo.findSession(tokenHash);
        if (!row) return null;
        sessions.put(tokenHash, row, generation);
        s = row;
      }
      const t = now().getTime();
      if (
        t - s.lastSeenAt.getTime() > SESSION_LIMITS.idleMs ||
        t - s.createdAt.getTime() > SESSION_LIMITS.absoluteMs
      ) {
        sessions.dropSession(tokenHash);
        await repo.deleteSession(tokenHash);
        return null;
      }
      // Write the idle clock at most once a minute, not on every request (the cached row too).
      if (t - s.lastSeenAt.getTime() > 60_000) {
        await repo.touchSession(tokenHash, new Date(t));
        s.lastSeenAt = new Date(t);
      }
      const providerStaff = isProviderStaff(s);
      return {
        sessionHash: tokenHash,
        userId: s.userId,
        email: s.email,
        homeCustomerId: s.homeCustomerId,
        // A customer switch only ever holds for provider staff.
        customerId: providerStaff ? s.actingCustomerId : s.homeCustomerId,
        isAdministrator: s.isAdministrator,
        isProviderStaff: providerStaff,
        locationName: s.locationName,
        locationPlantId: s.locationPlantId,
        selectedPlantId: s.selectedPlantId,
        selectedLineId: s.selectedLineId,
        language: s.language,
      };
    },

    async logout(ctx: AuthContext) {
      sessions.dropSession(ctx.sessionHash);
      await repo.deleteSession(ctx.sessionHash);
      sessions.dropSession(ctx.sessionHash);
    },

    /**
     * The session cache follows the `linewatch_auth` channel (session-invalidation.ts): live while
     * it is heard, and each notification names a user whose sessions must be read again.
     */
    sessionCacheLive: (live: boolean) => sessions.setLive(live),
    sessionsChanged: (userId: string) => sessions.dropUser(userId),

    async me(ctx: AuthContext): Promise<TMe> {
      const [home, acting] = await Promise.all([
        repo.customerName(ctx.homeCustomerId),
        repo.customerName(ctx.customerId),
      ]);
      if (!home || !acting) throw new AppError("UNAUTHORIZED", "Unauthorized");
      const selection = await selectionOf(ctx);
      return {
        id: ctx.userId,
        email: ctx.email,
        isAdministrator: ctx.isAdministrator,
        isProviderStaff: ctx.isProviderStaff,
        locationName: ctx.locationName,
        locationPlantId: ctx.locationPlantId,
        homeCustomer: home,
        customer: acting,
        selectedPlantId: selection.plantId,
        selectedLineId: selection.lineId,
        language: ctx.language,
      };
    },

    /** Provider staff act for another customer; anyone else is refused. */
    async switchCustomer(ctx: AuthContext, customerId: string) {
      if (!ctx.isProviderStaff) throw new AppError("FORBIDDEN", "Forbidden resource");
      const c = await repo.customerName(customerId);
      if (!c) throw new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);
      await repo.setActingCustomer(ctx.sessionHash, customerId);
      sessions.dropSession(ctx.sessionHash);
    },

    /**
     * A one-time link to set a password, valid for 7 days; in `tx` when given (the caller's change
     * and the link commit together).
     */
    async createPasswordLink(userId: string, tx?: Tx): Promise<string> {
      const token = newToken();
      await (tx ? createAuthRepo(tx) : repo).createPasswordToken(
        hashToken(token),
        userId,
        new Date(now().getTime() + PASSWORD_LINK_TTL_MS),
      );
      return `${deps.publicUrl}/set-password?token=${encodeURIComponent(token)}`;
    },

    async setPassword(token: string, password: string) {
      const tokenHash = hashToken(token);
      const row = await repo.findPasswordToken(tokenHash);
      if (!row || row.usedAt || row.expiresAt.getTime() < now().getTime()) {
        throw new AppError("BAD_REQUEST", AUTH_MESSAGES.invalidPasswordLink);
      }
      const passwordHash = await hashPassword(password);
      await deps.db.transaction(async (tx) => {
        const txRepo = createAuthRepo(tx);
        await txRepo.usePasswordToken(tokenHash, row.userId, passwordHash, now());
        const user = await txRepo.userIdentity(row.userId);
        if (!user) return;
        // The user sets their own password through the link; only that it was set is recorded.
        await recordAudit(
          tx,
          {
            customerId: user.customerId,
            userId: row.userId,
            email: user.email,
            isProviderStaff: isProviderStaff(user),
          },
          {
            resource: "user",
            action: "update",
            resourceId: row.userId,
            resourceName: user.email,
            plantId: user.locationPlantId,
            before: {},
            after: { password: AUDIT_SECRET_MARK },
          },
        );
      });
      // Every session of the user has ended (usePasswordToken): not one request more from them.
      sessions.dropUser(row.userId);
    },

    /**
     * A signed-in user changes their own password (issue 33 §2, decision 0318). The current
     * password is checked under the sign-in limits, counted with the sign-ins of the same email
     * and client address: a stolen session cannot try more passwords than a sign-in form could.
     * Every other session of the user ends; the one that made the change stays.
     */
    async changePassword(ctx: AuthContext, body: TChangePasswordBody, clientAddress: string | null = null) {
      if (ctx.apiToken || !ctx.sessionHash) throw new AppError("FORBIDDEN", "Forbidden resource");
      await reserveAttempt(ctx.email, clientAddress);
      const user = await repo.findUserByEmail(ctx.email);
      const ok = user?.id === ctx.userId && (await verifyPassword(user.passwordHash, body.currentPassword));
      if (!ok) throw wrongCurrentPassword();
      await repo.clearFailures(ctx.email);
      const passwordHash = await hashPassword(body.newPassword);
      await deps.db.transaction(async (tx) => {
        const txRepo = createAuthRepo(tx);
        await txRepo.changePassword(ctx.userId, passwordHash, ctx.sessionHash);
        const identity = await txRepo.userIdentity(ctx.userId);
        if (!identity) return;
        // Recorded for the user's own customer, without the password: only that it changed.
        await recordAudit(
          tx,
          {
            customerId: identity.customerId,
            userId: ctx.userId,
            email: identity.email,
            isProviderStaff: ctx.isProviderStaff,
          },
          {
            resource: "user",
            action: "update",
            resourceId: ctx.userId,
            resourceName: identity.email,
            plantId: identity.locationPlantId,
            before: {},
            after: { password: AUDIT_SECRET_MARK },
          },
        );
      });
      sessions.dropUser(ctx.userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** The answer for a password change's wrong current password, under its field for the form. */
const wrongCurrentPassword = () =>
  new AppError("BAD_REQUEST", AUTH_MESSAGES.wrongCurrentPassword, {
    fields: [{ in: "body", field: "currentPassword", message: AUTH_MESSAGES.wrongCurrentPassword }],
  });
