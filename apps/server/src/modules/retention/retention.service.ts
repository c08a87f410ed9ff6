/**
 * Data retention per customer (issue 31 §2; docs/decisions/0301-retention-per-customer.md).
 *
 * Settings: each customer keeps part records, evaluations, resolved alerts (with their events and
 * notifications) and its audit log for a number of days its administrators set, or for ever
 * (null); a customer without a stored row keeps RETENTION_DEFAULTS. A change is audited.
 *
 * The run (runRetention, from the worker's hourly housekeeping), per customer:
 * - part records older than the horizon, station by station;
 * - alerts RESOLVED before their horizon, their delivery attempts, outbox rows and events first;
 *   an open or acknowledged alert is never removed, whatever its age;
 * - evaluations older than theirs (after the alerts, so a removed alert's evidence goes in the
 *   same run), monitor by monitor, except an alert's evidence (an evaluation an
 *   alert event refers to) and breaching evaluations while an alert of the monitor that ended at
 *   or after them exists (so every breach of an open alert's monitor stays);
 * - audit records, only when the administrator set a horizon (default: for ever).
 *
 * Every delete is a batch in a statement of its own — its own short transaction — whose size
 * adapts so that a batch takes about RETENTION_BATCH.targetMs (a lock is held for one batch only: issue 31
 * asks for at most 100 ms). Batches skip rows another run holds (FOR UPDATE SKIP LOCKED), so
 * several workers may run it at once without waiting on one another; a second run finds nothing.
 * Part records are partitioned by month (db/partitions.ts): partitions that end before
 * every customer's horizon are dropped whole first (none while a customer keeps records for
 * ever), and the batches clear what remains past a horizon in the partitions that are kept.
 */
