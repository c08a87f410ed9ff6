/**
 * Part records' time partitions (issue 31 §1; docs/decisions/0305-part-records-partitioned-by-month.md).
 *
 * part_records is partitioned by range of ts (migration 0016): a partition a calendar month in
 * UTC, part_records_pYYYY_MM; part_records_legacy, an installation's table from before the
 * migration, attached whole from MINVALUE to the month after its newest record; and
 * part_records_default, which takes a record no other partition holds (a late backfill of a month
 * not created yet, a machine whose clock is years ahead).
 *
 * The worker's housekeeping (maintainPartitions) creates the current month's partition and the
 * next PARTITIONS.aheadMonths ahead, so records arriving now land in theirs, and moves what the
 * default partition holds into its month's partition. Retention drops a partition whole once its
 * end is past every customer's horizon (dropPartitionsBefore); what is left beyond a horizon it
 * deletes in batches (part-records.repo deleteStationRecordsBefore).
 *
 * Locks: a month is created as a table of its own, filled with its records from the default
 * partition and attached in one transaction. Attaching takes SHARE UPDATE EXCLUSIVE on
 * part_records, so reads and writes of other months go on; writes that would land in the default
 * partition wait for that transaction (it holds the default partition exclusively, as attaching
 * must scan it). Dropping a partition takes ACCESS EXCLUSIVE on part_records for the few
 * milliseconds a DROP needs; it waits at most DROP_LOCK_TIMEOUT for running queries, and is tried
 * again at the next run if it could not have the lock. Concurrent workers serialise on an advisory
 * lock, and everything is idempotent.
 */
import { sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../../db/client.js";
import { dbErrorCode } from "../../db/errors.js";

export const PARTITIONS = {
  /** Months created ahead of the current one. */
  aheadMonths: 2,
  legacy: "part_records_legacy",
  default: "part_records_default",
} as const;

/** Advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)): part_records' partitions. */
const LOCK_PARTITIONS = 7330;
/** How long a DROP waits for part_records' lock before it gives up until the next run. */
const DROP_LOCK_TIMEOUT = "100ms";

/** A partition of part_records and its range ([from, to); null: unbounded, or the default partition). */
export type PartRecordPartition = { name: string; from: Date | null; to: Date | null; isDefault: boolean };

/** The first instant of the UTC month `t` falls in, and of the month `add` months later. */
export const monthStart = (t: Date, add = 0): Date =>
  new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + add, 1));
/** part_records_pYYYY_MM of the month starting at `start`. */
export const monthPartitionName = (start: Date): string =>
  `part_records_p${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, "0")}`;

const ident = (name: string) => {
  // Names are built here (monthPartitionName, PARTITIONS), never taken from input; checked anyway.
  if (!/^part_records_[a-z0-9_]+$/.test(name)) throw new Error(`not a part_records partition: ${name}`);
  return sql.raw(`"${name}"`);
};

async function listPartitions(db: Tx): Promise<PartRecordPartition[]> {
  const res = await db.execute(sql`
    select c.relname as name,
      pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' as is_default,
      substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']+)''\\)')::timestamptz as lower,
      substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']+)''\\)')::timestamptz as upper
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'part_records'::regclass
    order by upper nulls first`);
  const at = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date));
  return rowsOf<{ name: string; is_default: boolean; lower: unknown; upper: unknown }>(res).map((r) => ({
    name: r.name,
    from: at(r.lower),
    to: at(r.upper),
    isDefault: r.is_default,
  }));
}

/** Whether [from, to) overlaps a range partition (the default partition overlaps nothing). */
const overlaps = (parts: PartRecordPartition[], from: Date, to: Date) =>
  parts.some(
    (p) =>
      !p.isDefault &&
      (p.from === null || p.from.getTime() < to.getTime()) &&
      (p.to === null || p.to.getTime() > from.getTime()),
  );

