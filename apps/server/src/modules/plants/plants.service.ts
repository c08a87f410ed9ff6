import { PLANT_MESSAGES, type TIngestor, type TPlant } from "@linewatch/contracts";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { ingestors, plants } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";

export const plantNotFound = () => new AppError("NOT_FOUND", PLANT_MESSAGES.notFound);

export function createPlantsService(deps: { db: Db }) {
  const { db } = deps;
  return {
    list(ctx: AuthContext): Promise<TPlant[]> {
      return db
        .select({ id: plants.id, name: plants.name, timeZone: plants.timeZone })
        .from(plants)
        .where(eq(plants.customerId, ctx.customerId))
        .orderBy(asc(plants.name));
    },

    async get(ctx: AuthContext, plantId: string): Promise<TPlant> {
      const [row] = await db
        .select({ id: plants.id, name: plants.name, timeZone: plants.timeZone })
        .from(plants)
        .where(and(eq(plants.customerId, ctx.customerId), eq(plants.id, plantId)));
      if (!row) throw plantNotFound();
      return row;
    },

    /** The plant's ingestor, created with the plant (one per plant). */
    async ingestor(ctx: AuthContext, plantId: string): Promise<TIngestor> {
      await this.get(ctx, plantId);
      const [row] = await db
        .select({ id: ingestors.id })
        .from(ingestors)
        .where(and(eq(ingestors.customerId, ctx.customerId), eq(ingestors.plantId, plantId)));
      if (row) return row;
      const [created] = await db
        .insert(ingestors)
        .values({ customerId: ctx.customerId, plantId })
        .onConflictDoNothing()
        .returning({ id: ingestors.id });
      if (created) return created;
      const [again] = await db
        .select({ id: ingestors.id })
        .from(ingestors)
        .where(eq(ingestors.plantId, plantId));
      if (!again) throw plantNotFound();
      return again;
    },
  };
}
export type PlantsService = ReturnType<typeof createPlantsService>;
