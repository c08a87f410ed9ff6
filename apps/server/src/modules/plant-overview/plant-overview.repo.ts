import type { TAlertKind, TAlertState, TEvaluationState, TMonitorType } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";

// One query per concern of the overview, each over the whole plant (never one per line or per
// monitor), each scoped to the customer and reached through the plant's active lines (a
// deactivated line is hidden from the home page as from the top bar), so each uses the
// per-line indexes: part_record_counts' primary key (line_id, bucket), alerts_open_line_idx,
// alerts_line_opened_idx, monitors_line_type_name_uq.

type LineRow = {
  id: string;
  name: string;
  friendly_name: string | null;
  is_new_line: boolean;
  last_ingested_time: Date | string | null;
  ingestion_threshold_hours: number | null;
};
type HourRow = { line_id: string; bucket: number; n: number };

/** Whether `t` starts a quarter hour of UTC, the grain of part_record_counts. */
export const isQuarterHour = (t: Date) => t.getTime() % 900_000 === 0;
type OpenAlertsRow = { line_id: string; type: TMonitorType | "no_data"; n: number; oldest: Date | string };
type MonitorRow = {
  id: string;
  line_id: string;
  name: string;
  type: TMonitorType;
  active: boolean;
  last_state: TEvaluationState | null;
  last_evaluated_at: Date | string | null;
};
type AlertRow = {
  id: string;
  line_id: string;
  kind: TAlertKind;
  state: TAlertState;
  opened_at: Date | string;
  last_seen_at: Date | string;
  count: number;
  monitor_id: string | null;
  monitor_name: string | null;
  monitor_type: TMonitorType | null;
};

export function createPlantOverviewRepo(db: Tx) {
  return {
    async lines(customerId: string, plantId: string) {
      return rowsOf<LineRow>(
        await db.execute(sql`
          select l.id, l.name, l.friendly_name, l.is_new_line, l.last_ingested_time,
                 l.ingestion_threshold_hours
          from lines l
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active
          order by l.name`),
      );
    },

    /**
     * Part records per line and hour bucket in [from, to): bucket 0 starts at `from`; empty hours
     * are absent. Read from the quarter-hour counts the ingest keeps (part_record_counts), never
     * from the records: a plant's hours start at whole quarter hours of UTC in every time zone in
     * use (offsets of 30 and 45 minutes included), so each hour is the sum of its four quarters.
     * `from` and `to` must start quarter hours (isQuarterHour); the service counts records
     * otherwise.
     */
    async recordsPerHour(customerId: string, plantId: string, from: Date, to: Date) {
      const f = from.toISOString();
      return rowsOf<HourRow>(
        await db.execute(sql`
          select l.id as line_id,
                 floor(extract(epoch from (c.bucket - ${f}::timestamptz)) / 3600)::int as bucket,
                 sum(c.records)::int as n
          from lines l
          join part_record_counts c on c.line_id = l.id and c.customer_id = ${customerId}
            and c.bucket >= ${f}::timestamptz and c.bucket < ${to.toISOString()}::timestamptz
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active
          group by 1, 2`),
      );
    },

    /**
     * The same figures counted from the records themselves: for hours that do not start at a
     * quarter hour of UTC (a time zone offset by other than a multiple of 15 minutes, which no
     * zone in use has today).
     */
    async recordsPerHourCounted(customerId: string, plantId: string, from: Date, to: Date) {
      const f = from.toISOString();
      return rowsOf<HourRow>(
        await db.execute(sql`
          select s.line_id,
                 floor(extract(epoch from (pr.ts - ${f}::timestamptz)) / 3600)::int as bucket,
                 count(*)::int as n
          from lines l
          join stations s on s.line_id = l.id
          join part_records pr on pr.station_id = s.id
            and pr.ts >= ${f}::timestamptz and pr.ts < ${to.toISOString()}::timestamptz
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active
          group by 1, 2`),
      );
    },

    /** Open (not resolved) alerts per line and monitor type ('no_data': a line's no-data alert). */
    async openAlerts(customerId: string, plantId: string) {
      return rowsOf<OpenAlertsRow>(
        await db.execute(sql`
          select a.line_id, coalesce(m.type, 'no_data') as type, count(*)::int as n,
                 min(a.opened_at) as oldest
          from lines l
          join alerts a on a.line_id = l.id and a.state <> 'RESOLVED'
          left join monitors m on m.id = a.monitor_id
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active and a.customer_id = ${customerId}
          group by 1, 2`),
      );
    },

    /** Every monitor of the plant with the last state the worker keeps on it. */
    async monitors(customerId: string, plantId: string) {
      return rowsOf<MonitorRow>(
        await db.execute(sql`
          select m.id, m.line_id, m.name, m.type, m.active, m.last_state, m.last_evaluated_at
          from lines l
          join monitors m on m.line_id = l.id
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active and m.customer_id = ${customerId}`),
      );
    },

    /** The plant's newest alerts, any state: the newest `limit` of each line, then of the plant. */
    async newestAlerts(customerId: string, plantId: string, limit: number) {
      return rowsOf<AlertRow>(
        await db.execute(sql`
          select a.id, a.line_id, a.kind, a.state, a.opened_at, a.last_seen_at, a.count,
                 m.id as monitor_id, m.name as monitor_name, m.type as monitor_type
          from lines l
          cross join lateral (
            select x.id, x.line_id, x.kind, x.state, x.opened_at, x.last_seen_at, x.count, x.monitor_id
            from alerts x
            where x.line_id = l.id and x.customer_id = ${customerId}
            order by x.opened_at desc
            limit ${limit}
          ) a
          left join monitors m on m.id = a.monitor_id
          where l.customer_id = ${customerId} and l.plant_id = ${plantId} and l.active
          order by a.opened_at desc, a.id
          limit ${limit}`),
      );
    },
  };
}
