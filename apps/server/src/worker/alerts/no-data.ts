// No-data alerts (issue: Line Management's No Data Alert hours): a line whose last ingested time
// plus its No Data Alert hours has passed gets an alert in the same lifecycle as a monitor's
// (acknowledge, comment, resolve; notified to the line's Teams and ETQ channels through the
// outbox), and the alert resolves itself once records arrive again. 0 hours (or none) turns it
// off; an inactive line raises none. Run by every worker each poll: the partial unique index
// (one open no-data alert per line) makes two workers' checks open it once.
import { NO_DATA_RULE } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client.js";

/** The no-data alerts opened and resolved by one check, with their lines. */
export type NoDataOutcome = {
  opened: { id: string; lineId: string }[];
  resolved: { id: string; lineId: string }[];
};

export async function checkNoData(db: Db, now: Date): Promise<NoDataOutcome> {
  return db.transaction(async (tx) => {
    // Open: active lines past their threshold without an open no-data alert.
    const opened = rowsOf<{ id: string; line_id: string; customer_id: string }>(
      await tx.execute(sql`
        insert into alerts (customer_id, line_id, kind, monitor_id, state, opened_at, last_seen_at, count, rule, score, threshold)
        select l.customer_id, l.id, 'no_data', null, 'OPEN', ${now}, ${now}, 1, ${NO_DATA_RULE},
          extract(epoch from (${now}::timestamptz - l.last_ingested_time)) / 3600.0, l.ingestion_threshold_hours
        from lines l
        where l.active and l.ingestion_threshold_hours > 0 and l.last_ingested_time is not null
          and l.last_ingested_time + l.ingestion_threshold_hours * interval '1 hour' < ${now}
          and not exists (select 1 from alerts a
            where a.line_id = l.id and a.kind = 'no_data' and a.state <> 'RESOLVED')
        on conflict do nothing
        returning id, line_id, customer_id`),
    );
    if (opened.length > 0) {
      const ids = opened.map((o) => o.id);
      await tx.execute(sql`
        insert into alert_events (alert_id, at, kind)
        select id, ${now}, 'OPENED' from alerts where id in ${sql`(${sql.join(
          ids.map((i) => sql`${i}::uuid`),
          sql`, `,
        )})`}`);
      // One notification per configured channel of the line, as a monitor's alert gets.
      await tx.execute(sql`
        insert into notification_outbox (customer_id, alert_id, channel, next_attempt_at)
        select a.customer_id, a.id, c.channel, ${now}
        from alerts a
        cross join lateral (
          select 'teams' as channel where exists (select 1 from teams_webhooks t where t.line_id = a.line_id)
          union all
          select 'etq' where exists (select 1 from reliance_configs r where r.line_id = a.line_id)
        ) c
        where a.id in ${sql`(${sql.join(
          ids.map((i) => sql`${i}::uuid`),
          sql`, `,
        )})`}
        on conflict do nothing`);
    }

    // Resolve: open no-data alerts whose line has records again within its threshold, or whose
    // threshold was turned off or the line deactivated.
    const resolved = rowsOf<{ id: string; line_id: string }>(
      await tx.execute(sql`
        update alerts a set state = 'RESOLVED', resolved_at = ${now}
        from lines l
        where a.line_id = l.id and a.kind = 'no_data' and a.state <> 'RESOLVED'
          and (not l.active or coalesce(l.ingestion_threshold_hours, 0) <= 0
            or l.last_ingested_time + l.ingestion_threshold_hours * interval '1 hour' >= ${now})
        returning a.id, a.line_id`),
    );
    if (resolved.length > 0) {
      await tx.execute(sql`
        insert into alert_events (alert_id, at, kind)
        select id, ${now}, 'AUTO_RESOLVED' from alerts where id in ${sql`(${sql.join(
          resolved.map((r) => sql`${r.id}::uuid`),
          sql`, `,
        )})`}`);
    }
    // Still without records: the open alert's hours since the last record are kept current.
    await tx.execute(sql`
      update alerts a set score = extract(epoch from (${now}::timestamptz - l.last_ingested_time)) / 3600.0,
        last_seen_at = ${now}
      from lines l
      where a.line_id = l.id and a.kind = 'no_data' and a.state <> 'RESOLVED'`);
    const withLine = (r: { id: string; line_id: string }) => ({
      id: String(r.id),
      lineId: String(r.line_id),
    });
    return { opened: opened.map(withLine), resolved: resolved.map(withLine) };
  });
}

/**
 * How often a worker checks for no-data lines (every poll would be needless work): half a minute
 * of the worker's clock — WORKER_MINUTE_MS scales it as it scales a monitor's minute.
 */
export const NO_DATA_CHECK_MS = 30_000;

/** NO_DATA_CHECK_MS on a worker whose minute lasts `minuteMs` (WORKER_MINUTE_MS). */
export const noDataCheckInterval = (minuteMs: number) => Math.round((NO_DATA_CHECK_MS * minuteMs) / 60_000);
