// The per-line quarter-hour counts of part records (issue 31 §3) the home overview reads: kept by
// the one writer of part records in the transaction that stores them, whichever way the records
// came (HTTP, a CSV upload, MQTT through the batcher, the demo's bulk insert); a replayed record is
// counted once, batches stored at once into one quarter hour add up, another customer's counts
// never show, and the overview's hours are the ones counting the records gives, in time zones
// offset by whole, half and three-quarter hours.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { IPublishPacket } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/client.js";
import { lines, stations } from "../../src/db/schema/index.js";
import { createIngestBatcher } from "../../src/ingest/batcher.js";
import { createSourceDirectory } from "../../src/ingest/sources.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createPartRecordsRepo } from "../../src/modules/part-records/part-records.repo.js";
import { createPlantOverviewRepo } from "../../src/modules/plant-overview/plant-overview.repo.js";
import { createCustomer, createLine, createPlant, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { capturingLogger } from "../helpers/logger.js";

let t: TestContext;
const db = () => t.database.db;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const run = randomBytes(4).toString("hex");
const NOW = new Date("2026-05-12T14:20:00Z");

/** A customer's counts, and its records counted per line and quarter hour: the two must agree. */
async function countsAndRecords(customerId: string) {
  const kept = rowsOf<{ line_id: string; bucket: Date | string; n: number }>(
    await db().execute(sql`
      select line_id, bucket, records as n from part_record_counts
      where customer_id = ${customerId}`),
  );
  const counted = rowsOf<{ line_id: string; bucket: Date | string; n: number }>(
    await db().execute(sql`
      select s.line_id, date_bin('15 minutes', pr.ts, timestamptz '1970-01-01 00:00:00+00') as bucket,
             count(*)::int as n
      from part_records pr join stations s on s.id = pr.station_id
      where s.customer_id = ${customerId}
      group by 1, 2`),
  );
  const text = (rows: typeof kept) =>
    rows.map((r) => `${r.line_id} ${new Date(r.bucket).toISOString()} ${Number(r.n)}`).sort();
  return { kept: text(kept), counted: text(counted), total: counted.reduce((s, r) => s + Number(r.n), 0) };
}

async function expectCountsMatch(customerId: string, total: number) {
  const { kept, counted, total: stored } = await countsAndRecords(customerId);
  expect(stored).toBe(total);
  expect(kept).toEqual(counted);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => closeTestApp(t));

describe("part record counts kept at ingest", () => {
  it("equal the records per line and quarter hour after HTTP, CSV and MQTT ingests", async () => {
    const a = await createTenant(t.app, db());
    const token = await t.app.inject({
      method: "POST",
      url: `/api/plants/${a.plant.id}/ingest-tokens`,
      headers: a.adminHeaders,
      payload: { name: "Line PLC" },
    });
    expect(token.statusCode).toBe(201);
    const base = Date.UTC(2026, 10, 22, 9, 50);
    const record = (i: number, line = "Body") => ({
      line,
      station: `OP${10 + (i % 3) * 10}`,
      partId: `H-${i}`,
      timestamp: new Date(base + i * 97_000).toISOString(),
      measurements: { Torque: 12 + i / 100 },
    });

    // HTTP: two lines, records across quarter and hour boundaries.
    const http = await t.app.inject({
      method: "POST",
      url: "/api/ingest",
      headers: { authorization: `Bearer ${token.json().secret}` },
      payload: Array.from({ length: 60 }, (_, i) => record(i, i % 2 ? "Body" : "Paint")),
    });
    expect(http.json()).toMatchObject({ stored: 60, duplicates: 0, rejected: [] });

    // CSV: into the same lines and hours.
    const csv = [
      "line,station,partId,timestamp,Torque",
      ...Array.from(
        { length: 40 },
        (_, i) => `Body,OP10,C-${i},${new Date(base + i * 131_000).toISOString()},${i}`,
      ),
    ].join("\n");
    const upload = await t.app.inject({
      method: "POST",
      url: `/api/plants/${a.plant.id}/part-records/csv`,
      headers: { "content-type": "text/csv", ...a.adminHeaders },
      payload: csv,
    });
    expect(upload.json()).toMatchObject({ stored: 40 });

    // MQTT: messages as the broker hands them to the batcher.
    const topic = `lwcounts-${run}/Body/OP30`;
    const source = await t.app.inject({
      method: "POST",
      url: `/api/plants/${a.plant.id}/data-sources`,
      headers: a.adminHeaders,
      payload: { name: "Counts test", topic: `lwcounts-${run}/#` },
    });
    expect(source.statusCode).toBe(201);
    const directory = createSourceDirectory(db());
    await directory.refresh();
    const batcher = createIngestBatcher({
      partRecords: t.services.partRecords,
      directory,
      logger: capturingLogger().logger,
    });
    const packet = (payload: unknown): IPublishPacket => ({
      cmd: "publish",
      qos: 1,
      dup: false,
      retain: false,
      topic,
      payload: Buffer.from(JSON.stringify(payload)),
      messageId: 1,
    });
    const mqttRecord = (i: number) => ({
      partId: `M-${i}`,
      timestamp: new Date(base + i * 53_000).toISOString(),
      measurements: { Torque: i },
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, m) =>
        batcher.add(
          packet(Array.from({ length: 5 }, (_, k) => mqttRecord(m * 5 + k))),
          directory.resolve(topic),
        ),
      ),
    );
    await batcher.close();

    await expectCountsMatch(a.customer.id, 150);
  });

  it("count a replayed record once: a repeated request, a duplicate within a batch, a repeated upload", async () => {
    const a = await createTenant(t.app, db());
    const target = { customerId: a.customer.id, plantId: a.plant.id };
    const base = Date.UTC(2026, 10, 22, 13, 58);
    const batch = Array.from({ length: 20 }, (_, i) => ({
      line: "Assembly",
      station: "OP10",
      partId: `D-${i}`,
      timestamp: new Date(base + i * 20_000).toISOString(),
      measurements: { Torque: i },
    }));
    expect(await t.services.partRecords.ingest(target, batch)).toMatchObject({ stored: 20, duplicates: 0 });
    expect(await t.services.partRecords.ingest(target, batch)).toMatchObject({ stored: 0, duplicates: 20 });
    const [first] = batch;
    if (!first) throw new Error("no record");
    const fresh = { ...first, partId: "D-new" };
    expect(await t.services.partRecords.ingest(target, [first, fresh, fresh])).toMatchObject({
      stored: 1,
      duplicates: 2,
    });
    // The repository itself, handed rows of which some are stored already.
    const [station] = await db()
      .select({ id: stations.id })
      .from(stations)
      .where(sql`${stations.customerId} = ${a.customer.id}`);
    if (!station) throw new Error("no station");
    const stored = await createPartRecordsRepo(db()).insertRecords([
      { stationId: station.id, ts: new Date(base), partId: "D-0" },
      { stationId: station.id, ts: new Date(base), partId: "D-repo" },
    ]);
    expect(stored).toBe(1);
    await expectCountsMatch(a.customer.id, 22);
  });

  it("add up when batches into one quarter hour are stored at once, overlapping ones included", async () => {
    const a = await createTenant(t.app, db());
    const target = { customerId: a.customer.id, plantId: a.plant.id };
    const base = Date.UTC(2026, 10, 22, 10, 0);
    // Eight batches of 40 at once into 10:00–10:15 on two lines; batches 2k and 2k+1 share half
    // their keys, so one of each shared pair is stored and the other is a duplicate.
    const batch = (b: number) =>
      Array.from({ length: 40 }, (_, i) => {
        const n = i < 20 ? b * 40 + i : (b >> 1) * 1000 + i;
        return {
          line: b % 4 < 2 ? "Press" : "Weld",
          station: "OP10",
          partId: `K-${n}`,
          timestamp: new Date(base + (n % 600) * 1_000).toISOString(),
          measurements: { Torque: n },
        };
      });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, b) => t.services.partRecords.ingest(target, batch(b))),
    );
    const stored = results.reduce((s, r) => s + r.stored, 0);
    expect(stored).toBe(8 * 20 + 4 * 20);
    expect(results.reduce((s, r) => s + r.duplicates, 0)).toBe(4 * 20);
    await expectCountsMatch(a.customer.id, stored);
  });

  it("count what the demo's bulk insert stores", async () => {
    const customer = await createCustomer(db());
    const plant = await createPlant(db(), customer.id);
    const line = await createLine(db(), customer.id, plant.id);
    const [station] = await db()
      .insert(stations)
      .values({ customerId: customer.id, lineId: line.id, name: "OP10" })
      .returning();
    if (!station) throw new Error("no station");
    const base = Date.UTC(2026, 10, 22, 23, 40);
    await createPartRecordsRepo(db()).insertRecordsFromJson(
      Array.from({ length: 90 }, (_, i) => ({
        station_id: station.id,
        ts: new Date(base + i * 29_000).toISOString(),
        part_id: `J-${i}`,
        op: 1,
        model_number: null,
        num_values: [i],
        text_values: null,
      })),
    );
    await expectCountsMatch(customer.id, 90);
  });

  it("go with their line when it is deleted, as its stations' records do", async () => {
    const a = await createTenant(t.app, db());
    const target = { customerId: a.customer.id, plantId: a.plant.id };
    const at = new Date(Date.UTC(2026, 10, 22, 7)).toISOString();
    await t.services.partRecords.ingest(target, [
      { line: "Kept", station: "OP10", partId: "X-1", timestamp: at, measurements: { T: 1 } },
      { line: "Gone", station: "OP10", partId: "X-2", timestamp: at, measurements: { T: 1 } },
    ]);
    await db().delete(lines).where(sql`${lines.customerId} = ${a.customer.id} and ${lines.name} = 'Gone'`);
    await expectCountsMatch(a.customer.id, 1);
  });
});

