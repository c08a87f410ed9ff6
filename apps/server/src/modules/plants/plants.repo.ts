import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { ingestors, lines, plants } from "../../db/schema/index.js";

/** The customer-unique name index (migration 0013): its violation is a taken name. */
const NAME_INDEX = "plants_customer_name_ci_uq";

const columns = { id: plants.id, name: plants.name, timeZone: plants.timeZone, active: plants.active };
export type PlantRow = { id: string; name: string; timeZone: string; active: boolean };

export function createPlantsRepo(db: Tx) {
  return {
    /** The customer's plants by name ignoring case; the inactive ones only when asked. */
    list(customerId: string, opts: { includeInactive: boolean }): Promise<PlantRow[]> {
      const scope = eq(plants.customerId, customerId);
      return db
        .select(columns)
        .from(plants)
        .where(opts.includeInactive ? scope : and(scope, eq(plants.active, true)))
        .orderBy(asc(sql`lower(${plants.name})`), asc(plants.name), asc(plants.id));
    },
    /** One plant of the customer, active or not; `lock` holds its row until the transaction ends. */
    async find(customerId: string, id: string, opts: { lock?: boolean } = {}): Promise<PlantRow | undefined> {
      const q = db
        .select(columns)
        .from(plants)
        .where(and(eq(plants.customerId, customerId), eq(plants.id, id)));
      const [row] = await (opts.lock ? q.for("update") : q);
      return row;
    },
    /** A plant and its ingestor (every plant has one: data sources hang off it). */
    async insert(values: { customerId: string; name: string; timeZone: string }): Promise<PlantRow> {
      const [row] = await db.insert(plants).values(values).returning(columns);
      if (!row) throw new Error("plant insert returned nothing");
      await db.insert(ingestors).values({ customerId: values.customerId, plantId: row.id });
      return row;
    },
    async update(
      customerId: string,
      id: string,
      values: Partial<Pick<PlantRow, "name" | "timeZone" | "active">>,
    ): Promise<PlantRow | undefined> {
      const [row] = await db
        .update(plants)
        .set(values)
        .where(and(eq(plants.customerId, customerId), eq(plants.id, id)))
        .returning(columns);
      return row;
    },
    async activeLineCount(customerId: string, plantId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(lines)
        .where(and(eq(lines.customerId, customerId), eq(lines.plantId, plantId), eq(lines.active, true)));
      return Number(row?.n ?? 0);
    },
  };
}

/** Whether the database refused a plant name the customer already has (ignoring case). */
export function isPlantNameTaken(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || constraint === NAME_INDEX;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
