// Part records: one row per part at one station at one time.
import { index, integer, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { float8Array, nullableTextArray, ts } from "./columns.js";
import { customerRef } from "./customers.js";
import { lines, stations } from "./lines.js";

/**
 * One part at one station at one time: one compact row, values in arrays indexed by the signals'
 * slots. The primary key is the idempotency key (station → line, partId, timestamp, op).
 */
export const partRecords = pgTable(
  "part_records",
  {
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    ts: ts("ts").notNull(),
    partId: text("part_id").notNull(),
    op: smallint("op").notNull().default(1),
    modelNumber: text("model_number"),
    numValues: float8Array("num_values"),
    textValues: nullableTextArray("text_values"),
  },
  (t) => [
    primaryKey({ columns: [t.stationId, t.ts, t.partId, t.op] }),
    // A part's newest record at another station (MVD rows across stations, cap op counts): without
    // it every lookup scans the station's records back to the part, quadratic in the window.
    index("part_records_station_part_idx").on(t.stationId, t.partId, t.ts, t.op),
  ],
);

/**
 * How many part records each line stored in each quarter hour (issue 31 §3), kept by the one
 * writer of part_records in the transaction that inserts them (modules/part-records), so the
 * home overview reads a few hundred rows instead of counting a day of records. Quarter hours,
 * not hours: a plant's hour starts at :30 or :45 UTC in zones offset by 30 or 45 minutes, and
 * every zone's hour is a sum of whole quarter hours. Only records the insert actually stored are
 * counted (a replayed key is not); a line's deletion takes its counts with it, as it takes its
 * stations' records (docs/decisions/0299-hourly-counts-kept-at-ingest.md).
 */
export const partRecordCounts = pgTable(
  "part_record_counts",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    /** The quarter hour's start (UTC seconds a multiple of 900). */
    bucket: ts("bucket").notNull(),
    records: integer("records").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.bucket] })],
);
