// Data retention's run (issue 31 §2; docs/decisions/0301-retention-per-customer.md) on a real
// database: PGlite, or PostgreSQL with DATABASE_URL. The slowest batch and the sizes are logged
// (the measurement the decision records), not asserted.
import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Db, rowsOf } from "../../src/db/client.js";
import {
  alertEvents,
  alerts,
  auditLog,
  evaluations,
  notificationAttempts,
  notificationOutbox,
  partRecordCounts,
  partRecords,
  retentionSettings,
  stations,
} from "../../src/db/schema/index.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startHousekeeping } from "../../src/modules/housekeeping/housekeeping.service.js";
import {
  createPartRecordsRepo,
  type PartRecordRow,
} from "../../src/modules/part-records/part-records.repo.js";
import { type RetentionCounts, runRetention } from "../../src/modules/retention/retention.service.js";
import { createCustomer, createEvaluation, createLine, createMonitorRow, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { eventually } from "../helpers/mqtt.js";

let database: Database;
const db = (): Db => database.db;
const NOW = new Date("2026-11-25T12:00:00Z");
const DAY = 86_400_000;
const daysAgo = (d: number, plusMs = 0) => new Date(NOW.getTime() - d * DAY + plusMs);
const isPglite = () => database.kind === "pglite";

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const log = (what: string, c: RetentionCounts) =>
  console.info(`retention ${what} (${database.kind}): ${JSON.stringify(c)}`);

async function station(customerId: string) {
  const plant = await createPlant(db(), customerId);
  const line = await createLine(db(), customerId, plant.id);
  const [s] = await db().insert(stations).values({ customerId, lineId: line.id, name: "OP10" }).returning();
  if (!s) throw new Error("no station");
  return { plant, line, station: s };
}

/** `n` records of the station, one a second back from `from`, with `width` values each. */
const records = (stationId: string, from: Date, n: number, width = 8): PartRecordRow[] =>
  Array.from({ length: n }, (_, i) => ({
    stationId,
    ts: new Date(from.getTime() - i * 1_000),
    partId: `P${i}`,
    op: 1,
    modelNumber: "M1",
    numValues: Array.from({ length: width }, (_, k) => i + k / 10),
    textValues: ["OK"],
  }));

async function setRetention(
  customerId: string,
  days: Omit<typeof retentionSettings.$inferInsert, "customerId">,
) {
  await db()
    .insert(retentionSettings)
    .values({ customerId, ...days });
}

/**
 * A customer's year of data: part records, monitors with evaluations, an open alert with its
 * evidence and a notification, a resolved alert inside the alerts' horizon and one past it, a silent
 * line's alert acknowledged long ago, and audit records. Ages are in days before NOW; the horizons
 * the test sets are 30 (part records), 10 (evaluations), 60 (resolved alerts), 365 (audit log).
 */
async function yearOfData(customerId: string) {
  const { line, station: s } = await station(customerId);
  await createPartRecordsRepo(db()).insertRecords([
    ...records(s.id, daysAgo(40), 2_500),
    ...records(s.id, daysAgo(1), 300),
  ]);
  const eval_ = (monitor: { id: string; customerId: string }, state: "OK" | "BREACH", days: number, i = 0) =>
    createEvaluation(db(), monitor, {
      state,
      slot: daysAgo(days, i * 60_000),
      details: { pad: "x".repeat(2_000) },
    });

  // M1: an alert open for 30 days; its opening and a later firing are its evidence.
  const m1 = await createMonitorRow(db(), line);
  const opened = await eval_(m1, "BREACH", 30);
  const fired = await eval_(m1, "BREACH", 25);
  const m1Breach = await eval_(m1, "BREACH", 28);
  for (let i = 0; i < 20; i++) await eval_(m1, "OK", 20, i);
  const m1New = await eval_(m1, "OK", 1);
  const [open] = await db()
    .insert(alerts)
    .values({
      customerId,
      lineId: line.id,
      monitorId: m1.id,
      state: "OPEN",
      openedAt: daysAgo(30),
      lastSeenAt: daysAgo(25),
      rule: "breach",
    })
    .returning();
  if (!open) throw new Error("no alert");
  await db()
    .insert(alertEvents)
    .values([
      { alertId: open.id, at: daysAgo(30), kind: "OPENED", evaluationId: opened.id },
      { alertId: open.id, at: daysAgo(25), kind: "FIRED", evaluationId: fired.id },
    ]);
  const [openOutbox] = await db()
    .insert(notificationOutbox)
    .values({ customerId, alertId: open.id, channel: "teams", state: "DELIVERED", createdAt: daysAgo(30) })
    .returning();
  if (!openOutbox) throw new Error("no outbox");
  await db()
    .insert(notificationAttempts)
    .values({ outboxId: openOutbox.id, at: daysAgo(30), httpStatus: 200 });

  // M2: no alert ever; old breaches and old OKs alike go with the evaluations' horizon.
  const m2 = await createMonitorRow(db(), line);
  for (let i = 0; i < 30; i++) await eval_(m2, i % 6 === 0 ? "BREACH" : "OK", 20, i);
  const m2New = await eval_(m2, "BREACH", 2);

  // M3: an alert resolved 40 days ago (inside the 60-day horizon): its evidence and the breaches up
  // to its resolution stay; a breach after it, with no alert since, goes.
  const m3 = await createMonitorRow(db(), line);
  const r1Open = await eval_(m3, "BREACH", 50);
  const r1Breach = await eval_(m3, "BREACH", 45);
  const r1Resolved = await eval_(m3, "OK", 40);
  await eval_(m3, "OK", 45, 1);
  await eval_(m3, "BREACH", 35);
  const [r1] = await db()
    .insert(alerts)
    .values({
      customerId,
      lineId: line.id,
      monitorId: m3.id,
      state: "RESOLVED",
      openedAt: daysAgo(50),
      lastSeenAt: daysAgo(45),
      resolvedAt: daysAgo(40),
      rule: "breach",
    })
    .returning();
  if (!r1) throw new Error("no alert");
  await db()
    .insert(alertEvents)
    .values([
      { alertId: r1.id, at: daysAgo(50), kind: "OPENED", evaluationId: r1Open.id },
      { alertId: r1.id, at: daysAgo(40), kind: "AUTO_RESOLVED", evaluationId: r1Resolved.id },
    ]);

  // M4: an alert resolved 90 days ago (past the horizon): it goes with its events, notifications
  // and delivery attempts, and its evidence with it.
  const m4 = await createMonitorRow(db(), line);
  const r2Open = await eval_(m4, "BREACH", 95);
  const [r2] = await db()
    .insert(alerts)
    .values({
      customerId,
      lineId: line.id,
      monitorId: m4.id,
      state: "RESOLVED",
      openedAt: daysAgo(95),
      lastSeenAt: daysAgo(95),
      resolvedAt: daysAgo(90),
      rule: "breach",
    })
    .returning();
  if (!r2) throw new Error("no alert");
  await db()
    .insert(alertEvents)
    .values([
      { alertId: r2.id, at: daysAgo(95), kind: "OPENED", evaluationId: r2Open.id },
      { alertId: r2.id, at: daysAgo(94), kind: "COMMENTED", comment: "looked at it" },
      { alertId: r2.id, at: daysAgo(90), kind: "RESOLVED" },
    ]);
  const r2Outbox = await db()
    .insert(notificationOutbox)
    .values([
      { customerId, alertId: r2.id, channel: "teams", state: "DELIVERED", createdAt: daysAgo(95) },
      { customerId, alertId: r2.id, channel: "etq", state: "FAILED", createdAt: daysAgo(95) },
    ])
    .returning();
  await db()
    .insert(notificationAttempts)
    .values(
      r2Outbox.flatMap((o) => [
        { outboxId: o.id, at: daysAgo(95) },
        { outboxId: o.id, at: daysAgo(94) },
      ]),
    );

  // A silent line's alert, acknowledged 400 days ago and still not resolved: never due.
  const [silent] = await db()
    .insert(alerts)
    .values({
      customerId,
      lineId: line.id,
      kind: "no_data",
      state: "ACKNOWLEDGED",
      openedAt: daysAgo(400),
      lastSeenAt: daysAgo(1),
      rule: "no_data",
    })
    .returning();
  if (!silent) throw new Error("no alert");

  const audit = (days: number) => ({
    customerId,
    at: daysAgo(days),
    actorUserId: null,
    actorEmail: "admin@example.test",
    actorIsProviderStaff: false,
    resource: "line" as const,
    resourceId: randomUUID(),
    resourceName: "Line",
    action: "update" as const,
  });
  await db()
    .insert(auditLog)
    .values([audit(400), audit(500), audit(10)]);

  return {
    stationId: s.id,
    monitors: [m1.id, m2.id, m3.id, m4.id],
    kept: [opened, fired, m1Breach, m1New, m2New, r1Open, r1Breach, r1Resolved].map((e) => e.id),
    gone: r2Open.id,
    openId: open.id,
    openOutboxId: openOutbox.id,
    r1Id: r1.id,
    r2Id: r2.id,
    silentId: silent.id,
  };
}

/** What the lines' quarter-hour counts hold for the customer's records. */
async function countedRecords(customerId: string): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`coalesce(sum(${partRecordCounts.records}), 0)::int` })
    .from(partRecordCounts)
    .where(eq(partRecordCounts.customerId, customerId));
  return Number(row?.n ?? 0);
}

