import {
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  LOCATION_UNASSIGNED,
  type TAddUserBody,
  type TAddUserResponse,
  type TSelectionBody,
  type TUpdateUserLocationBody,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError, badRequest, forbidden } from "../../errors.js";
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

const userNotFound = () => new AppError("NOT_FOUND", "User not found");

export function createUsersService(deps: { db: Db; auth: AuthService; flags: FeatureFlagsService }) {
  const repo = createUsersRepo(deps.db);

  /** Another customer's id is "not found", never "forbidden" (architecture.md "Domain model"). */
  function scopeCustomer(ctx: AuthContext, customerId: string) {
    if (customerId !== ctx.customerId) throw new AppError("NOT_FOUND", "Customer not found");
  }

  /**
   * Checks a location: a plant of the customer (its name is taken from the plant), CORPORATE,
   * UNASSIGNED (both null), or the provider's location, which only provider staff may assign.
   */
  async function resolveLocation(
    ctx: AuthContext,
    customerId: string,
    loc: { locationName: string | null; locationPlantId: string | null },
  ) {
    if (loc.locationPlantId) {
      const name = await repo.plantName(customerId, loc.locationPlantId);
      if (!name) throw badRequest("Location plant not found");
      return { locationName: name, locationPlantId: loc.locationPlantId };
    }
    const name = loc.locationName;
    if (name == null || name === LOCATION_UNASSIGNED) return { locationName: null, locationPlantId: null };
    if (name === LOCATION_CORPORATE) return { locationName: name, locationPlantId: null };
    if (name === LOCATION_PROVIDER) {
      if (!ctx.isProviderStaff) throw forbidden();
      return { locationName: name, locationPlantId: null };
    }
    throw badRequest(`Unknown location "${name}"`);
  }

  return {
    /** The customer's users, newest login first (spec settings §2.6). */
    async list(ctx: AuthContext): Promise<TUserRow[]> {
      const rows = await repo.list(ctx.customerId);
      return rows
        .map(toUserRow)
        .sort(
          (a, b) => (b.lastLogin ?? "").localeCompare(a.lastLogin ?? "") || a.email.localeCompare(b.email),
        );
    },

    async add(ctx: AuthContext, customerId: string, body: TAddUserBody): Promise<TAddUserResponse> {
      // Back office: provider staff may add users to any customer; everyone else to their own.
      if (!ctx.isProviderStaff) scopeCustomer(ctx, customerId);
      const location = await resolveLocation(ctx, customerId, body);
      return deps.db.transaction(async (tx) => {
        const txRepo = createUsersRepo(tx);
        if (await txRepo.emailExists(body.email)) throw new AppError("CONFLICT", USER_MESSAGES.exists);
        const id = await txRepo.insert({ customerId, email: body.email.toLowerCase(), ...location });
        const row = await txRepo.find(customerId, id);
        if (!row) throw new Error("new user vanished");
        const passwordLink = await deps.auth.createPasswordLink(id);
        return { user: toUserRow(row), passwordLink };
      });
    },

    /** Adds (POST) or removes (PUT) the administrator role at once. */
    async setAdministrator(ctx: AuthContext, body: { userId: string; customerId: string }, isAdmin: boolean) {
      scopeCustomer(ctx, body.customerId);
      const user = await repo.find(ctx.customerId, body.userId);
      if (!user) throw userNotFound();
      if (!isAdmin && body.userId === ctx.userId) throw badRequest(USER_MESSAGES.cannotChangeOwnRole);
      if (isAdmin) await repo.addRole(body.userId, "administrator");
      else await repo.removeRole(body.userId, "administrator");
    },

    async delete(ctx: AuthContext, body: { userId: string; customerId: string }) {
      const flags = await deps.flags.get(ctx.customerId);
      if (!flags.flags.userDeletion) throw forbidden();
      scopeCustomer(ctx, body.customerId);
      if (body.userId === ctx.userId) throw badRequest(USER_MESSAGES.cannotDeleteSelf);
      const user = await repo.find(ctx.customerId, body.userId);
      if (!user) throw userNotFound();
      await repo.delete(ctx.customerId, body.userId);
    },

    async setLocation(ctx: AuthContext, userId: string, body: TUpdateUserLocationBody) {
      const user = await repo.find(ctx.customerId, userId);
      if (!user) throw userNotFound();
      const location = await resolveLocation(ctx, ctx.customerId, body);
      await repo.setLocation(ctx.customerId, userId, location.locationName, location.locationPlantId);
    },

    /** Remembers the user's plant and line (top bar), only within the user's own customer. */
    async saveSelection(ctx: AuthContext, body: TSelectionBody) {
      if (ctx.customerId !== ctx.homeCustomerId) return;
      await repo.saveSelection(ctx.userId, ctx.customerId, body);
    },

    /** userId → holds the role, for the customer's own users only. */
    async checkRoles(ctx: AuthContext, userIds: string[]): Promise<Record<string, boolean>> {
      const rows = await repo.rolesOf(ctx.customerId, userIds);
      return Object.fromEntries(rows.map((r) => [r.id, r.isAdministrator]));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
