import type { TLanguage } from "@linewatch/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { customers, lines, plants, userRoles, users } from "../../db/schema/index.js";

const isAdmin = sql<boolean>`exists (select 1 from user_roles ur where ur.user_id = "users"."id" and ur.role = 'administrator')`;

const rowColumns = {
  id: users.id,
  email: users.email,
  lastLogin: users.lastLogin,
  locationName: users.locationName,
  locationPlantId: users.locationPlantId,
  customerIsProvider: customers.isProvider,
  isAdministrator: isAdmin,
};

export function createUsersRepo(db: Tx) {
  return {
    list(customerId: string) {
      return db
        .select(rowColumns)
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(eq(users.customerId, customerId));
    },

    async find(customerId: string, userId: string) {
      const [row] = await db
        .select(rowColumns)
        .from(users)
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(and(eq(users.customerId, customerId), eq(users.id, userId)));
      return row;
    },

    async customerExists(customerId: string) {
      const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
      return row != null;
    },

    async emailExists(email: string) {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return row != null;
    },

    async insert(values: {
      customerId: string;
      email: string;
      locationName: string | null;
      locationPlantId: string | null;
      passwordHash?: string | null;
    }) {
      const [row] = await db.insert(users).values(values).returning({ id: users.id });
      if (!row) throw new Error("insert returned nothing");
      return row.id;
    },

    async addRole(userId: string, role: "administrator") {
      await db.insert(userRoles).values({ userId, role }).onConflictDoNothing();
    },

    async removeRole(userId: string, role: "administrator") {
      await db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)));
    },

    async delete(customerId: string, userId: string) {
      await db.delete(users).where(and(eq(users.customerId, customerId), eq(users.id, userId)));
    },

    async setLocation(
      customerId: string,
      userId: string,
      locationName: string | null,
      locationPlantId: string | null,
    ) {
      await db
        .update(users)
        .set({ locationName, locationPlantId })
        .where(and(eq(users.customerId, customerId), eq(users.id, userId)));
    },

    async plantName(customerId: string, plantId: string) {
      const [row] = await db
        .select({ name: plants.name })
        .from(plants)
        .where(and(eq(plants.customerId, customerId), eq(plants.id, plantId)));
      return row?.name;
    },

    async saveSelection(
      userId: string,
      customerId: string,
      sel: { selectedPlantId?: string | null; selectedLineId?: string | null },
    ) {
      const set: { selectedPlantId?: string | null; selectedLineId?: string | null } = {};
      if (sel.selectedPlantId !== undefined) {
        if (sel.selectedPlantId && !(await this.plantName(customerId, sel.selectedPlantId))) return;
        set.selectedPlantId = sel.selectedPlantId;
      }
      if (sel.selectedLineId !== undefined) {
        const [line] = sel.selectedLineId
          ? await db
              .select({ id: lines.id })
              .from(lines)
              .where(and(eq(lines.customerId, customerId), eq(lines.id, sel.selectedLineId)))
          : [{ id: null }];
        if (!line) return;
        set.selectedLineId = sel.selectedLineId;
      }
      if (Object.keys(set).length) await db.update(users).set(set).where(eq(users.id, userId));
    },

    /** The user's interface language (null: the browser's). */
    async saveLanguage(userId: string, language: TLanguage | null) {
      await db.update(users).set({ language }).where(eq(users.id, userId));
    },

    async rolesOf(customerId: string, userIds: string[]) {
      if (userIds.length === 0) return [];
      return db
        .select({ id: users.id, isAdministrator: isAdmin })
        .from(users)
        .where(and(eq(users.customerId, customerId), inArray(users.id, userIds)));
    },
  };
}
