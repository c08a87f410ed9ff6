// Part records: one row per part at one station at one time.
import { index, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { float8Array, nullableTextArray, ts } from "./columns.js";
import { stations } from "./lines.js";

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
