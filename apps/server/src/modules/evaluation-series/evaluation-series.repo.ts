import type { TAlertState, TEvaluationState, TMonitorType } from "@linewatch/contracts";
import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";
import { alerts, evaluations, monitors, signals } from "../../db/schema/index.js";

export type SeriesMonitorRow = {
  id: string;
  name: string;
  type: TMonitorType;
  active: boolean;
  signalId: string | null;
  signalName: string | null;
};

export type SeriesPointRow = {
  monitorId: string;
  slot: Date;
  state: TEvaluationState;
  score: number | null;
  threshold: number | null;
  /** The details an MVD's chart reads (p-value, α, method); null elsewhere. */
  figures: Record<string, unknown> | null;
  /** Evaluations of the monitor in the period, before decimation. */
  n: number;
};

export type SeriesAlertRow = {
  id: string;
  monitorId: string;
  state: TAlertState;
  openedAt: Date;
  lastSeenAt: Date;
  resolvedAt: Date | null;
};

export function createEvaluationSeriesRepo(db: Tx) {
  return {
    /** The line's monitors by name; a CAP monitor with its signal (the first of its filter's). */
    async monitorsOfLine(customerId: string, lineId: string): Promise<SeriesMonitorRow[]> {
      return db
        .select({
          id: monitors.id,
          name: monitors.name,
          type: monitors.type,
          active: monitors.active,
          signalId: signals.id,
          signalName: signals.name,
        })
        .from(monitors)
        .leftJoin(
          signals,
          and(
            eq(monitors.type, "cap"),
            eq(signals.customerId, monitors.customerId),
            sql`${signals.id}::text = ${monitors.filter}->'signal_uuids'->>0`,
          ),
        )
        .where(and(eq(monitors.customerId, customerId), eq(monitors.lineId, lineId)))
        .orderBy(asc(monitors.name), asc(monitors.id));
    },

    /**
     * The evaluations of the line's monitors with a slot in [from, to], oldest first per monitor,
     * at most `maxPoints` per monitor. Breaches and the other evaluations are decimated apart:
     * breaches keep up to half the budget (all of them while they fit), the rest the remainder.
     * A class with more evaluations than its budget is cut into budget/2 stretches of equal count,
     * and each stretch keeps its lowest and its highest score (its first evaluation when none has
     * a score), so a spike or a dip survives. The slot range prunes the monthly partitions and
     * reads the (monitor_id, slot) index.
     */
    async points(
      customerId: string,
      lineId: string,
      from: Date,
      to: Date,
      maxPoints: number,
    ): Promise<SeriesPointRow[]> {
      const half = Math.floor(maxPoints / 2);
      const res = await db.execute(sql`
      with e as (
        select ${evaluations.monitorId} as monitor_id, ${evaluations.slot} as slot, ${evaluations.state} as state,
          ${evaluations.score} as score, ${evaluations.threshold} as threshold,
          case when ${evaluations.details}->'p_value' is not null then jsonb_build_object(
            'p_value', ${evaluations.details}->'p_value',
            'alpha', ${evaluations.details}->'alpha',
            'method', ${evaluations.details}->'method') end as figures,
          ${evaluations.state} = 'BREACH' as is_breach
        from ${evaluations}
        where ${evaluations.customerId} = ${customerId}
          and ${evaluations.monitorId} in (
            select ${monitors.id} from ${monitors}
            where ${monitors.customerId} = ${customerId} and ${monitors.lineId} = ${lineId})
          and ${evaluations.slot} >= ${from.toISOString()}::timestamptz
          and ${evaluations.slot} <= ${to.toISOString()}::timestamptz
      ), counted as (
        select *,
          count(*) over (partition by monitor_id) as n,
          count(*) over (partition by monitor_id, is_breach) as class_n,
          count(*) filter (where is_breach) over (partition by monitor_id) as breaches,
          row_number() over (partition by monitor_id, is_breach order by slot) - 1 as class_i
        from e
      ), budgeted as (
        select *,
          case when is_breach then least(breaches, ${half}::int)
            else ${maxPoints}::int - least(breaches, ${half}::int) end as budget
        from counted
      ), bucketed as (
        select *,
          case when class_n <= budget then class_i
            else (class_i * greatest(budget / 2, 1)) / class_n end as bucket
        from budgeted
      ), ranked as (
        select *,
          row_number() over (partition by monitor_id, is_breach, bucket order by score asc nulls last, slot) as lo,
          row_number() over (partition by monitor_id, is_breach, bucket order by score desc nulls last, slot) as hi
        from bucketed
      )
      select monitor_id as "monitorId", slot, state, score, threshold, figures, n::int as n
      from ranked
      where lo = 1 or hi = 1
      order by monitor_id, slot`);
      return rowsOf<Omit<SeriesPointRow, "slot"> & { slot: Date | string }>(res).map((r) => ({
        ...r,
        // The raw query's timestamps arrive as the driver gives them (a Date or a string).
        slot: new Date(r.slot),
        score: r.score == null ? null : Number(r.score),
        threshold: r.threshold == null ? null : Number(r.threshold),
        n: Number(r.n),
      }));
    },

    /** The monitors' alerts open at some time of [from, to] (opened by `to`, seen since `from`), oldest first. */
    async alerts(customerId: string, monitorIds: string[], from: Date, to: Date): Promise<SeriesAlertRow[]> {
      if (monitorIds.length === 0) return [];
      const rows = await db
        .select({
          id: alerts.id,
          monitorId: alerts.monitorId,
          state: alerts.state,
          openedAt: alerts.openedAt,
          lastSeenAt: alerts.lastSeenAt,
          resolvedAt: alerts.resolvedAt,
        })
        .from(alerts)
        .where(
          and(
            eq(alerts.customerId, customerId),
            inArray(alerts.monitorId, monitorIds),
            lte(alerts.openedAt, to),
            gte(alerts.lastSeenAt, from),
          ),
        )
        .orderBy(asc(alerts.openedAt), asc(alerts.id));
      return rows.flatMap((r) => (r.monitorId ? [{ ...r, monitorId: r.monitorId }] : []));
    },
  };
}