async function state(customerId: string, d: Awaited<ReturnType<typeof yearOfData>>) {
  const count = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
  const n = sql<number>`count(*)::int`;
  return {
    oldRecords: await count(
      db()
        .select({ n })
        .from(partRecords)
        .where(
          sql`${partRecords.stationId} = ${d.stationId} and ${partRecords.ts} < ${daysAgo(30).toISOString()}`,
        ),
    ),
    newRecords: await count(
      db()
        .select({ n })
        .from(partRecords)
        .where(
          sql`${partRecords.stationId} = ${d.stationId} and ${partRecords.ts} >= ${daysAgo(30).toISOString()}`,
        ),
    ),
    evaluations: (
      await db()
        .select({ id: evaluations.id })
        .from(evaluations)
        .where(inArray(evaluations.monitorId, d.monitors))
    ).map((e) => e.id),
    alerts: (await db().select({ id: alerts.id }).from(alerts).where(eq(alerts.customerId, customerId)))
      .map((a) => a.id)
      .sort(),
    events: await count(
      db()
        .select({ n })
        .from(alertEvents)
        .where(inArray(alertEvents.alertId, [d.openId, d.r1Id, d.r2Id])),
    ),
    outbox: await count(
      db().select({ n }).from(notificationOutbox).where(eq(notificationOutbox.customerId, customerId)),
    ),
    attempts: await count(
      db()
        .select({ n })
        .from(notificationAttempts)
        .innerJoin(notificationOutbox, eq(notificationOutbox.id, notificationAttempts.outboxId))
        .where(eq(notificationOutbox.customerId, customerId)),
    ),
    audit: await count(db().select({ n }).from(auditLog).where(eq(auditLog.customerId, customerId))),
  };
}

