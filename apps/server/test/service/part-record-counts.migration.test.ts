// An installation upgrades in place (issue 31 §3): a database migrated as the version before the
// counts left it, with part records stored, gets migration 0014, which fills part_record_counts
// from those records — equal, line by line and quarter hour by quarter hour, to counting them.
// PGlite in memory, or a new PostgreSQL database when DATABASE_URL is set.
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/client.js";
import { partRecords, stations } from "../../src/db/schema/index.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { MIGRATIONS, openMigratedTo } from "../helpers/migrations.js";

/** The last migration of the version before the counts. */
const BEFORE = "0013_plant_management";

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe("migration 0014 on a database with part records", () => {
  it("fills the counts equal to counting the stored records per line and quarter hour", {
    timeout: 120_000,
  }, async () => {
    const database = await openMigratedTo(BEFORE, cleanup);
    const { db } = database;

    // Two customers, three lines, five stations; records as the version before stored them
    // (straight into part_records), every 47 s over 30 hours, some on quarter hours' first instant.
    const seeded: string[] = [];
    for (const c of [0, 1]) {
      const customer = await createCustomer(db);
      const plant = await createPlant(db, customer.id, { timeZone: c ? "Asia/Kathmandu" : "Europe/Berlin" });
      seeded.push(customer.id);
      for (const l of c ? [0] : [0, 1]) {
        const line = await createLine(db, customer.id, plant.id);
        const made = await db
          .insert(stations)
          .values([0, 1].map((s) => ({ customerId: customer.id, lineId: line.id, name: `OP${s}` })))
          .returning({ id: stations.id });
        const base = Date.UTC(2026, 10, 20, 6) + l * 90_000;
        const rows = [];
        for (let i = 0; i < 2_300; i++) {
          const station = made[i % made.length];
          if (!station) throw new Error("no station");
          rows.push({
            stationId: station.id,
            ts: new Date(base + (i % 7 ? i * 47_000 : i * 900_000)),
            partId: `P-${i}`,
          });
        }
        for (let i = 0; i < rows.length; i += 1_000)
          await db
            .insert(partRecords)
            .values(rows.slice(i, i + 1_000))
            .onConflictDoNothing();
      }
    }

    await database.migrate(MIGRATIONS);

    for (const customerId of seeded) {
      const kept = rowsOf<{ k: string }>(
        await db.execute(sql`
          select line_id::text || ' ' || to_char(bucket at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || records as k
          from part_record_counts where customer_id = ${customerId} order by 1`),
      ).map((r) => r.k);
      const counted = rowsOf<{ k: string }>(
        await db.execute(sql`
          select s.line_id::text || ' ' || to_char(date_bin('15 minutes', pr.ts, timestamptz '1970-01-01 00:00:00+00') at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || count(*) as k
          from part_records pr join stations s on s.id = pr.station_id
          where s.customer_id = ${customerId}
          group by s.line_id, date_bin('15 minutes', pr.ts, timestamptz '1970-01-01 00:00:00+00')
          order by 1`),
      ).map((r) => r.k);
      expect(counted.length).toBeGreaterThan(100);
      expect(kept).toEqual(counted);
      const [total] = rowsOf<{ kept: number; stored: number }>(
        await db.execute(sql`
          select (select sum(records)::int from part_record_counts where customer_id = ${customerId}) as kept,
                 (select count(*)::int from part_records pr join stations s on s.id = pr.station_id
                  where s.customer_id = ${customerId}) as stored`),
      );
      expect(total?.kept).toBe(total?.stored);
    }
  });
});
