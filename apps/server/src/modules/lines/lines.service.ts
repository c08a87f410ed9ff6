import { LINE_MESSAGES, type TLine } from "@linewatch/contracts";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { lines } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";

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
  // Active SVD and MVD monitors (spec settings §2.9 tooltip; cap monitors are not counted).
  // Written out with table names: inside a select, Drizzle leaves column names unqualified, and
  // "id" would then mean the subquery's own table.
  activeMonitorsCount: sql<number>`(select count(*)::int from monitors m where m.line_id = "lines"."id" and m.active and m.type in ('svd', 'mvd'))`,
  feederLineIds: sql<
    string[]
  >`coalesce((select array_agg(f.feeder_line_id::text) from line_feeders f where f.line_id = "lines"."id"), '{}')`,
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

export function createLinesService(deps: { db: Db; plants: PlantsService }) {
  const { db } = deps;
  return {
    async listForPlant(ctx: AuthContext, plantId: string): Promise<TLine[]> {
      await deps.plants.get(ctx, plantId);
      const rows = await db
        .select(columns)
        .from(lines)
        .where(and(eq(lines.customerId, ctx.customerId), eq(lines.plantId, plantId)))
        .orderBy(asc(lines.name));
      return rows.map(toLine);
    },

    async get(ctx: AuthContext, lineId: string): Promise<TLine> {
      const [row] = await db
        .select(columns)
        .from(lines)
        .where(and(eq(lines.customerId, ctx.customerId), eq(lines.id, lineId)));
      if (!row) throw lineNotFound();
      return toLine(row);
    },
  };
}
export type LinesService = ReturnType<typeof createLinesService>;
