import {
  createsFeederCycle,
  LINE_MANAGEMENT_MESSAGES,
  LINE_MESSAGES,
  lineLabel,
  PLANT_MESSAGES,
  type TActiveMonitorCount,
  type TAlertViewingWindow,
  type TFeederLineInfo,
  type TLine,
  type TLineExclusionOptions,
  type TLinePatch,
} from "@linewatch/contracts";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { lines } from "../../db/schema/index.js";
import { AppError, conflict } from "../../errors.js";
import { recordAudit } from "../audit-log/audit-log.service.js";
import type { AuthContext } from "../auth/auth.service.js";
import { createPlantsRepo } from "../plants/plants.repo.js";
import type { PlantsService } from "../plants/plants.service.js";
import { createLinesRepo } from "./lines.repo.js";

const columns = {
  id: lines.id,
  plantId: lines.plantId,
  name: lines.name,
  displayName: lines.displayName,
  friendlyName: lines.friendlyName,
  active: lines.active,
  lastIngestedTime: lines.lastIngestedTime,
  isNewLine: lines.isNewLine,
  ingestionThresholdHours: lines.ingestionThresholdHours,
  alertViewingWindowDays: lines.alertViewingWindowDays,
  excludedPartIds: lines.excludedPartIds,
  excludedModelNumbers: lines.excludedModelNumbers,
  // Active SVD and MVD monitors (requirements.md settings §2.9 tooltip; cap monitors are not counted).
  // Written out with table names: inside a select, Drizzle leaves column names unqualified, and
  // "id" would then mean the subquery's own table.
  activeMonitorsCount: sql<number>`(select count(*)::int from monitors m where m.line_id = "lines"."id" and m.active and m.type in ('svd', 'mvd'))`,
  feederLineIds: sql<
    string[]
  >`coalesce((select array_agg(f.feeder_line_id::text order by f.feeder_line_id) from line_feeders f where f.line_id = "lines"."id"), '{}')`,
};

type Row = { [K in keyof typeof columns]: unknown } & Record<string, unknown>;

function toLine(r: Row): TLine {
  const lastIngested = r.lastIngestedTime as Date | null;
  return {
    id: r.id as string,
    plantId: r.plantId as string,
    name: r.name as string,
    displayName: r.displayName as string | null,
    friendlyName: r.friendlyName as string | null,
    active: r.active as boolean,
    lastIngestedTime: lastIngested ? lastIngested.toISOString() : null,
    isNewLine: r.isNewLine as boolean,
    ingestionThresholdHours: r.ingestionThresholdHours as number | null,
    alertViewingWindowDays: r.alertViewingWindowDays as number,
    activeMonitorsCount: Number(r.activeMonitorsCount ?? 0),
    feederLineIds: (r.feederLineIds as string[] | null) ?? [],
    excludedPartIds: r.excludedPartIds as string[],
    excludedModelNumbers: r.excludedModelNumbers as string[],
  };
}

export const lineNotFound = () => new AppError("NOT_FOUND", LINE_MESSAGES.notFound);

/** A line's settings as the audit log records them (the line drawer's fields). */
const auditFieldsOf = (l: TLine) => ({
  active: l.active,
  friendlyName: l.friendlyName,
  ingestionThresholdHours: l.ingestionThresholdHours,
  alertViewingWindowDays: l.alertViewingWindowDays,
  excludedPartIds: l.excludedPartIds,
  excludedModelNumbers: l.excludedModelNumbers,
});

export async function findLine(db: Tx, customerId: string, lineId: string): Promise<TLine> {
  const [row] = await db
    .select(columns)
    .from(lines)
    .where(and(eq(lines.customerId, customerId), eq(lines.id, lineId)));
  if (!row) throw lineNotFound();
  return toLine(row);
}

/** Records a line's change: its settings as "line", its feeder lines as "feeder_line". */
async function auditLine(tx: Tx, ctx: AuthContext, before: TLine, after: TLine) {
  const at = {
    resourceId: after.id,
    resourceName: lineLabel(after),
    plantId: after.plantId,
    lineId: after.id,
  };
  await recordAudit(tx, ctx, {
    resource: "line",
    action: "update",
    ...at,
    before: auditFieldsOf(before),
    after: auditFieldsOf(after),
  });
  await recordAudit(tx, ctx, {
    resource: "feeder_line",
    action: "update",
    ...at,
    before: { feederLineIds: before.feederLineIds },
    after: { feederLineIds: after.feederLineIds },
  });
}

