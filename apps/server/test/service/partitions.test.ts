// Part records and evaluations partitioned by month (issue 31 §1;
// docs/decisions/0305-part-records-partitioned-by-month.md), on a real database: PGlite, or
// PostgreSQL with DATABASE_URL.
// - An installation upgrades in place: records and evaluations stored by the version before
//   migrations 0016 and 0017 are all found after them, in the attached legacy partitions, and their
//   keys still refuse a replay.
// - Housekeeping creates the current month and the next ones ahead; records land in their month;
//   a backfill the default partition took is moved into its month's partition, losing nothing.
// - Retention drops a month whole once it ends before every customer's horizon, deletes the rest
//   past the horizon in batches, and drops nothing while a customer keeps records for ever; a month
//   of evaluations holding an alert's evidence stays.
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Db, rowsOf } from "../../src/db/client.js";
import { isTransientDbError } from "../../src/db/errors.js";
import {
  createPartitions,
  defaultPartition,
  EVALUATIONS_PARTITIONING,
  legacyPartition,
  maintainPartitions,
  PART_RECORDS_PARTITIONING,
} from "../../src/db/partitions.js";
import {
  alertEvents,
  alerts,
  evaluations,
  partRecords,
  retentionSettings,
  stations,
} from "../../src/db/schema/index.js";
import {
  createPartRecordsRepo,
  type PartRecordRow,
} from "../../src/modules/part-records/part-records.repo.js";
import { runRetention } from "../../src/modules/retention/retention.service.js";
import { createCustomer, createEvaluation, createLine, createMonitorRow, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { MIGRATIONS, openMigratedTo, openUnmigrated } from "../helpers/migrations.js";
import { eventually } from "../helpers/mqtt.js";

const PR = PART_RECORDS_PARTITIONING;
const EV = EVALUATIONS_PARTITIONING;
const partRecordPartitions = (db: Db) => createPartitions(db, PR);

/** The last migration before part records were partitioned. */
const BEFORE = "0015_retention_settings";
const DAY = 86_400_000;

async function stationOf(db: Db, customerId?: string) {
  const customer = customerId ? { id: customerId } : await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  const [s] = await db
    .insert(stations)
    .values({ customerId: customer.id, lineId: line.id, name: "OP10" })
    .returning();
  if (!s) throw new Error("no station");
  return { customerId: customer.id, lineId: line.id, stationId: s.id, line };
}

/** `n` records of the station, one every `everyMs` from `from` on. */
const records = (stationId: string, from: Date, n: number, everyMs: number, prefix = "P"): PartRecordRow[] =>
  Array.from({ length: n }, (_, i) => ({
    stationId,
    ts: new Date(from.getTime() + i * everyMs),
    partId: `${prefix}${i}`,
    op: 1,
    modelNumber: "M1",
    numValues: [i, i / 10],
    textValues: ["OK"],
  }));

/** Every record's key and values in one ordered fingerprint per station: equal means all found. */
async function fingerprint(db: Db) {
  return rowsOf<{ station_id: string; n: number; digest: string }>(
    await db.execute(sql`
      select station_id::text, count(*)::int as n,
        md5(string_agg(ts::text || part_id || op || coalesce(model_number, '') || coalesce(num_values::text, '') ||
          coalesce(text_values::text, ''), '|' order by ts, part_id, op)) as digest
      from part_records group by station_id order by station_id`),
  );
}

/** Every evaluation in one ordered fingerprint. */
async function evaluationsFingerprint(db: Db) {
  return rowsOf<{ n: number; digest: string }>(
    await db.execute(sql`
      select count(*)::int as n,
        md5(string_agg(id::text || monitor_id::text || slot::text || state || coalesce(details::text, ''), '|' order by id)) as digest
      from evaluations`),
  )[0];
}

/** Where each row of `table` is stored: partition name → rows. */
async function placement(db: Db, table: "part_records" | "evaluations" = "part_records") {
  const rows = rowsOf<{ partition: string; n: number }>(
    await db.execute(
      sql`select tableoid::regclass::text as partition, count(*)::int as n from ${sql.raw(table)} group by 1 order by 1`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.partition, r.n]));
}