describe("the overview's records per hour from the counts", () => {
  // Zones whose hours start at :00, :30 and :45 UTC, and one behind UTC by 3:30.
  const ZONES = ["Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns"];

  it.each(ZONES)("are the records counted per hour of the plant's clock (%s)", async (timeZone) => {
    const customer = await createCustomer(db());
    const plant = await createPlant(db(), customer.id, { timeZone });
    const ctx = { customerId: customer.id } as AuthContext;
    const target = { customerId: customer.id, plantId: plant.id };
    // Records every 7 min 13 s over the last 26 hours at three stations of two lines, and one at
    // each quarter hour's first instant (a bucket's edge).
    const records = [];
    for (let ts = NOW.getTime() - 26 * HOUR, i = 0; ts < NOW.getTime(); ts += 433_000, i++)
      records.push({
        line: i % 3 ? "Line A" : "Line B",
        station: `OP${(i % 3) * 10}`,
        partId: `Z-${i}`,
        timestamp: new Date(ts).toISOString(),
        measurements: { T: i },
      });
    for (let ts = NOW.getTime() - 25 * HOUR - 5 * MINUTE; ts < NOW.getTime(); ts += 15 * MINUTE)
      records.push({
        line: "Line A",
        station: "Edge",
        partId: `E-${ts}`,
        timestamp: new Date(ts - (ts % (15 * MINUTE))).toISOString(),
        measurements: { T: 0 },
      });
    const result = await t.services.partRecords.ingest(target, records);
    expect(result.rejected).toEqual([]);

    const previousNow = t.now.value;
    t.now.value = NOW;
    try {
      const o = await t.services.plantOverview.get(ctx, plant.id);
      const from = new Date(o.hoursFrom);
      const to = new Date(from.getTime() + 24 * HOUR);
      // The overview before the counts: the records of each hour counted.
      const counted = await createPlantOverviewRepo(db()).recordsPerHourCounted(
        customer.id,
        plant.id,
        from,
        to,
      );
      const expected = new Map(o.lines.map((l) => [l.id, new Array<number>(24).fill(0)]));
      for (const r of counted) {
        const hours = expected.get(r.line_id);
        if (hours && r.bucket >= 0 && r.bucket < 24) hours[r.bucket] = Number(r.n);
      }
      expect(o.lines).toHaveLength(2);
      for (const l of o.lines) expect(l.recordsPerHour, l.name).toEqual(expected.get(l.id));
      expect(o.lines.flatMap((l) => l.recordsPerHour).reduce((s, n) => s + n, 0)).toBeGreaterThan(200);
    } finally {
      t.now.value = previousNow;
    }
  });

  it("never show another customer's counts", async () => {
    const a = await createTenant(t.app, db());
    const b = await createTenant(t.app, db());
    const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * MINUTE).toISOString();
    const rec = (partId: string, minutesAgo: number) => ({
      line: "Same name",
      station: "OP10",
      partId,
      timestamp: at(minutesAgo),
      measurements: { T: 1 },
    });
    await t.services.partRecords.ingest({ customerId: a.customer.id, plantId: a.plant.id }, [rec("A-1", 30)]);
    await t.services.partRecords.ingest({ customerId: b.customer.id, plantId: b.plant.id }, [
      rec("B-1", 30),
      rec("B-2", 31),
      rec("B-3", 200),
    ]);
    const previousNow = t.now.value;
    t.now.value = NOW;
    try {
      const o = await t.services.plantOverview.get({ customerId: a.customer.id } as AuthContext, a.plant.id);
      const total = o.lines.flatMap((l) => l.recordsPerHour).reduce((s, n) => s + n, 0);
      expect(total).toBe(1);
      // Asked for b's plant with a's customer: nothing of b's (the service answers 404 before).
      const repo = createPlantOverviewRepo(db());
      const from = new Date(o.hoursFrom);
      const to = new Date(from.getTime() + 24 * HOUR);
      expect(await repo.recordsPerHour(a.customer.id, b.plant.id, from, to)).toEqual([]);
      expect(await repo.recordsPerHour(b.customer.id, b.plant.id, from, to)).toHaveLength(2);
    } finally {
      t.now.value = previousNow;
    }
    await expectCountsMatch(a.customer.id, 1);
    await expectCountsMatch(b.customer.id, 3);
  });
});
