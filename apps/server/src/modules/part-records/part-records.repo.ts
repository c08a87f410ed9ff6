import { eq, lt, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";
import { dbErrorCode } from "../../db/errors.js";
import { PART_RECORDS_PARTITIONING, partitionsBefore } from "../../db/partitions.js";
import {
  dataSourceMessages,
  deadLetters,
  lines,
  modelNumbers,
  partAttributeValues,
  partRecordCounts,
  partRecords,
  stations,
} from "../../db/schema/index.js";

export type PartRecordRow = typeof partRecords.$inferInsert;
/** A dead letter as stored: whose it is, the topic, the payload (already cut to fit) and the reason. */
export type DeadLetterRow = {
  customerId: string;
  ingestorId: string;
  dataSourceId: string;
  topic: string;
  payload: string;
  reason: string;
};
/** A received message kept for the insight-mapping page. */
export type SampleRow = { dataSourceId: string; topic: string; payload: string };
/** A part record's row as JSON (column names), for the bulk insert of seeded records. */
export type PartRecordJsonRow = {
  station_id: string;
  ts: string;
  part_id: string;
  op: number;
  model_number: string | null;
  num_values: (number | null)[] | null;
  text_values: (string | null)[] | null;
};

// PostgreSQL takes at most 65,535 parameters a statement; 7 columns a row.
const INSERT_CHUNK = 5_000;
/** The counts' bucket: a quarter hour (db/schema/part-records.ts, partRecordCounts). */
const BUCKET_MS = 900_000;
const bucketOf = (ts: Date) => Math.floor(ts.getTime() / BUCKET_MS) * BUCKET_MS;
/** The same bucket in SQL, for records counted in the database (the JSON insert, migration 0014). */
const bucketSql = (column: string) =>
  sql.raw(`date_bin('15 minutes', ${column}, timestamptz '1970-01-01 00:00:00+00')`);

/**
 * Adds stored records to their lines' quarter-hour counts, given per station (the station names
 * its line and customer). One statement, its rows in key order: two transactions adding to the
 * same counts lock them in the same order, so they queue and never deadlock. Adding, never
 * setting, so concurrent batches into one quarter hour sum up.
 */
async function addCounts(db: Tx, perStation: Map<string, number>) {
  if (!perStation.size) return;
  const counts = [...perStation].map(([key, n]) => {
    const [stationId, bucket] = key.split("|");
    return { station_id: stationId, bucket: new Date(Number(bucket)).toISOString(), n };
  });
  await db.execute(sql`
    insert into ${partRecordCounts} (customer_id, line_id, bucket, records)
    select s.customer_id, s.line_id, c.bucket, sum(c.n)::int
    from json_to_recordset(${JSON.stringify(counts)}::json) as c(station_id uuid, bucket timestamptz, n int)
    join ${stations} s on s.id = c.station_id
    group by s.customer_id, s.line_id, c.bucket
    order by s.line_id, c.bucket
    on conflict (line_id, bucket) do update set records = ${partRecordCounts}.records + excluded.records`);
}

/**
 * Every write of part records, dead letters and message samples (and of what a stored record
 * moves: its line's last ingested time and quarter-hour counts, model numbers, attribute values).
 * Nothing else in the server writes these tables (part-records.writes.test.ts).
 */
export function createPartRecordsRepo(db: Tx) {
  return {
    /**
     * Inserts rows (a stored key is skipped) and adds the ones stored to their lines' counts, in
     * the caller's transaction; answers how many were new. The counts take what the insert
     * returned, so a replayed or concurrently stored key is never counted twice.
     */
    async insertRecords(rows: PartRecordRow[]): Promise<number> {
      let stored = 0;
      const perStation = new Map<string, number>();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const inserted = await db
          .insert(partRecords)
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflictDoNothing()
          .returning({ stationId: partRecords.stationId, ts: partRecords.ts });
        stored += inserted.length;
        for (const r of inserted) {
          const key = `${r.stationId}|${bucketOf(r.ts)}`;
          perStation.set(key, (perStation.get(key) ?? 0) + 1);
        }
      }
      await addCounts(db, perStation);
      return stored;
    },

    /**
     * Inserts rows given as one JSON parameter: two to three times faster than 14,000 bind
     * parameters on both PGlite and PostgreSQL, and still no values spliced into the SQL text.
     * The rows stored are added to their lines' counts in the same statement.
     */
    async insertRecordsFromJson(rows: PartRecordJsonRow[]) {
      await db.execute(sql`
      with stored as (
        insert into ${partRecords} (station_id, ts, part_id, op, model_number, num_values, text_values)
        select station_id, ts, part_id, op, model_number, num_values, text_values
        from json_populate_recordset(null::${partRecords}, ${JSON.stringify(rows)}::json)
        returning station_id, ts)
      insert into ${partRecordCounts} (customer_id, line_id, bucket, records)
      select s.customer_id, s.line_id, ${bucketSql("stored.ts")}, count(*)::int
      from stored join ${stations} s on s.id = stored.station_id
      group by 1, 2, 3
      order by 2, 3
      on conflict (line_id, bucket) do update set records = ${partRecordCounts}.records + excluded.records`);
    },

    /** Moves the line's last ingested time to `t` unless it is later already. */
    async advanceLastIngested(lineId: string, t: Date) {
      await db
        .update(lines)
        .set({
          lastIngestedTime: sql`greatest(coalesce(${lines.lastIngestedTime}, ${t.toISOString()}::timestamptz), ${t.toISOString()}::timestamptz)`,
        })
        .where(eq(lines.id, lineId));
    },

    async insertModelNumbers(rows: { customerId: string; lineId: string; value: string }[]) {
      if (rows.length) await db.insert(modelNumbers).values(rows).onConflictDoNothing();
    },

    async insertAttributeValues(rows: { signalId: string; value: string }[]) {
      if (rows.length) await db.insert(partAttributeValues).values(rows).onConflictDoNothing();
    },

    async insertDeadLetters(rows: DeadLetterRow[]) {
      if (rows.length) await db.insert(deadLetters).values(rows);
    },

    /** Deletes the dead letters received before `cutoff`; answers how many. */
    async deleteDeadLettersBefore(cutoff: Date): Promise<number> {
      const rows = await db
        .delete(deadLetters)
        .where(lt(deadLetters.receivedAt, cutoff))
        .returning({ id: deadLetters.id });
      return rows.length;
    },

    /**
     * Retention (issue 31 §2, modules/retention): deletes at most `limit` of the station's records
     * older than `cutoff`, in a statement of its own (a short transaction) per partition it reaches,
     * and answers how many.
     * The oldest rows go first, found on the primary key (station_id, ts, …: the order by keeps the
     * planner on it whatever its statistics say), partition by partition, and deleted by ctid;
     * rows another run holds are skipped (SKIP LOCKED), so
     * several workers may run it at once. Partitions past every customer's horizon are dropped
     * whole before (db/partitions.ts); this deletes what is left in the ones kept.
     */
    async deleteStationRecordsBefore(stationId: string, cutoff: Date, limit: number): Promise<number> {
      const before = cutoff.toISOString();
      let deleted = 0;
      // Partition by partition, oldest first, each as a plain table by ctid (one statement over
      // the partitioned table probed every partition for every row: 150 ms a batch where 22 ms was
      // the plain table's time, bench:retention on PostgreSQL).
      for (const name of await partitionsBefore(db, PART_RECORDS_PARTITIONING, cutoff)) {
        const part = sql.identifier(name);
        try {
          const res = await db.execute(sql`
          with due as (
            select ctid from ${part}
            where station_id = ${stationId} and ts < ${before}::timestamptz
            order by ts
            limit ${limit - deleted} for update skip locked
          ), gone as (
            delete from ${part} where ctid = any(array(select ctid from due)) and ts < ${before}::timestamptz
            returning 1
          )
          select count(*)::int as n from gone`);
          deleted += Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
        } catch (err) {
          // Another worker's retention dropped the partition meanwhile, with its records.
          if (dbErrorCode(err) !== "42P01") throw err;
        }
        if (deleted >= limit) break;
      }
      return deleted;
    },

    /**
     * Retention: deletes at most `limit` of the line's quarter-hour counts whose whole quarter hour
     * lies before `cutoff` (the records they count are gone with the same horizon; the quarter hour
     * the cutoff falls in keeps its count until the next run), oldest first, as
     * deleteStationRecordsBefore deletes records; answers how many.
     */
    async deleteLineCountsBefore(lineId: string, cutoff: Date, limit: number): Promise<number> {
      const latest = new Date(cutoff.getTime() - BUCKET_MS).toISOString();
      const res = await db.execute(sql`
      with due as (
        select ctid from ${partRecordCounts}
        where ${partRecordCounts.lineId} = ${lineId} and ${partRecordCounts.bucket} <= ${latest}::timestamptz
        order by ${partRecordCounts.bucket}
        limit ${limit} for update skip locked
      ), gone as (
        delete from ${partRecordCounts} where ctid = any(array(select ctid from due))
          and ${partRecordCounts.bucket} <= ${latest}::timestamptz
        returning 1
      )
      select count(*)::int as n from gone`);
      return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
    },

    /** Inserts a sample and keeps the data source's newest `keep` only. */
    async insertSample(row: SampleRow, keep: number) {
      await db.insert(dataSourceMessages).values(row);
      await db.execute(sql`delete from ${dataSourceMessages} where ${dataSourceMessages.dataSourceId} = ${row.dataSourceId}
      and ${dataSourceMessages.id} not in (select ${dataSourceMessages.id} from ${dataSourceMessages}
        where ${dataSourceMessages.dataSourceId} = ${row.dataSourceId} order by ${dataSourceMessages.receivedAt} desc limit ${keep})`);
    },
  };
}
export type PartRecordsRepo = ReturnType<typeof createPartRecordsRepo>;
