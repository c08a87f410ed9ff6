// Data retention's rows (issue 31 §2; docs/decisions/0301-retention-per-customer.md): the
// customer's settings, what the run reads to plan its deletes, and the deletes of the tables no
// other module owns for writing (evaluations, and the audit log past an administrator's horizon).
// Part records are deleted through modules/part-records (part-records.writes.test.ts), alerts and
// what hangs on them through modules/alerts/alerts.store.ts (alerts.store.test.ts).
import { asc, eq, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";
import { alerts, customers, lines, monitors, retentionSettings, stations } from "../../db/schema/index.js";

export type RetentionRow = {
  partRecordsDays: number | null;
  evaluationsDays: number | null;
  resolvedAlertsDays: number | null;
  auditLogDays: number | null;
};

/** The tables the run deletes from, which it may vacuum afterwards. */
export const VACUUMED = [
  "part_records",
  "evaluations",
  "alerts",
  "alert_events",
  "notification_outbox",
  "notification_attempts",
  "audit_log",
] as const;

const countOf = (res: unknown) => Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);

/**
 * An evaluation (alias `r`) retention keeps whatever its age (deleteEvaluationsBatch keeps the
 * same): an alert's evidence, or a breach while an alert of its monitor that ended at or after it
 * exists. A month of evaluations holding one is not dropped whole.
 */
export const keptEvaluation = sql`(exists (select 1 from alert_events ae where ae.evaluation_id = r.id)
  or (r.state = 'BREACH' and exists (select 1 from alerts al
    where al.monitor_id = r.monitor_id and (al.resolved_at is null or al.resolved_at >= r.slot))))`;

export function createRetentionRepo(db: Tx) {
  return {
    /** The customer's stored retention, or undefined (the defaults hold). */
    async get(customerId: string): Promise<RetentionRow | undefined> {
      const [row] = await db
        .select({
          partRecordsDays: retentionSettings.partRecordsDays,
          evaluationsDays: retentionSettings.evaluationsDays,
          resolvedAlertsDays: retentionSettings.resolvedAlertsDays,
          auditLogDays: retentionSettings.auditLogDays,
        })
        .from(retentionSettings)
        .where(eq(retentionSettings.customerId, customerId));
      return row;
    },

    async upsert(customerId: string, row: RetentionRow, at: Date): Promise<void> {
      await db
        .insert(retentionSettings)
        .values({ customerId, ...row, updatedAt: at })
        .onConflictDoUpdate({ target: retentionSettings.customerId, set: { ...row, updatedAt: at } });
    },

    /** Every customer with its stored retention (null fields where it has no row: the defaults hold). */
    async customers(): Promise<({ customerId: string; stored: boolean } & RetentionRow)[]> {
      return db
        .select({
          customerId: customers.id,
          stored: sql<boolean>`${retentionSettings.customerId} is not null`,
          partRecordsDays: retentionSettings.partRecordsDays,
          evaluationsDays: retentionSettings.evaluationsDays,
          resolvedAlertsDays: retentionSettings.resolvedAlertsDays,
          auditLogDays: retentionSettings.auditLogDays,
        })
        .from(customers)
        .leftJoin(retentionSettings, eq(retentionSettings.customerId, customers.id))
        .orderBy(asc(customers.id));
    },

    async lineIds(customerId: string): Promise<string[]> {
      const rows = await db
        .select({ id: lines.id })
        .from(lines)
        .where(eq(lines.customerId, customerId))
        .orderBy(asc(lines.id));
      return rows.map((r) => r.id);
    },

    async stationIds(customerId: string): Promise<string[]> {
      const rows = await db
        .select({ id: stations.id })
        .from(stations)
        .where(eq(stations.customerId, customerId))
        .orderBy(asc(stations.id));
      return rows.map((r) => r.id);
    },

    /**
     * The customer's monitors, each with how long its breaching evaluations are kept: while an
     * alert of the monitor that ended at or after them still exists — for ever (null) while one is
     * open, up to the last resolution otherwise, not at all (the epoch) when it has no alert.
     */
    async monitorsWithAlertEnd(
      customerId: string,
    ): Promise<{ id: string; keepBreachesUntil: Date | null }[]> {
      const rows = rowsOf<{ id: string; has_open: boolean | null; last_resolved: string | Date | null }>(
        await db.execute(sql`
          select m.id, a.has_open, a.last_resolved
          from ${monitors} m
          left join lateral (
            select bool_or(al.resolved_at is null) as has_open, max(al.resolved_at) as last_resolved
            from ${alerts} al where al.monitor_id = m.id
          ) a on true
          where m.customer_id = ${customerId}
          order by m.id`),
      );
      return rows.map((r) => ({
        id: r.id,
        keepBreachesUntil: r.has_open ? null : new Date(r.last_resolved ?? 0),
      }));
    },

    /**
     * One batch: at most `limit` of the monitor's evaluations older than `cutoff`, in a statement
     * of its own, but never one an alert refers to (an alert's evidence: the evaluation that
     * opened it, fired it again or resolved it) nor a breaching one up to `keepBreachesUntil`
     * (its alert still exists; null: every breaching one). Rows another run holds are skipped. Answers how many went.
     */
    async deleteEvaluationsBatch(
      monitorId: string,
      cutoff: Date,
      keepBreachesUntil: Date | null,
      limit: number,
    ): Promise<number> {
      const keepBreaches =
        keepBreachesUntil === null
          ? sql`and e.state <> 'BREACH'`
          : sql`and not (e.state = 'BREACH' and e.slot <= ${keepBreachesUntil.toISOString()}::timestamptz)`;
      return countOf(
        await db.execute(sql`
          with due as (
            select e.id from evaluations e
            where e.monitor_id = ${monitorId} and e.slot < ${cutoff.toISOString()}::timestamptz
              ${keepBreaches}
              and not exists (select 1 from alert_events ae where ae.evaluation_id = e.id)
            order by e.slot
            limit ${limit} for update of e skip locked
          ), gone as (
            delete from evaluations where id in (select id from due) returning 1
          )
          select count(*)::int as n from gone`),
      );
    },

    /**
     * One batch: at most `limit` of the customer's audit records older than `cutoff`. The audit log
     * is append-only for every change (docs/decisions/0173-audit-log-is-append-only.md): this is
     * the one delete there is, and it runs only for a customer whose administrator set a horizon
     * (the default keeps it for ever; docs/decisions/0301-retention-per-customer.md).
     */
    async deleteAuditBatch(customerId: string, cutoff: Date, limit: number): Promise<number> {
      return countOf(
        await db.execute(sql`
          with due as (
            select id from audit_log
            where customer_id = ${customerId} and at < ${cutoff.toISOString()}::timestamptz
            order by at
            limit ${limit} for update skip locked
          ), gone as (
            delete from audit_log where id in (select id from due) returning 1
          )
          select count(*)::int as n from gone`),
      );
    },

    /**
     * Marks the space of deleted rows free for new rows (plain VACUUM: no lock that stops reads or
     * writes on PostgreSQL). PostgreSQL's autovacuum does it on its own; PGlite has none, so the run
     * asks for it there (docs/decisions/0301-retention-per-customer.md). Not in a transaction.
     */
    async vacuum(table: (typeof VACUUMED)[number]): Promise<void> {
      await db.execute(sql.raw(`vacuum ${table}`));
    },
  };
}
export type RetentionRepo = ReturnType<typeof createRetentionRepo>;