export function createPartRecordPartitions(db: Db) {
  /**
   * Creates the partition of the month starting at `start` unless a partition covers any of it
   * already, moving the default partition's records of that month into it; answers whether it
   * created one and how many records moved.
   */
  async function ensureMonth(start: Date): Promise<{ created: boolean; moved: number }> {
    const end = monthStart(start, 1);
    if (overlaps(await listPartitions(db), start, end)) return { created: false, moved: 0 };
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_PARTITIONS}, 0)`);
      // Another worker may have created it while this one waited.
      if (overlaps(await listPartitions(tx), start, end)) return { created: false, moved: 0 };
      const name = ident(monthPartitionName(start));
      const from = start.toISOString();
      const to = end.toISOString();
      // Writes routed to the default partition wait from here to the commit; no record of the
      // month can arrive there between the move and the attach's check of it.
      await tx.execute(sql`lock table ${ident(PARTITIONS.default)} in exclusive mode`);
      await tx.execute(sql`create table ${name} (like "part_records" including defaults)`);
      const moved = await tx.execute(sql`
        with moved as (
          delete from ${ident(PARTITIONS.default)}
          where "ts" >= ${from}::timestamptz and "ts" < ${to}::timestamptz
          returning *)
        , stored as (insert into ${name} select * from moved returning 1)
        select count(*)::int as n from stored`);
      // Builds the primary key and index on the filled table and copies the foreign key.
      await tx.execute(
        sql`alter table "part_records" attach partition ${name} for values from (${sql.raw(`'${from}'`)}) to (${sql.raw(`'${to}'`)})`,
      );
      return { created: true, moved: Number(rowsOf<{ n: number }>(moved)[0]?.n ?? 0) };
    });
  }

  return {
    list: () => listPartitions(db),

    /** Creates the partitions of every month from `from`'s to `to`'s (see ensureMonth). */
    async ensureMonths(from: Date, to: Date): Promise<{ created: string[]; moved: number }> {
      const created: string[] = [];
      let moved = 0;
      for (let m = monthStart(from); m.getTime() <= to.getTime(); m = monthStart(m, 1)) {
        const r = await ensureMonth(m);
        if (r.created) created.push(monthPartitionName(m));
        moved += r.moved;
      }
      return { created, moved };
    },

    /**
     * Moves the default partition's records into their months' partitions, creating those; the
     * default partition is empty afterwards unless records arrived meanwhile.
     */
    async sweepDefault(): Promise<{ created: string[]; moved: number }> {
      const res = await db.execute(sql`
        select distinct date_trunc('month', "ts" at time zone 'UTC') at time zone 'UTC' as month
        from ${ident(PARTITIONS.default)} order by 1`);
      const created: string[] = [];
      let moved = 0;
      for (const r of rowsOf<{ month: unknown }>(res)) {
        const start = new Date(r.month as string | Date);
        const done = await ensureMonth(start);
        if (done.created) created.push(monthPartitionName(start));
        moved += done.moved;
      }
      return { created, moved };
    },

    /**
     * Drops every range partition that ends at or before `cutoff` (its records all older than
     * it), answering the partitions dropped and the records they held. A partition whose lock
     * cannot be had within DROP_LOCK_TIMEOUT is left for the next run.
     */
    async dropPartitionsBefore(
      cutoff: Date,
    ): Promise<{ dropped: string[]; records: number; skipped: number }> {
      const dropped: string[] = [];
      let records = 0;
      let skipped = 0;
      for (const p of await listPartitions(db)) {
        if (p.isDefault || p.to === null || p.to.getTime() > cutoff.getTime()) continue;
        // Counted outside the DROP's transaction: a plain read that holds no lock DML waits for.
        const count = await db.execute(sql`select count(*)::bigint as n from ${ident(p.name)}`);
        const n = Number(rowsOf<{ n: string | number }>(count)[0]?.n ?? 0);
        try {
          await db.transaction(async (tx) => {
            await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_PARTITIONS}, 0)`);
            await tx.execute(sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`));
            await tx.execute(sql`drop table if exists ${ident(p.name)}`);
          });
          dropped.push(p.name);
          records += n;
        } catch (err) {
          if (dbErrorCode(err) !== "55P03") throw err;
          skipped++;
        }
      }
      return { dropped, records, skipped };
    },
  };
}
export type PartRecordPartitions = ReturnType<typeof createPartRecordPartitions>;

/**
 * Housekeeping's part: the current month's partition and PARTITIONS.aheadMonths ahead, and the
 * default partition's records moved into theirs.
 */
export async function maintainPartitions(db: Db, now: Date) {
  const partitions = createPartRecordPartitions(db);
  const ahead = await partitions.ensureMonths(now, monthStart(now, PARTITIONS.aheadMonths));
  const swept = await partitions.sweepDefault();
  return { created: [...ahead.created, ...swept.created], moved: ahead.moved + swept.moved };
}