describe("data retention run", () => {
  it("removes what is past each horizon, keeps the newer rows, every open alert's evidence and another customer's data", async () => {
    const a = await createCustomer(db());
    const b = await createCustomer(db());
    await setRetention(a.id, {
      partRecordsDays: 30,
      evaluationsDays: 10,
      resolvedAlertsDays: 60,
      auditLogDays: 365,
    });
    // Another customer keeps everything for ever: the same rows must all stay.
    await setRetention(b.id, {
      partRecordsDays: null,
      evaluationsDays: null,
      resolvedAlertsDays: null,
      auditLogDays: null,
    });
    const da = await yearOfData(a.id);
    const db_ = await yearOfData(b.id);
    const bBefore = await state(b.id, db_);

    const counts = await runRetention(db(), NOW, { vacuum: isPglite() });
    log("run", counts);
    expect(counts).toMatchObject({
      partRecords: 2_500,
      // M1's 20 OKs, M2's 30, M3's OK and late breach, M4's evidence once its alert went.
      evaluations: 20 + 30 + 2 + 1,
      alerts: 1,
      alertEvents: 3,
      notifications: 2,
      notificationAttempts: 4,
      auditLog: 2,
    });
    expect(counts.batches).toBeGreaterThan(3);

    const after = await state(a.id, da);
    expect(after.oldRecords).toBe(0);
    expect(after.newRecords).toBe(300);
    // The lines' quarter-hour counts of the records that went go with them (the overview's counts).
    expect(counts.partRecordCounts).toBeGreaterThan(0);
    expect(await countedRecords(a.id)).toBe(300);
    expect(await countedRecords(b.id)).toBe(2_800);
    expect(after.evaluations).toEqual(expect.arrayContaining(da.kept));
    expect(after.evaluations).toHaveLength(da.kept.length);
    expect(after.evaluations).not.toContain(da.gone);
    expect(after.alerts).toEqual([da.openId, da.r1Id, da.silentId].sort());
    expect(after.events).toBe(4);
    expect(after.outbox).toBe(1);
    expect(after.attempts).toBe(1);
    expect(after.audit).toBe(1);

    expect(await state(b.id, db_)).toEqual(bBefore);
    expect(bBefore.oldRecords).toBe(2_500);

    // Nothing more to do a second time.
    expect(await runRetention(db(), NOW)).toMatchObject({
      partRecords: 0,
      evaluations: 0,
      alerts: 0,
      alertEvents: 0,
      notifications: 0,
      notificationAttempts: 0,
      auditLog: 0,
    });
  });

  it("keeps a customer without settings to the defaults: records 400 days, evaluations 90, resolved alerts 2 years, the audit log for ever", async () => {
    const c = await createCustomer(db());
    const { line, station: s } = await station(c.id);
    await createPartRecordsRepo(db()).insertRecords([
      ...records(s.id, daysAgo(401), 10),
      ...records(s.id, daysAgo(399), 10),
    ]);
    const m = await createMonitorRow(db(), line);
    await createEvaluation(db(), m, { state: "OK", slot: daysAgo(91) });
    const kept = await createEvaluation(db(), m, { state: "OK", slot: daysAgo(89) });
    await db()
      .insert(auditLog)
      .values({
        customerId: c.id,
        at: daysAgo(3_000),
        actorUserId: null,
        actorEmail: "admin@example.test",
        actorIsProviderStaff: false,
        resource: "line",
        resourceId: randomUUID(),
        resourceName: "Line",
        action: "update",
      });
    await runRetention(db(), NOW);
    const left = await db()
      .select({ ts: partRecords.ts })
      .from(partRecords)
      .where(eq(partRecords.stationId, s.id));
    expect(left).toHaveLength(10);
    expect(left.every((r) => r.ts > daysAgo(400))).toBe(true);
    expect(
      (
        await db().select({ id: evaluations.id }).from(evaluations).where(eq(evaluations.monitorId, m.id))
      ).map((e) => e.id),
    ).toEqual([kept.id]);
    expect(
      await db().select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.customerId, c.id)),
    ).toHaveLength(1);
  });

  it("reclaims the deleted records' space: after VACUUM as many records again fit without the table growing", async () => {
    const c = await createCustomer(db());
    await setRetention(c.id, {
      partRecordsDays: 7,
      evaluationsDays: null,
      resolvedAlertsDays: null,
      auditLogDays: null,
    });
    const { station: s } = await station(c.id);
    const repo = createPartRecordsRepo(db());
    const N = 20_000;
    await repo.insertRecords(records(s.id, daysAgo(30), N, 16));
    // Newer records after them, so the freed pages are not the table's last (VACUUM would cut those).
    await repo.insertRecords(records(s.id, daysAgo(1), 500, 16));
    const heap = async () =>
      Number(
        rowsOf<{ n: string }>(await db().execute(sql`select pg_relation_size('part_records')::text as n`))[0]
          ?.n,
      );
    const full = await heap();

    // On PGlite the run vacuums (it has no autovacuum); on PostgreSQL autovacuum would, in its own
    // time: the test asks for it at once.
    const counts = await runRetention(db(), NOW, { vacuum: isPglite() });
    log("space", counts);
    expect(counts.partRecords).toBe(N);
    if (!isPglite()) await db().execute(sql`vacuum part_records`);
    const vacuumed = await heap();

    await repo.insertRecords(records(s.id, NOW, N, 16));
    const refilled = await heap();
    console.info(
      `retention space (${database.kind}): part_records heap ${full} bytes with ${N} old records, ${vacuumed} after the run and VACUUM, ${refilled} after ${N} new records`,
    );
    expect(refilled).toBeLessThanOrEqual(vacuumed);
  });

  it("runs from housekeeping and stops cleanly", async () => {
    const c = await createCustomer(db());
    await setRetention(c.id, {
      partRecordsDays: 7,
      evaluationsDays: null,
      resolvedAlertsDays: null,
      auditLogDays: null,
    });
    const { station: s } = await station(c.id);
    await createPartRecordsRepo(db()).insertRecords(records(s.id, daysAgo(8), 50));
    const hk = startHousekeeping({ db: db(), logger: silentLogger, now: () => NOW, vacuum: isPglite() });
    await eventually(async () => {
      const rows = await db()
        .select({ ts: partRecords.ts })
        .from(partRecords)
        .where(eq(partRecords.stationId, s.id));
      return rows.length === 0;
    });
    await hk.stop();
  });

  it("lets two runs work at once: each row goes once, and together they remove everything due", async () => {
    // What earlier tests left due (a housekeeping run stopped between batches) goes first, so
    // the two runs' counts are this test's rows alone.
    await runRetention(db(), NOW);
    const c = await createCustomer(db());
    await setRetention(c.id, {
      partRecordsDays: 7,
      evaluationsDays: 7,
      resolvedAlertsDays: null,
      auditLogDays: null,
    });
    const { line, station: s } = await station(c.id);
    await createPartRecordsRepo(db()).insertRecords(records(s.id, daysAgo(10), 6_000));
    const m = await createMonitorRow(db(), line);
    for (let i = 0; i < 40; i++)
      await createEvaluation(db(), m, { state: "OK", slot: daysAgo(10, i * 60_000) });
    const [one, two] = await Promise.all([runRetention(db(), NOW), runRetention(db(), NOW)]);
    if (!one || !two) throw new Error("no counts");
    expect(one.partRecords + two.partRecords).toBe(6_000);
    expect(one.evaluations + two.evaluations).toBe(40);
    expect(
      await db().select({ ts: partRecords.ts }).from(partRecords).where(eq(partRecords.stationId, s.id)),
    ).toEqual([]);
  });
});