import {
  RETENTION_DEFAULTS,
  RETENTION_TEXTS,
  type TRetentionBody,
  type TRetentionDays,
  type TRetentionResponse,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import {
  createPartitions,
  EVALUATIONS_PARTITIONING,
  PART_RECORDS_PARTITIONING,
} from "../../db/partitions.js";
import { alertsStore } from "../alerts/alerts.store.js";
import { type AuditActor, recordAudit } from "../audit-log/audit-log.service.js";
import { createPartRecordsRepo } from "../part-records/part-records.repo.js";
import { createRetentionRepo, keptEvaluation, type RetentionRow, VACUUMED } from "./retention.repo.js";

const DAY_MS = 86_400_000;

/**
 * Batch sizes' bounds, and the time one batch aims at: 40 ms, under half the 100 ms issue 31
 * allows, since a statement's time doubles when the machine is busy (docs/benchmarks.md).
 */
export const RETENTION_BATCH = { min: 50, max: 2_000, targetMs: 40 } as const;
/** Resolved alerts handled together: their children are deleted in batches, then they. */
const ALERT_CHUNK = 200;

type BatchKind = "partRecords" | "partRecordCounts" | "evaluations" | "alertChildren" | "alerts" | "auditLog";
/**
 * The first batch's size per kind of row, before the timing adapts it: an evaluation is ~2 kB
 * with its details, a part record a few hundred bytes, the rest small.
 */
const FIRST_BATCH: Record<Exclude<BatchKind, "alerts">, number> = {
  partRecords: 1_000,
  partRecordCounts: 1_000,
  evaluations: 250,
  alertChildren: 1_000,
  auditLog: 1_000,
};

/** What a run removed, and how its batches went. */
export type RetentionCounts = {
  customers: number;
  /** Part records removed: by batches, and with the partitions dropped whole. */
  partRecords: number;
  /** Monthly partitions of part records and evaluations dropped whole (past every customer's horizon). */
  partitionsDropped: number;
  /** The longest DROP of a partition (its table's exclusive lock held that long), in ms. */
  slowestDropMs: number;
  /** Quarter-hour record counts of the lines (part_record_counts) past the part records' horizon. */
  partRecordCounts: number;
  evaluations: number;
  alerts: number;
  alertEvents: number;
  notifications: number;
  notificationAttempts: number;
  auditLog: number;
  batches: number;
  /** The longest single delete statement (the longest any lock was held), in ms. */
  slowestBatchMs: number;
  /** Its kind of row and how many rows it was allowed. */
  slowestBatchOf: BatchKind | null;
  slowestBatchLimit: number;
  /** The median and 99th percentile of the statements' times, in ms. */
  batchP50Ms: number;
  batchP99Ms: number;
  /** PGlite only: the VACUUM after the deletes, in ms (0 when none ran). */
  vacuumMs: number;
};

const emptyCounts = (): RetentionCounts => ({
  customers: 0,
  partRecords: 0,
  partitionsDropped: 0,
  slowestDropMs: 0,
  partRecordCounts: 0,
  evaluations: 0,
  alerts: 0,
  alertEvents: 0,
  notifications: 0,
  notificationAttempts: 0,
  auditLog: 0,
  batches: 0,
  slowestBatchMs: 0,
  slowestBatchOf: null,
  slowestBatchLimit: 0,
  batchP50Ms: 0,
  batchP99Ms: 0,
  vacuumMs: 0,
});

/** The stored row as the contract's days; no row: the defaults. */
const daysOf = (row: RetentionRow | undefined): TRetentionDays =>
  row
    ? {
        partRecordsDays: row.partRecordsDays,
        evaluationsDays: row.evaluationsDays,
        resolvedAlertsDays: row.resolvedAlertsDays,
        auditLogDays: row.auditLogDays,
      }
    : { ...RETENTION_DEFAULTS };

export function createRetentionService(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async get(ctx: { customerId: string }): Promise<TRetentionResponse> {
      const row = await createRetentionRepo(deps.db).get(ctx.customerId);
      return { ...daysOf(row), isDefault: !row };
    },

    /** Sets all four horizons; audited in the change's transaction (resource "retention"). */
    async set(ctx: AuditActor, body: TRetentionBody): Promise<TRetentionResponse> {
      await deps.db.transaction(async (tx) => {
        const repo = createRetentionRepo(tx);
        const before = daysOf(await repo.get(ctx.customerId));
        const after: TRetentionDays = {
          partRecordsDays: body.partRecordsDays,
          evaluationsDays: body.evaluationsDays,
          resolvedAlertsDays: body.resolvedAlertsDays,
          auditLogDays: body.auditLogDays,
        };
        await repo.upsert(ctx.customerId, after, now());
        await recordAudit(tx, ctx, {
          resource: "retention",
          action: "update",
          resourceId: ctx.customerId,
          resourceName: RETENTION_TEXTS.title,
          before,
          after,
        });
      });
      return this.get(ctx);
    },
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;

/**
 * Times every delete statement (`timed`), and runs batches of one kind (`run`) until one deletes
 * fewer than it was allowed (the rest, if any, is held by another run), adapting the size to
 * RETENTION_BATCH.targetMs. Stops between batches once `signal` is aborted.
 */
function createBatcher(counts: RetentionCounts, signal: AbortSignal | undefined) {
  const times: number[] = [];
  const timed = async <T>(
    kind: BatchKind,
    limit: number,
    statement: () => Promise<T>,
  ): Promise<{ result: T; ms: number }> => {
    const t0 = performance.now();
    const result = await statement();
    const ms = performance.now() - t0;
    counts.batches++;
    times.push(ms);
    if (ms > counts.slowestBatchMs) {
      counts.slowestBatchMs = Math.round(ms * 10) / 10;
      counts.slowestBatchOf = kind;
      counts.slowestBatchLimit = limit;
    }
    return { result, ms };
  };
  const run = async (
    kind: Exclude<BatchKind, "alerts">,
    step: (limit: number) => Promise<number>,
    size: { n: number },
  ) => {
    let total = 0;
    while (!signal?.aborted) {
      const limit = size.n;
      const { result: deleted, ms } = await timed(kind, limit, () => step(limit));
      total += deleted;
      if (ms > RETENTION_BATCH.targetMs) size.n = Math.max(RETENTION_BATCH.min, Math.floor(limit / 2));
      else if (ms < RETENTION_BATCH.targetMs / 4 && deleted === limit)
        size.n = Math.min(RETENTION_BATCH.max, limit * 2);
      if (deleted < limit) break;
    }
    return total;
  };
  /** Puts the statements' median and 99th percentile into the counts. */
  const summarise = () => {
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) * 10) / 10;
    counts.batchP50Ms = at(0.5);
    counts.batchP99Ms = at(0.99);
  };
  return { timed, run, summarise };
}

/**
 * The retention run at `now` for every customer (see the header). `vacuum`: VACUUM the tables
 * rows went from afterwards (PGlite, which has no autovacuum).
 */
