/**
 * Monthly time partitions of the tables that grow with history (issue 31 §1;
 * docs/decisions/0305-part-records-partitioned-by-month.md): part_records by ts (migration 0016)
 * and evaluations by slot (migration 0017). Each such table `t` has
 * - a partition a calendar month in UTC, t_pYYYY_MM;
 * - t_legacy where an installation had rows before its migration: the old table attached whole
 *   from MINVALUE to the month after its newest row;
 * - t_default, which takes a row no other partition holds (a late backfill of a month not created
 *   yet, a machine whose clock is years ahead).
 *
 * The worker's housekeeping (maintainPartitions) creates the current month's partition and the
 * next PARTITIONS.aheadMonths ahead, so rows arriving now land in theirs, and moves what the
 * default partition holds into its month's partition. Retention drops a partition whole once its
 * end is past every customer's horizon (dropPartitionsBefore) and it holds nothing retention keeps;
 * what is left beyond a horizon it deletes in batches.
 *
 * Locks: a month is created as a table of its own, filled with its rows from the default
 * partition and attached in one transaction. Attaching takes SHARE UPDATE EXCLUSIVE on the table,
 * so reads and writes of other months go on; writes that would land in the default partition wait
 * for that transaction (it holds the default partition exclusively, as attaching must scan it).
 * Dropping a partition takes ACCESS EXCLUSIVE on the table for the few milliseconds a DROP needs;
 * it waits at most DROP_LOCK_TIMEOUT for running queries, and is tried again at the next run if it
 * could not have the lock. Concurrent workers serialise on an advisory lock, and everything is
 * idempotent.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "./client.js";
import { dbErrorCode } from "./errors.js";

export const PARTITIONS = {
  /** Months created ahead of the current one. */
  aheadMonths: 2,
} as const;

/** A partitioned table and its partition key (a timestamptz column). */
export type PartitionedTable = { table: "part_records" | "evaluations"; column: "ts" | "slot" };
export const PART_RECORDS_PARTITIONING: PartitionedTable = { table: "part_records", column: "ts" };
export const EVALUATIONS_PARTITIONING: PartitionedTable = { table: "evaluations", column: "slot" };
export const legacyPartition = (t: PartitionedTable) => `${t.table}_legacy`;
export const defaultPartition = (t: PartitionedTable) => `${t.table}_default`;

/** Advisory lock namespace (the first key of pg_advisory_xact_lock(int, int)): partitions, by table. */
const LOCK_PARTITIONS = 7330;
/** How long a DROP waits for the table's lock before it gives up until the next run. */
const DROP_LOCK_TIMEOUT = "100ms";

/** A partition and its range ([from, to); null: unbounded, or the default partition). */
export type Partition = { name: string; from: Date | null; to: Date | null; isDefault: boolean };

/** The first instant of the UTC month `t` falls in, and of the month `add` months later. */
export const monthStart = (t: Date, add = 0): Date =>
  new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + add, 1));
/** t_pYYYY_MM of the month starting at `start`. */
export const monthPartitionName = (t: PartitionedTable, start: Date): string =>
  `${t.table}_p${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, "0")}`;

const ident = (name: string) => {
  // Names are built here (monthPartitionName, the tables above), never taken from input; checked anyway.
  if (!/^(part_records|evaluations)(_[a-z0-9_]+)?$/.test(name))
    throw new Error(`not a partitioned table: ${name}`);
  return sql.raw(`"${name}"`);
};

async function listPartitions(db: Tx, t: PartitionedTable): Promise<Partition[]> {
  const res = await db.execute(sql`
    select c.relname as name,
      pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' as is_default,
      substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']+)''\\)')::timestamptz as lower,
      substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']+)''\\)')::timestamptz as upper
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${t.table}::regclass
    order by upper nulls first`);
  const at = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date));
  return rowsOf<{ name: string; is_default: boolean; lower: unknown; upper: unknown }>(res).map((r) => ({
    name: r.name,
    from: at(r.lower),
    to: at(r.upper),
    isDefault: r.is_default,
  }));
}