export function createLinesService(deps: { db: Db; plants: PlantsService }) {
  const { db } = deps;
  return {
    async listForPlant(ctx: AuthContext, plantId: string): Promise<TLine[]> {
      const rows = await db
        .select(columns)
        .from(lines)
        .where(and(eq(lines.customerId, ctx.customerId), eq(lines.plantId, plantId)))
        .orderBy(asc(lines.name));
      // A line of the customer in that plant proves the plant is theirs; only an empty answer
      // needs the plant looked up (404 for another customer's or an unknown one).
      if (rows.length === 0) await deps.plants.get(ctx, plantId);
      return rows.map(toLine);
    },

    get(ctx: AuthContext, lineId: string): Promise<TLine> {
      return findLine(db, ctx.customerId, lineId);
    },

    /**
     * PATCH /api/lines/{lineId}: only the fields sent change. Feeder lines are any lines of the
     * customer (across plants); a set that would close a cycle answers 409. The check and the
     * write run under the customer's feeder-graph lock, so two updates sent at once that together
     * would close a cycle cannot both succeed. Deactivating stops the line's monitors: the worker
     * claims none of an inactive line's (worker/schedule), and its configuration stays as it is.
     */
    async update(ctx: AuthContext, lineId: string, patch: TLinePatch): Promise<TLine> {
      await this.get(ctx, lineId);
      await db.transaction(async (tx) => {
        const repo = createLinesRepo(tx);
        const before = await findLine(tx, ctx.customerId, lineId);
        const { feederLineIds, ...fields } = patch;
        if (feederLineIds) {
          if (feederLineIds.includes(lineId)) throw conflict(LINE_MANAGEMENT_MESSAGES.circularDependency);
          if ((await repo.countLines(ctx.customerId, feederLineIds)) !== feederLineIds.length)
            throw new AppError("NOT_FOUND", LINE_MANAGEMENT_MESSAGES.feederUnknown);
          await repo.lockFeederGraph(ctx.customerId);
          const graph = await repo.fedByGraph(ctx.customerId, lineId);
          if (createsFeederCycle(lineId, feederLineIds, graph))
            throw conflict(LINE_MANAGEMENT_MESSAGES.circularDependency);
          await repo.replaceFeeders(ctx.customerId, lineId, feederLineIds);
        }
        if (fields.active === true) {
          // Under the plant's row lock, as its deactivation: one of the two waits for the other.
          // Also when the line reads active here: it may be deactivated, and its plant after it,
          // before this transaction writes.
          const plant = await createPlantsRepo(tx).find(ctx.customerId, before.plantId, { lock: true });
          if (plant && !plant.active) throw conflict(PLANT_MESSAGES.lineOfDeactivatedPlant(plant.name));
        }
        await repo.update(ctx.customerId, lineId, fields);
        await auditLine(tx, ctx, before, await findLine(tx, ctx.customerId, lineId));
      });
      return this.get(ctx, lineId);
    },

    /** Active SVD and MVD monitors per line of the plant (requirements.md settings §7 get-active-monitor-count). */
    async activeMonitorCounts(ctx: AuthContext, plantId: string): Promise<TActiveMonitorCount[]> {
      const list = await this.listForPlant(ctx, plantId);
      return list.map((l) => ({ lineId: l.id, activeTaskCount: l.activeMonitorsCount }));
    },

    /** The plant's lines' alert viewing windows (requirements.md settings §7). */
    async alertViewingWindows(ctx: AuthContext, plantId: string): Promise<TAlertViewingWindow[]> {
      const list = await this.listForPlant(ctx, plantId);
      return list.map((l) => ({ lineId: l.id, alertViewingWindowDays: l.alertViewingWindowDays }));
    },

    /** Sets the window the line overview shows alerts for (Overview Alert Filter, Alert Displayed). */
    async setAlertViewingWindow(
      ctx: AuthContext,
      lineId: string,
      days: number,
    ): Promise<TAlertViewingWindow> {
      await db.transaction(async (tx) => {
        const before = await findLine(tx, ctx.customerId, lineId);
        await createLinesRepo(tx).update(ctx.customerId, lineId, { alertViewingWindowDays: days });
        await auditLine(tx, ctx, before, await findLine(tx, ctx.customerId, lineId));
      });
      return { lineId, alertViewingWindowDays: days };
    },

    /** Feeder line info (requirements.md settings §3): the line's feeders, and every plant with its lines. */
    async feederLineInfo(ctx: AuthContext, lineId: string): Promise<TFeederLineInfo> {
      const line = await this.get(ctx, lineId);
      const rows = await createLinesRepo(db).plantsWithLines(ctx.customerId);
      const plantsById = new Map<string, TFeederLineInfo["plants"][number]>();
      for (const r of rows) {
        const p = plantsById.get(r.plantId) ?? { id: r.plantId, name: r.plantName, lines: [] };
        p.lines.push({ id: r.id, name: r.name, friendlyName: r.friendlyName });
        plantsById.set(r.plantId, p);
      }
      return { feederLineIds: line.feederLineIds, plants: [...plantsById.values()] };
    },

    /** What the cap-exclusion fields offer: the line's challenge parts and model numbers. */
    async exclusionOptions(ctx: AuthContext, lineId: string): Promise<TLineExclusionOptions> {
      await this.get(ctx, lineId);
      const repo = createLinesRepo(db);
      return {
        partIds: await repo.challengePartIds(lineId),
        modelNumbers: await repo.modelNumberValues(lineId),
      };
    },
  };
}
export type LinesService = ReturnType<typeof createLinesService>;
