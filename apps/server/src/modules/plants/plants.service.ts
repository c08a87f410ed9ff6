import {
  PLANT_MESSAGES,
  type TCreatePlantBody,
  type TIngestor,
  type TPlant,
  type TUpdatePlantBody,
  ZCreatePlantBody,
  ZUpdatePlantBody,
} from "@linewatch/contracts";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../db/client.js";
import { ingestors } from "../../db/schema/index.js";
import { AppError, badRequest, conflict } from "../../errors.js";
import { type AuditActor, recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import { createPlantsRepo, isPlantNameTaken, type PlantRow } from "./plants.repo.js";

export const plantNotFound = () => new AppError("NOT_FOUND", PLANT_MESSAGES.notFound);
const nameTaken = () => conflict(PLANT_MESSAGES.nameTaken);

/** What the audit log keeps of a plant: everything an administrator can change. */
const auditFields = (p: PlantRow) => ({ name: p.name, timeZone: p.timeZone, active: p.active });

/** The body by the contract's rules, also for callers other than the route (the CLI). */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

/**
 * Creates a plant with its ingestor and its audit record in the caller's transaction; a name
 * the customer has (ignoring case) is refused by the unique index, answered 409 by the caller.
 * The user:create command line creates the first plant through here too.
 */
export async function insertPlant(tx: Tx, actor: AuditActor, body: TCreatePlantBody): Promise<TPlant> {
  const { name, timeZone } = parse(ZCreatePlantBody, body);
  const row = await createPlantsRepo(tx).insert({ customerId: actor.customerId, name, timeZone });
  await recordAudit(tx, actor, {
    resource: "plant",
    action: "create",
    resourceId: row.id,
    resourceName: row.name,
    plantId: row.id,
    before: null,
    after: auditFields(row),
  });
  return row;
}

/**
 * The customer's plants (issue 28 §1). Every user reads them; administrators create, rename,
 * move to another time zone, deactivate and reactivate them (the route's role check). Another
 * customer's plant is not found (404). A deactivated plant keeps its lines, monitors and records;
 * only a plant without active lines can be deactivated, so no monitor of it is still running.
 */
export function createPlantsService(deps: { db: Db }) {
  const { db } = deps;
  const repo = createPlantsRepo(db);
  return {
    /** Active plants (the top bar and every plant selector); all with `includeInactive`. */
    list(ctx: AuthContext, opts: { includeInactive?: boolean } = {}): Promise<TPlant[]> {
      return repo.list(ctx.customerId, { includeInactive: opts.includeInactive ?? false });
    },

    /** One plant of the customer, active or not (a link, a data source of a deactivated plant). */
    async get(ctx: AuthContext, plantId: string): Promise<TPlant> {
      const row = await repo.find(ctx.customerId, plantId);
      if (!row) throw plantNotFound();
      return row;
    },

    async create(ctx: AuthContext, body: TCreatePlantBody): Promise<TPlant> {
      try {
        return await db.transaction((tx) => insertPlant(tx, ctx, body));
      } catch (err) {
        if (isPlantNameTaken(err)) throw nameTaken();
        throw err;
      }
    },

    /**
     * Renames, changes the time zone, (de)activates; one audit record with what changed. The
     * plant's row is locked first, so the active-line check and the change see one state.
     */
    async update(ctx: AuthContext, plantId: string, body: TUpdatePlantBody): Promise<TPlant> {
      const change = parse(ZUpdatePlantBody, body);
      try {
        return await db.transaction(async (tx) => {
          const txRepo = createPlantsRepo(tx);
          const before = await txRepo.find(ctx.customerId, plantId, { lock: true });
          if (!before) throw plantNotFound();
          if (change.active === false && before.active) {
            const n = await txRepo.activeLineCount(ctx.customerId, plantId);
            if (n > 0) throw conflict(PLANT_MESSAGES.hasActiveLines(n));
          }
          const after = await txRepo.update(ctx.customerId, plantId, change);
          if (!after) throw plantNotFound();
          await recordAudit(tx, ctx, {
            resource: "plant",
            action: "update",
            resourceId: after.id,
            resourceName: after.name,
            plantId: after.id,
            before: auditFields(before),
            after: auditFields(after),
          });
          return after;
        });
      } catch (err) {
        if (isPlantNameTaken(err)) throw nameTaken();
        throw err;
      }
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