/**
 * The partitions that may hold rows older than `cutoff`, oldest first, the default partition last
 * (its rows may be of any time).
 */
export async function partitionsBefore(db: Tx, t: PartitionedTable, cutoff: Date): Promise<string[]> {
  const parts = await listPartitions(db, t);
  return [
    ...parts.filter((p) => !p.isDefault && (p.from === null || p.from.getTime() < cutoff.getTime())),
    ...parts.filter((p) => p.isDefault),
  ].map((p) => p.name);
}

/** Whether [from, to) overlaps a range partition (the default partition overlaps nothing). */
const overlaps = (parts: Partition[], from: Date, to: Date) =>
  parts.some(
    (p) =>
      !p.isDefault &&
      (p.from === null || p.from.getTime() < to.getTime()) &&
      (p.to === null || p.to.getTime() > from.getTime()),
  );

/**
 * The partitions of one table. `keep` (dropPartitionsBefore): a condition on a row (alias `r`)
 * that retention must keep whatever its age; a partition holding such a row is not dropped.
 */
export function createPartitions(db: Db, t: PartitionedTable) {
  const table = ident(t.table);
  const fallback = ident(defaultPartition(t));
  const column = sql.raw(`"${t.column}"`);
  const lockKey = t.table === "part_records" ? 0 : 1;

  /**
   * Creates the partition of the month starting at `start` unless a partition covers any of it
   * already, moving the default partition's rows of that month into it; answers whether it
   * created one and how many rows moved.
   */
  async function ensureMonth(start: Date): Promise<{ created: boolean; moved: number }> {
    const end = monthStart(start, 1);
    if (overlaps(await listPartitions(db, t), start, end)) return { created: false, moved: 0 };
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_PARTITIONS}, ${lockKey})`);
      // Another worker may have created it while this one waited.
      if (overlaps(await listPartitions(tx, t), start, end)) return { created: false, moved: 0 };
      const name = ident(monthPartitionName(t, start));
      const from = start.toISOString();
      const to = end.toISOString();
      // Writes routed to the default partition wait from here to the commit; no row of the
      // month can arrive there between the move and the attach's check of it.
      await tx.execute(sql`lock table ${fallback} in exclusive mode`);
      await tx.execute(sql`create table ${name} (like ${table} including defaults)`);
      const moved = await tx.execute(sql`
        with moved as (
          delete from ${fallback}
          where ${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz
          returning *)
        , stored as (insert into ${name} select * from moved returning 1)
        select count(*)::int as n from stored`);
      // Builds the primary key and indexes on the filled table and copies the foreign keys.
      await tx.execute(
        sql`alter table ${table} attach partition ${name} for values from (${sql.raw(`'${from}'`)}) to (${sql.raw(`'${to}'`)})`,
      );
      return { created: true, moved: Number(rowsOf<{ n: number }>(moved)[0]?.n ?? 0) };
    });
  }

  return {
    list: () => listPartitions(db, t),

    /** Creates the partitions of every month from `from`'s to `to`'s (see ensureMonth). */
    async ensureMonths(from: Date, to: Date): Promise<{ created: string[]; moved: number }> {
      const created: string[] = [];
      let moved = 0;
      for (let m = monthStart(from); m.getTime() <= to.getTime(); m = monthStart(m, 1)) {
        const r = await ensureMonth(m);
        if (r.created) created.push(monthPartitionName(t, m));
        moved += r.moved;
      }
      return { created, moved };
    },

    /**
     * Moves the default partition's rows into their months' partitions, creating those; the
     * default partition is empty afterwards unless rows arrived meanwhile.
     */
    async sweepDefault(): Promise<{ created: string[]; moved: number }> {
      const res = await db.execute(sql`
        select distinct date_trunc('month', ${column} at time zone 'UTC') at time zone 'UTC' as month
        from ${fallback} order by 1`);
      const created: string[] = [];
      let moved = 0;
      for (const r of rowsOf<{ month: unknown }>(res)) {
        const start = new Date(r.month as string | Date);
        const done = await ensureMonth(start);
        if (done.created) created.push(monthPartitionName(t, start));
        moved += done.moved;
      }
      // The moved rows are dead tuples in the default partition until a VACUUM: every look-up
      // walked their index entries (a retention batch on PostgreSQL: 80 ms instead of 15), and
      // PGlite has no autovacuum. A plain VACUUM takes no lock reads or writes wait for.
      if (moved > 0) await db.execute(sql`vacuum ${fallback}`);
      return { created, moved };
    },

    /**
     * Drops every range partition that ends at or before `cutoff` (its rows all older than it)
     * and holds no row `keep` names, answering the partitions dropped and the rows they held. A
     * partition whose lock cannot be had within DROP_LOCK_TIMEOUT is left for the next run.
     */
    async dropPartitionsBefore(
      cutoff: Date,
      keep?: SQL,
    ): Promise<{ dropped: string[]; rows: number; skipped: number; slowestDropMs: number }> {
      const dropped: string[] = [];
      let rows = 0;
      let skipped = 0;
      // The longest DROP statement: the time the table's exclusive lock was held (the commit follows it).
      let slowestDropMs = 0;
      for (const p of await listPartitions(db, t)) {
        if (p.isDefault || p.to === null || p.to.getTime() > cutoff.getTime()) continue;
        // Read outside the DROP's transaction: plain reads that hold no lock DML waits for.
        if (keep) {
          const held = await db.execute(
            sql`select exists (select 1 from ${ident(p.name)} r where ${keep}) as held`,
          );
          if (rowsOf<{ held: boolean }>(held)[0]?.held) continue;
        }
        try {
          // Under the advisory lock: a run that waited for another finds its partition gone and
          // counts nothing. The count holds no lock writers wait for; the DROP waits at most
          // DROP_LOCK_TIMEOUT for the table.
          const n = await db.transaction(async (tx) => {
            await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_PARTITIONS}, ${lockKey})`);
            const found = await tx.execute(sql`select to_regclass(${p.name}) is not null as found`);
            if (!rowsOf<{ found: boolean }>(found)[0]?.found) return null;
            const count = await tx.execute(sql`select count(*)::bigint as n from ${ident(p.name)}`);
            await tx.execute(sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`));
            const t0 = performance.now();
            await tx.execute(sql`drop table ${ident(p.name)}`);
            slowestDropMs = Math.max(slowestDropMs, performance.now() - t0);
            return Number(rowsOf<{ n: string | number }>(count)[0]?.n ?? 0);
          });
          if (n === null) continue;
          dropped.push(p.name);
          rows += n;
        } catch (err) {
          if (dbErrorCode(err) !== "55P03") throw err;
          skipped++;
        }
      }
      return { dropped, rows, skipped, slowestDropMs: Math.round(slowestDropMs * 10) / 10 };
    },
  };
}
export type Partitions = ReturnType<typeof createPartitions>;

/**
 * Housekeeping's part, for each partitioned table: the current month's partition and
 * PARTITIONS.aheadMonths ahead, and the default partition's rows moved into theirs.
 */
export async function maintainPartitions(db: Db, now: Date) {
  const created: string[] = [];
  let moved = 0;
  for (const t of [PART_RECORDS_PARTITIONING, EVALUATIONS_PARTITIONING]) {
    const partitions = createPartitions(db, t);
    const ahead = await partitions.ensureMonths(now, monthStart(now, PARTITIONS.aheadMonths));
    const swept = await partitions.sweepDefault();
    created.push(...ahead.created, ...swept.created);
    moved += ahead.moved + swept.moved;
  }
  return { created, moved };
}