describe("migrations 0016 and 0017 on an installation's part records and evaluations", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it("keeps every record and evaluation, in the legacy partitions, and still refuses a stored key", {
    timeout: 120_000,
  }, async () => {
    const database = await openMigratedTo(BEFORE, cleanup);
    const { db } = database;

    // Stored as the version before stored them: three stations over three months, and one
    // machine whose clock ran years ahead.
    const a = await stationOf(db);
    const b = await stationOf(db, a.customerId);
    const c = await stationOf(db);
    const stored = [
      ...records(a.stationId, new Date("2026-08-30T00:00:00Z"), 3_000, 97_000),
      ...records(b.stationId, new Date("2026-09-15T00:00:00Z"), 2_000, 61_000),
      ...records(c.stationId, new Date("2026-10-01T00:00:00Z"), 1_500, 13_000),
      ...records(c.stationId, new Date("2030-05-10T08:00:00Z"), 3, 1_000, "F"),
    ];
    for (let i = 0; i < stored.length; i += 1_000)
      await db
        .insert(partRecords)
        .values(stored.slice(i, i + 1_000))
        .onConflictDoNothing();
    const was = await fingerprint(db);
    expect(was.reduce((s, r) => s + r.n, 0)).toBe(stored.length);
    // Evaluations of a monitor over the same months, one an alert's evidence.
    const monitor = await createMonitorRow(db, a.line);
    const slots = Array.from({ length: 300 }, (_, i) => new Date(Date.UTC(2026, 7, 30) + i * 6 * 3_600_000));
    const made = [];
    for (const slot of slots)
      made.push(
        await createEvaluation(db, monitor, { state: "OK", slot, details: { score: slot.getTime() } }),
      );
    const [alert] = await db
      .insert(alerts)
      .values({
        customerId: a.customerId,
        lineId: a.lineId,
        monitorId: monitor.id,
        state: "OPEN",
        openedAt: slots[5] as Date,
        lastSeenAt: slots[5] as Date,
        rule: "breach",
      })
      .returning();
    if (!alert) throw new Error("no alert");
    await db
      .insert(alertEvents)
      .values({ alertId: alert.id, at: slots[5] as Date, kind: "OPENED", evaluationId: made[5]?.id });
    const evaluationsWere = await evaluationsFingerprint(db);
    expect(evaluationsWere?.n).toBe(300);

    await database.migrate(MIGRATIONS);

    expect(await fingerprint(db)).toEqual(was);
    expect(await placement(db)).toEqual({ [legacyPartition(PR)]: stored.length });
    expect(await evaluationsFingerprint(db)).toEqual(evaluationsWere);
    expect(await placement(db, "evaluations")).toEqual({ [legacyPartition(EV)]: 300 });
    // The alert's evidence is still found by its id.
    const evidence = rowsOf<{ id: string }>(
      await db.execute(
        sql`select e.id::text from alert_events ae join evaluations e on e.id = ae.evaluation_id`,
      ),
    );
    expect(evidence.map((r) => r.id)).toEqual([made[5]?.id]);
    // A slot stored already is refused (the worker's insert skips it); a new one lands in the default.
    const again = await db
      .insert(evaluations)
      .values({ customerId: a.customerId, monitorId: monitor.id, slot: slots[7] as Date, state: "OK" })
      .onConflictDoNothing({ target: [evaluations.monitorId, evaluations.slot] })
      .returning();
    expect(again).toEqual([]);
    await createEvaluation(db, monitor, { state: "OK", slot: new Date("2031-01-02T00:00:00Z") });
    expect(await placement(db, "evaluations")).toEqual({
      [legacyPartition(EV)]: 300,
      [defaultPartition(EV)]: 1,
    });
    const parts = await partRecordPartitions(db).list();
    const legacy = parts.find((p) => p.name === legacyPartition(PR));
    // From the beginning of time to the month after the newest record (2030-05).
    expect(legacy).toMatchObject({ from: null, isDefault: false });
    expect(legacy?.to?.toISOString()).toBe("2030-06-01T00:00:00.000Z");
    expect(parts.filter((p) => p.isDefault).map((p) => p.name)).toEqual([defaultPartition(PR)]);

    // The idempotency key holds across the new table: a replay stores nothing.
    const repo = createPartRecordsRepo(db);
    expect(await repo.insertRecords(stored.slice(0, 500))).toBe(0);
    expect(
      await repo.insertRecords(records(a.stationId, new Date("2030-07-02T00:00:00Z"), 10, 1_000, "N")),
    ).toBe(10);
    // A month after the legacy range gets a partition of its own, and its records move there.
    const swept = await partRecordPartitions(db).sweepDefault();
    expect(swept).toEqual({ created: ["part_records_p2030_07"], moved: 10 });
    expect(await placement(db)).toEqual({ [legacyPartition(PR)]: stored.length, part_records_p2030_07: 10 });
    // No month inside the legacy range is created.
    expect(
      (await partRecordPartitions(db).ensureMonths(new Date("2026-10-05Z"), new Date("2026-12-05Z"))).created,
    ).toEqual([]);
  });

  it("drops the empty table of a new installation", async () => {
    const database = await openUnmigrated();
    cleanup.push(() => database.close());
    await database.migrate(MIGRATIONS);
    expect((await partRecordPartitions(database.db).list()).map((p) => p.name)).toEqual([
      defaultPartition(PR),
    ]);
    expect((await createPartitions(database.db, EV).list()).map((p) => p.name)).toEqual([
      defaultPartition(EV),
    ]);
  });
});