export async function runRetention(
  db: Db,
  now: Date,
  opts: { vacuum?: boolean; signal?: AbortSignal } = {},
): Promise<RetentionCounts> {
  const counts = emptyCounts();
  const repo = createRetentionRepo(db);
  const partRecords = createPartRecordsRepo(db);
  const batcher = createBatcher(counts, opts.signal);
  const batches = batcher.run;
  const cutoffOf = (days: number | null) => (days === null ? null : new Date(now.getTime() - days * DAY_MS));
  // One size per kind of row (an evaluation is ~2 kB, a part record far less), carried across customers.
  const sizes = {
    partRecords: { n: FIRST_BATCH.partRecords },
    partRecordCounts: { n: FIRST_BATCH.partRecordCounts },
    evaluations: { n: FIRST_BATCH.evaluations },
    alertChildren: { n: FIRST_BATCH.alertChildren },
    auditLog: { n: FIRST_BATCH.auditLog },
  };

  const customers = await repo.customers();
  // The oldest horizon of all: a partition ending before it holds nothing any customer keeps.
  const horizons = customers.map((c) => daysOf(c.stored ? c : undefined).partRecordsDays);
  if (horizons.length > 0 && horizons.every((d) => d !== null) && !opts.signal?.aborted) {
    const oldest = cutoffOf(Math.max(...(horizons as number[]))) as Date;
    const dropped = await createPartitions(db, PART_RECORDS_PARTITIONING).dropPartitionsBefore(oldest);
    counts.partitionsDropped += dropped.dropped.length;
    counts.slowestDropMs = Math.max(counts.slowestDropMs, dropped.slowestDropMs);
    counts.partRecords += dropped.rows;
  }

  // Evaluations likewise, but a month holding an alert's evidence or a breach an alert of its
  // monitor still covers (what the batches below keep) stays, its other rows going in batches.
  const evaluationHorizons = customers.map((c) => daysOf(c.stored ? c : undefined).evaluationsDays);
  if (evaluationHorizons.length > 0 && evaluationHorizons.every((d) => d !== null) && !opts.signal?.aborted) {
    const oldest = cutoffOf(Math.max(...(evaluationHorizons as number[]))) as Date;
    const dropped = await createPartitions(db, EVALUATIONS_PARTITIONING).dropPartitionsBefore(
      oldest,
      keptEvaluation,
    );
    counts.partitionsDropped += dropped.dropped.length;
    counts.slowestDropMs = Math.max(counts.slowestDropMs, dropped.slowestDropMs);
    counts.evaluations += dropped.rows;
  }

  for (const c of customers) {
    if (opts.signal?.aborted) break;
    counts.customers++;
    const days = daysOf(c.stored ? c : undefined);

    const records = cutoffOf(days.partRecordsDays);
    if (records) {
      for (const stationId of await repo.stationIds(c.customerId))
        counts.partRecords += await batches(
          "partRecords",
          (limit) => partRecords.deleteStationRecordsBefore(stationId, records, limit),
          sizes.partRecords,
        );
      // The lines' quarter-hour counts of those records go with them.
      for (const lineId of await repo.lineIds(c.customerId))
        counts.partRecordCounts += await batches(
          "partRecordCounts",
          (limit) => partRecords.deleteLineCountsBefore(lineId, records, limit),
          sizes.partRecordCounts,
        );
    }

    const resolved = cutoffOf(days.resolvedAlertsDays);
    while (resolved && !opts.signal?.aborted) {
      const ids = await alertsStore.resolvedBefore(db, c.customerId, resolved, ALERT_CHUNK);
      if (ids.length === 0) break;
      for (const table of ["notificationAttempts", "notificationOutbox", "alertEvents"] as const) {
        const n = await batches(
          "alertChildren",
          (limit) => alertsStore.deleteAlertChildrenBatch(db, table, ids, limit),
          sizes.alertChildren,
        );
        if (table === "notificationAttempts") counts.notificationAttempts += n;
        else if (table === "notificationOutbox") counts.notifications += n;
        else counts.alertEvents += n;
      }
      if (opts.signal?.aborted) break;
      const { result: gone } = await batcher.timed("alerts", ids.length, () =>
        alertsStore.deleteResolved(db, c.customerId, ids, resolved),
      );
      counts.alerts += gone;
      // Another run took these meanwhile: it goes on with the rest.
      if (gone === 0) break;
    }

    const evaluations = cutoffOf(days.evaluationsDays);
    if (evaluations)
      for (const m of await repo.monitorsWithAlertEnd(c.customerId))
        counts.evaluations += await batches(
          "evaluations",
          (limit) => repo.deleteEvaluationsBatch(m.id, evaluations, m.keepBreachesUntil, limit),
          sizes.evaluations,
        );

    const audit = cutoffOf(days.auditLogDays);
    if (audit)
      counts.auditLog += await batches(
        "auditLog",
        (limit) => repo.deleteAuditBatch(c.customerId, audit, limit),
        sizes.auditLog,
      );
  }

  batcher.summarise();
  if (opts.vacuum) {
    const went: Record<(typeof VACUUMED)[number], number> = {
      part_records: counts.partRecords,
      evaluations: counts.evaluations,
      alerts: counts.alerts,
      alert_events: counts.alertEvents,
      notification_outbox: counts.notifications,
      notification_attempts: counts.notificationAttempts,
      audit_log: counts.auditLog,
    };
    const t0 = performance.now();
    for (const table of VACUUMED) if (went[table] > 0) await repo.vacuum(table);
    counts.vacuumMs = Math.round(performance.now() - t0);
  }
  return counts;
}
