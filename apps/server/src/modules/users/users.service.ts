import {
  AUDIT_SECRET_MARK,
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  LOCATION_UNASSIGNED,
  PASSWORD_LINK_TEXTS,
  type TAddUserBody,
  type TAddUserResponse,
  type TLanguageBody,
  type TPasswordLinkResponse,
  type TSelectionBody,
  type TUpdateUserLocationBody,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { AppError, badRequest, forbidden } from "../../errors.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import { createAuthRepo } from "../auth/auth.repo.js";
import type { AuthContext, AuthService } from "../auth/auth.service.js";
import { isProviderStaff } from "../auth/auth.service.js";
import type { FeatureFlagsService } from "../feature-flags/feature-flags.service.js";
import { createUsersRepo } from "./users.repo.js";

type Row = Awaited<ReturnType<ReturnType<typeof createUsersRepo>["list"]>>[number];

const toUserRow = (r: Row): TUserRow => ({
  id: r.id,
  email: r.email,
  lastLogin: r.lastLogin ? r.lastLogin.toISOString() : null,
  role: r.isAdministrator ? "administrator" : "user",
  locationName: r.locationName,
  locationPlantId: r.locationPlantId,
  isProviderStaff: isProviderStaff({
    homeCustomerIsProvider: r.customerIsProvider,
    locationName: r.locationName,
  }),
});

/** A user as the audit log records it: the Users grid's settings (no password, no last login). */
const auditFieldsOf = (r: Row) => ({
  email: r.email,
  role: r.isAdministrator ? "administrator" : "user",
  locationName: r.locationName,
});

/** Records a change of one user, reading the row again inside the change's transaction. */
async function auditUser(tx: Tx, ctx: AuthContext, before: Row | null, userId: string, customerId: string) {
  const after = (await createUsersRepo(tx).find(customerId, userId)) ?? null;
  const row = after ?? before;
  if (!row) return;
  await recordAudit(
    tx,
    { ...ctx, customerId },
    {
      resource: "user",
      action: before === null ? "create" : after === null ? "delete" : "update",
      resourceId: userId,
      resourceName: row.email,
      plantId: row.locationPlantId,
      before: before && auditFieldsOf(before),
      after: after && auditFieldsOf(after),
    },
  );
}

const userNotFound = () => new AppError("NOT_FOUND", USER_MESSAGES.userNotFound);
const customerNotFound = () => new AppError("NOT_FOUND", USER_MESSAGES.customerNotFound);

/** PostgreSQL unique violation, as thrown by either driver (drizzle wraps it in `cause`). */
const isUniqueViolation = (e: unknown): boolean => {
  const err = e as { code?: string; cause?: unknown } | null;
  return err?.code === "23505" || (err?.cause != null && isUniqueViolation(err.cause));
};

export function createUsersService(deps: {
  db: Db;
  auth: AuthService;
  flags: FeatureFlagsService;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const repo = createUsersRepo(deps.db);

  /** Another customer's id is "not found", never "forbidden" (docs/architecture.md "Domain model"). */
  function scopeCustomer(ctx: AuthContext, customerId: string) {
    if (customerId !== ctx.customerId) throw customerNotFound();
  }

  /**
   * Checks a location (requirements.md monitor-forms §2 "User location selector", §6): a plant of the
   * customer (its name is taken from the plant), CORPORATE, UNASSIGNED (stored as both null), or
   * the provider's location, which only provider staff may assign.
   */
  async function resolveLocation(
    ctx: AuthContext,
    customerId: string,
    loc: { locationName: string | null; locationPlantId: string | null },
  ) {
    if (loc.locationPlantId) {
      const name = await repo.plantName(customerId, loc.locationPlantId);
      if (!name) throw badRequest(USER_MESSAGES.locationPlantNotFound);
      return { locationName: name, locationPlantId: loc.locationPlantId };
    }
    const name = loc.locationName;
    if (name == null || name === LOCATION_UNASSIGNED) return { locationName: null, locationPlantId: null };
    if (name === LOCATION_CORPORATE) return { locationName: name, locationPlantId: null };
    if (name === LOCATION_PROVIDER) {
      if (!ctx.isProviderStaff) throw forbidden(USER_MESSAGES.providerLocationOnly);
      return { locationName: name, locationPlantId: null };
    }
    throw badRequest(USER_MESSAGES.unknownLocation(name));
  }

  /** Creates the user (a plain user) and its one-time password link. */
  async function insertUser(ctx: AuthContext, customerId: string, body: TAddUserBody) {
    const location = await resolveLocation(ctx, customerId, body);
    if (await repo.emailExists(body.email)) throw new AppError("CONFLICT", USER_MESSAGES.exists);
    let id: string;
    try {
      id = await deps.db.transaction(async (tx) => {
        const inserted = await createUsersRepo(tx).insert({
          customerId,
          email: body.email.toLowerCase(),
          ...location,
        });
        // Back office: recorded for the customer the user was added to.
        await auditUser(tx, ctx, null, inserted, customerId);
        return inserted;
      });
    } catch (e) {
      // Two administrators adding the same email at once: the unique index decides.
      if (isUniqueViolation(e)) throw new AppError("CONFLICT", USER_MESSAGES.exists);
      throw e;
    }
    // After the insert has committed: the link is written through the auth service's own
    // connection, which could not see (or would wait on) an open transaction's new row.
    const passwordLink = await deps.auth.createPasswordLink(id);
    const row = await repo.find(customerId, id);
    if (!row) throw userNotFound();
    return { user: toUserRow(row), passwordLink };
  }

  return {
    /** The customer's users, newest login first (requirements.md settings §2.6). */
    async list(ctx: AuthContext): Promise<TUserRow[]> {
      const rows = await repo.list(ctx.customerId);
      return rows
        .map(toUserRow)
        .sort(
          (a, b) => (b.lastLogin ?? "").localeCompare(a.lastLogin ?? "") || a.email.localeCompare(b.email),
        );
    },

    /** POST /api/add-user?customerId=: users are added to the caller's own customer (requirements.md settings §6). */
    async add(ctx: AuthContext, customerId: string, body: TAddUserBody): Promise<TAddUserResponse> {
      scopeCustomer(ctx, customerId);
      return insertUser(ctx, customerId, body);
    },

    /** The back-office path: provider staff add users to any customer (requirements.md settings §6). */
    async addBackOffice(ctx: AuthContext, customerId: string, body: TAddUserBody): Promise<TAddUserResponse> {
      if (!ctx.isProviderStaff) scopeCustomer(ctx, customerId);
      else if (!(await repo.customerExists(customerId))) throw customerNotFound();
      return insertUser(ctx, customerId, body);
    },

    /** Adds (POST) or removes (PUT) the administrator role at once (requirements.md settings §4 "User row"). */
    async setAdministrator(ctx: AuthContext, body: { userId: string; customerId: string }, isAdmin: boolean) {
      scopeCustomer(ctx, body.customerId);
      const user = await repo.find(ctx.customerId, body.userId);
      if (!user) throw userNotFound();
      if (!isAdmin && body.userId === ctx.userId) throw forbidden(USER_MESSAGES.cannotChangeOwnRole);
      await deps.db.transaction(async (tx) => {
        const r = createUsersRepo(tx);
        const before = await r.find(ctx.customerId, body.userId);
        if (!before) throw userNotFound();
        if (isAdmin) await r.addRole(body.userId, "administrator");
        else await r.removeRole(body.userId, "administrator");
        await auditUser(tx, ctx, before, body.userId, ctx.customerId);
      });
      // Their next request, in this process too, is answered with the new role.
      deps.auth.sessionsChanged(body.userId);
    },

    /**
     * Deletion needs the user-deletion flag (requirements.md settings §6). The customer and the user are
     * checked first: another customer's ids are a 404 whatever the flag says.
     */
    async delete(ctx: AuthContext, body: { userId: string; customerId: string }) {
      scopeCustomer(ctx, body.customerId);
      const user = await repo.find(ctx.customerId, body.userId);
      if (!user) throw userNotFound();
      const flags = await deps.flags.get(ctx.customerId);
      if (!flags.flags.userDeletion) throw forbidden(USER_MESSAGES.deletionDisabled);
      if (body.userId === ctx.userId) throw forbidden(USER_MESSAGES.cannotDeleteSelf);
      await deps.db.transaction(async (tx) => {
        const r = createUsersRepo(tx);
        const before = await r.find(ctx.customerId, body.userId);
        if (!before) throw userNotFound();
        await r.delete(ctx.customerId, body.userId);
        await auditUser(tx, ctx, before, body.userId, ctx.customerId);
      });
      deps.auth.sessionsChanged(body.userId);
    },

    /**
     * PATCH /api/users/{userId}. A provider-staff row is read-only to anyone but provider staff
     * (requirements.md monitor-forms §6): changing it would take away the provider's access.
     */
    async setLocation(ctx: AuthContext, userId: string, body: TUpdateUserLocationBody) {
      const user = await repo.find(ctx.customerId, userId);
      if (!user) throw userNotFound();
      if (toUserRow(user).isProviderStaff && !ctx.isProviderStaff) {
        throw forbidden(USER_MESSAGES.providerStaffLocation);
      }
      const location = await resolveLocation(ctx, ctx.customerId, body);
      await deps.db.transaction(async (tx) => {
        const r = createUsersRepo(tx);
        const before = await r.find(ctx.customerId, userId);
        if (!before) throw userNotFound();
        await r.setLocation(ctx.customerId, userId, location.locationName, location.locationPlantId);
        await auditUser(tx, ctx, before, userId, ctx.customerId);
      });
      deps.auth.sessionsChanged(userId);
    },

    /**
     * POST /api/users/{userId}/password-link (issue 33 §2, decision 0318): a new one-time link to
     * set a password, as for a new user. Every session of the user ends and their earlier links
     * stop working, in the transaction that writes the link and its audit record (never the link).
     * A provider-staff row is, as for its location, only provider staff's to reset.
     */
    async issuePasswordLink(ctx: AuthContext, userId: string): Promise<TPasswordLinkResponse> {
      const user = await repo.find(ctx.customerId, userId);
      if (!user) throw userNotFound();
      if (toUserRow(user).isProviderStaff && !ctx.isProviderStaff) {
        throw forbidden(PASSWORD_LINK_TEXTS.providerStaffOnly);
      }
      const passwordLink = await deps.db.transaction(async (tx) => {
        await createAuthRepo(tx).resetForPasswordLink(userId, now());
        const link = await deps.auth.createPasswordLink(userId, tx);
        await recordAudit(tx, ctx, {
          resource: "user",
          action: "update",
          resourceId: userId,
          resourceName: user.email,
          plantId: user.locationPlantId,
          before: {},
          after: { passwordLink: AUDIT_SECRET_MARK },
        });
        return link;
      });
      // Not one request more from the user's ended sessions, in this process too.
      deps.auth.sessionsChanged(userId);
      return { passwordLink };
    },

    /** Remembers the user's plant and line (top bar), only within the user's own customer. */
    async saveSelection(ctx: AuthContext, body: TSelectionBody) {
      if (ctx.customerId !== ctx.homeCustomerId) return;
      await repo.saveSelection(ctx.userId, ctx.customerId, body);
      deps.auth.sessionsChanged(ctx.userId);
    },

    /**
     * The user's own interface language (issue 32 §4); null follows the browser's. A preference,
     * not a setting of the customer's: kept whichever customer provider staff act for, not audited.
     */
    async saveLanguage(ctx: AuthContext, body: TLanguageBody) {
      await repo.saveLanguage(ctx.userId, body.language);
      deps.auth.sessionsChanged(ctx.userId);
    },

    /** userId → holds the role; any id that is not one of the customer's users is a 404. */
    async checkRoles(ctx: AuthContext, userIds: string[]): Promise<Record<string, boolean>> {
      const rows = await repo.rolesOf(ctx.customerId, userIds);
      if (rows.length !== new Set(userIds).size) throw userNotFound();
      return Object.fromEntries(rows.map((r) => [r.id, r.isAdministrator]));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