describe("monthly partitions and retention", () => {
  let database: Database & { url?: string };
  const db = (): Db => database.db;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("creates months ahead, moves a backfill out of the default partition, and drops whole months past every horizon", {
    timeout: 120_000,
  }, async () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const first = await maintainPartitions(db(), now);
    expect(first.created).toEqual([
      "part_records_p2026_11",
      "part_records_p2026_12",
      "part_records_p2027_01",
      "evaluations_p2026_11",
      "evaluations_p2026_12",
      "evaluations_p2027_01",
    ]);
    expect(await maintainPartitions(db(), now)).toEqual({ created: [], moved: 0 });

    const one = await stationOf(db());
    const other = await stationOf(db());
    const repo = createPartRecordsRepo(db());
    // Today's records land in this month; a backfill of August to early November (no partitions
    // for August to October yet) lands in the default partition.
    await repo.insertRecords(records(one.stationId, new Date(now.getTime() - DAY), 400, 60_000));
    await repo.insertRecords(records(one.stationId, new Date("2026-08-20T00:00:00Z"), 2_000, 3_600_000, "B"));
    await repo.insertRecords(records(other.stationId, new Date("2026-10-20T00:00:00Z"), 500, 60_000, "O"));
    const was = await fingerprint(db());
    expect(Object.keys(await placement(db()))).toContain(defaultPartition(PR));

    const swept = await maintainPartitions(db(), now);
    expect(swept.created).toEqual([
      "part_records_p2026_08",
      "part_records_p2026_09",
      "part_records_p2026_10",
    ]);
    // Hourly from 20 August: 288 in August, 720 in September, 744 in October (and 248 in November,
    // stored in its partition already); the other station's 500 in October.
    expect(swept.moved).toBe(288 + 720 + 744 + 500);
    expect(await placement(db())).toEqual({
      part_records_p2026_08: 288,
      part_records_p2026_09: 720,
      part_records_p2026_10: 744 + 500,
      part_records_p2026_11: 248 + 400,
    });
    expect(await fingerprint(db())).toEqual(was);

    // Both customers keep 30 days: August and September end before 29 October and go whole;
    // October's records before the horizon go in batches, the rest stays.
    for (const customerId of [one.customerId, other.customerId])
      await db().insert(retentionSettings).values({
        customerId,
        partRecordsDays: 30,
        evaluationsDays: 90,
        resolvedAlertsDays: 730,
        auditLogDays: null,
      });
    // …but one customer keeping records for ever holds every partition: none is dropped whole

    const keeper = await createCustomer(db());
    await db().insert(retentionSettings).values({
      customerId: keeper.id,
      partRecordsDays: null,
      evaluationsDays: 90,
      resolvedAlertsDays: 730,
      auditLogDays: null,
    });
    // (the first customers' old records go in batches meanwhile).
    const held = await runRetention(db(), now);
    expect(held.partitionsDropped).toBe(0);
    expect(held.partRecords).toBeGreaterThan(288 + 720);
    const kept = (await partRecordPartitions(db()).list()).map((p) => p.name);
    expect(kept).toEqual(expect.arrayContaining(["part_records_p2026_08", "part_records_p2026_09"]));
    // The keeper's own records of September.
    const keeperStation = await stationOf(db(), keeper.id);
    await repo.insertRecords(
      records(keeperStation.stationId, new Date("2026-09-10T00:00:00Z"), 50, 3_600_000, "K"),
    );
    expect((await placement(db())).part_records_p2026_09).toBe(50);

    await db()
      .update(retentionSettings)
      .set({ partRecordsDays: 30 })
      .where(sql`${retentionSettings.customerId} = ${keeper.id}`);
    const cutoff = new Date(now.getTime() - 30 * DAY);
    const expected = await db().execute(
      sql`select count(*)::int as n from part_records where ts < ${cutoff.toISOString()}::timestamptz`,
    );
    const ran = await runRetention(db(), now);
    expect(ran.partitionsDropped).toBe(2);
    expect(rowsOf<{ n: number }>(expected)[0]?.n).toBe(50);
    expect(ran.partRecords).toBe(50);
    const names = (await partRecordPartitions(db()).list()).map((p) => p.name);
    expect(names).not.toContain("part_records_p2026_08");
    expect(names).not.toContain("part_records_p2026_09");
    expect(names).toContain("part_records_p2026_10");
    const left = rowsOf<{ old: number; kept: number }>(
      await db().execute(sql`select count(*) filter (where ts < ${cutoff.toISOString()}::timestamptz)::int as old,
        count(*)::int as kept from part_records`),
    )[0];
    expect(left?.old).toBe(0);
    expect(left?.kept).toBeGreaterThan(400);
    // A second run finds nothing left to do.
    const again = await runRetention(db(), now);
    expect(again.partitionsDropped + again.partRecords).toBe(0);
  });

  it("drops a month of evaluations past every horizon, and keeps a month holding an alert's evidence", {
    timeout: 120_000,
  }, async () => {
    // Every customer here keeps evaluations 90 days (the defaults and the rows above): the horizon
    // is 30 August. May's evaluations go whole; June holds an open alert's evidence and a breach.
    const now = new Date("2026-11-28T12:00:00Z");
    const { line, customerId } = await stationOf(db());
    const monitor = await createMonitorRow(db(), line);
    const hourly = (from: string, n: number) =>
      Array.from({ length: n }, (_, i) => new Date(new Date(from).getTime() + i * 3_600_000));
    const made = [];
    for (const slot of [...hourly("2026-05-10T00:00:00Z", 72), ...hourly("2026-06-10T00:00:00Z", 48)])
      made.push(await createEvaluation(db(), monitor, { state: "OK", slot }));
    const breach = await createEvaluation(db(), monitor, {
      state: "BREACH",
      slot: new Date("2026-06-20T00:00:00Z"),
    });
    for (const slot of hourly("2026-11-20T00:00:00Z", 24))
      await createEvaluation(db(), monitor, { state: "OK", slot });
    const evidence = made[72 + 3];
    if (!evidence) throw new Error("no evaluation");
    const [alert] = await db()
      .insert(alerts)
      .values({
        customerId,
        lineId: line.id,
        monitorId: monitor.id,
        state: "OPEN",
        openedAt: evidence.slot,
        lastSeenAt: now,
        rule: "breach",
      })
      .returning();
    if (!alert) throw new Error("no alert");
    await db()
      .insert(alertEvents)
      .values({ alertId: alert.id, at: evidence.slot, kind: "OPENED", evaluationId: evidence.id });

    const swept = await maintainPartitions(db(), now);
    expect(swept.created).toEqual(["evaluations_p2026_05", "evaluations_p2026_06"]);
    expect(await placement(db(), "evaluations")).toMatchObject({
      evaluations_p2026_05: 72,
      evaluations_p2026_06: 49,
      evaluations_p2026_11: 24,
    });

    const ran = await runRetention(db(), now);
    expect(ran.partitionsDropped).toBe(1);
    expect(ran.evaluations).toBe(72 + 48 - 1);
    const names = (await createPartitions(db(), EV).list()).map((p) => p.name);
    expect(names).not.toContain("evaluations_p2026_05");
    expect(names).toContain("evaluations_p2026_06");
    const left = rowsOf<{ id: string }>(
      await db().execute(
        sql`select id::text from evaluations where monitor_id = ${monitor.id} and slot < '2026-08-30' order by slot`,
      ),
    ).map((r) => r.id);
    expect(left).toEqual([evidence.id, breach.id]);
  });

  // Two connections are needed to race: PostgreSQL only.
  it.skipIf(!process.env.DATABASE_URL)(
    "a record routed to the default partition while its month is attached is refused as transient, and stored when tried again",
    async () => {
      const { stationId } = await stationOf(db());
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        // Another worker attaches May 2031 and holds its transaction open.
        await other.query("begin");
        await other.query("lock table part_records_default in exclusive mode");
        await other.query("create table part_records_p2031_05 (like part_records including defaults)");
        await other.query(
          "alter table part_records attach partition part_records_p2031_05 for values from ('2031-05-01T00:00:00Z') to ('2031-06-01T00:00:00Z')",
        );
        const row = records(stationId, new Date("2031-05-03T00:00:00Z"), 1, 1_000, "RACE");
        const racing = createPartRecordsRepo(db())
          .insertRecords(row)
          .then(
            () => null,
            (err: unknown) => err,
          );
        // The insert waits for the default partition's lock (seen in pg_locks), then the attach commits.
        await eventually(async () => {
          const waiting = await other.query(
            "select count(*)::int as n from pg_locks where relation = 'part_records_default'::regclass and not granted",
          );
          return (waiting.rows[0]?.n ?? 0) > 0;
        });
        await other.query("commit");
        const err = await racing;
        expect(err).not.toBeNull();
        expect(isTransientDbError(err)).toBe(true);
        expect(await createPartRecordsRepo(db()).insertRecords(row)).toBe(1);
        expect((await placement(db())).part_records_p2031_05).toBe(1);
      } finally {
        await other.end();
      }
    },
  );
});
