// Scheduling with a fake clock (worker/schedule + worker.ts tick): due / not due, first slot,
// lease expiry takeover, skipped ticks after a slow evaluation, inactive monitors and lines,
// onEvaluated inside the storing transaction; a batch evaluated together equals each one alone.
import { randomUUID } from "node:crypto";
import { NO_MONITORED_SIGNALS, noDataReasonOf } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, type Db, rowsOf } from "../../src/db/client.js";
import {
  alerts,
  evaluations,
  lines,
  monitors,
  partRecords,
  signals,
  stations,
} from "../../src/db/schema/index.js";
import { createStatsPool } from "../../src/modules/evaluation/stats-pool.js";
import { createOnEvaluated } from "../../src/worker/alerts/apply.js";
import {
  type ClaimedMonitor,
  claimDue,
  completeClaim,
  nextSlotAfter,
} from "../../src/worker/schedule/schedule.js";
import { evaluateClaims, INITIALISE_SLOTS_MS, startWorker } from "../../src/worker/worker.js";
import { createCustomer, createLine, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { eventually } from "../helpers/mqtt.js";

/** One claimed monitor evaluated as the worker evaluates a batch of them. */
async function evaluateClaim(db: Db, claim: ClaimedMonitor) {
  const [result] = await evaluateClaims(db, [claim]);
  if (!result) throw new Error("no result for the claim");
  return result;
}

const MIN = 60_000;
const T0 = new Date(Date.UTC(2026, 10, 22, 8));
let database: Database;
let customerId: string;
let plantId: string;
let lineId: string;
const signalId = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  customerId = (await createCustomer(db)).id;
  plantId = (await createPlant(db, customerId)).id;
  lineId = (await createLine(db, customerId, plantId)).id;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: 1 })
    .returning();
  await db.insert(signals).values({
    id: signalId,
    customerId,
    lineId,
    stationId: st?.id ?? "",
    name: "Torque",
    entityType: "MEASUREMENT",
    storage: "num",
    slot: 0,
  });
  await db.insert(partRecords).values(
    Array.from({ length: 200 }, (_, i) => ({
      stationId: st?.id ?? "",
      ts: new Date(T0.getTime() - (200 - i) * 1000),
      partId: `P-${i}`,
      numValues: [10 + Math.sin(i * 1.7) + Math.cos(i * 0.37)],
    })),
  );
});
afterAll(async () => {
  await database?.close();
});

async function createMonitor(values: Partial<typeof monitors.$inferInsert> = {}) {
  const [m] = await database.db
    .insert(monitors)
    .values({
      customerId,
      plantId,
      lineId,
      name: `M ${randomUUID().slice(0, 8)}`,
      type: "svd",
      active: true,
      frequency: 5,
      filter: { signal_uuids: [signalId], sample_size: 200, evaluation_ratio: 0.25 },
      filterMd5: randomUUID(),
      ...values,
    })
    .returning();
  if (!m) throw new Error("no monitor");
  return m;
}
const slotsOf = async (monitorId: string) =>
  (
    await database.db
      .select({ slot: evaluations.slot, state: evaluations.state, details: evaluations.details })
      .from(evaluations)
      .where(eq(evaluations.monitorId, monitorId))
      .orderBy(evaluations.slot)
  ).map((e) => ({ ...e, slot: e.slot.toISOString() }));
const monitorRow = async (id: string) =>
  (await database.db.select().from(monitors).where(eq(monitors.id, id)))[0];
const clearAll = () => database.db.execute(sql`update monitors set active = false`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("schedule", () => {
  it("nextSlotAfter: the first slot on the grid strictly after now", () => {
    expect(nextSlotAfter(T0, 5 * MIN, T0).getTime()).toBe(T0.getTime() + 5 * MIN);
    expect(nextSlotAfter(T0, 5 * MIN, new Date(T0.getTime() + 4 * MIN)).getTime()).toBe(
      T0.getTime() + 5 * MIN,
    );
    expect(nextSlotAfter(T0, 5 * MIN, new Date(T0.getTime() + 5 * MIN)).getTime()).toBe(
      T0.getTime() + 10 * MIN,
    );
    expect(nextSlotAfter(T0, 5 * MIN, new Date(T0.getTime() + 17 * MIN)).getTime()).toBe(
      T0.getTime() + 20 * MIN,
    );
  });

  it("first slot now, then due every frequency minutes, not before", async () => {
    await clearAll();
    const m = await createMonitor();
    const clock = { now: T0 };
    const seen: string[] = [];
    const w = startWorker({
      db: database.db,
      now: () => clock.now,
      pollMs: 10,
      leaseMs: MIN,
      autoStart: false,
      owner: "w1",
      onEvaluated: async (tx, e) => {
        // Inside the storing transaction: the row is visible there.
        const [row] = await tx.select().from(evaluations).where(eq(evaluations.id, e.id));
        seen.push(`${row?.slot.toISOString()} ${e.state}`);
      },
    });
    expect(await w.tick()).toBe(1);
    expect((await monitorRow(m.id))?.nextRunAt?.getTime()).toBe(T0.getTime() + 5 * MIN);
    clock.now = new Date(T0.getTime() + 4 * MIN);
    expect(await w.tick()).toBe(0);
    clock.now = new Date(T0.getTime() + 5 * MIN);
    expect(await w.tick()).toBe(1);
    const slots = await slotsOf(m.id);
    expect(slots.map((s) => s.slot)).toEqual([
      T0.toISOString(),
      new Date(T0.getTime() + 5 * MIN).toISOString(),
    ]);
    expect(slots[0]?.state).toBe("OK");
    // The window did not change: the second evaluation has nothing new.
    expect(slots[1]?.state).toBe("NO_DATA");
    expect(seen).toEqual([
      `${T0.toISOString()} OK`,
      `${new Date(T0.getTime() + 5 * MIN).toISOString()} NO_DATA`,
    ]);
    const row = await monitorRow(m.id);
    expect(row).toMatchObject({ leaseOwner: null, leaseUntil: null, lastState: "NO_DATA" });
    await w.stop();
  });

  it("a monitor created during a backlog gets its first slot within INITIALISE_SLOTS_MS, and at once when caught up", async () => {
    await clearAll();
    // A backlog: three monitors due at T0, claimed one a poll (every poll a full batch).
    for (let i = 0; i < 3; i++) await createMonitor({ nextRunAt: T0 });
    const clock = { now: T0 };
    const w = startWorker({
      db: database.db,
      now: () => clock.now,
      pollMs: 10,
      leaseMs: MIN,
      batchSize: 1,
      autoStart: false,
      owner: "w-init",
    });
    expect(await w.tick()).toBe(1);
    const late = await createMonitor();
    // Still full batches and less than INITIALISE_SLOTS_MS later: no first slot yet.
    expect(await w.tick()).toBe(1);
    expect((await monitorRow(late.id))?.nextRunAt).toBeNull();
    clock.now = new Date(T0.getTime() + INITIALISE_SLOTS_MS);
    expect(await w.tick()).toBe(1);
    expect((await monitorRow(late.id))?.nextRunAt?.getTime()).toBe(clock.now.getTime());
    expect(await w.tick()).toBe(1);
    expect((await slotsOf(late.id)).map((e) => e.slot)).toEqual([clock.now.toISOString()]);
    // Caught up (the last poll found nothing): a new monitor is given its slot on the next poll.
    expect(await w.tick()).toBe(0);
    const next = await createMonitor();
    expect(await w.tick()).toBe(1);
    expect((await slotsOf(next.id)).map((e) => e.slot)).toEqual([clock.now.toISOString()]);
    await w.stop();
  });

  it("a claimed monitor whose worker died is taken over after the lease expires, once", async () => {
    await clearAll();
    const m = await createMonitor({ nextRunAt: T0 });
    const db = database.db;
    const a = await claimDue(db, { owner: "A", now: T0, leaseMs: 2 * MIN, limit: 10 });
    expect(a.map((c) => c.id)).toEqual([m.id]);
    // Still leased: nobody else gets it.
    expect(
      await claimDue(db, { owner: "B", now: new Date(T0.getTime() + MIN), leaseMs: 2 * MIN, limit: 10 }),
    ).toEqual([]);
    // A "dies"; after the lease B claims the same slot.
    const later = new Date(T0.getTime() + 2 * MIN + 1);
    const b = await claimDue(db, { owner: "B", now: later, leaseMs: 2 * MIN, limit: 10 });
    expect(b.map((c) => [c.id, c.slot.toISOString()])).toEqual([[m.id, T0.toISOString()]]);
    const claimB = b[0];
    const claimA = a[0];
    if (!claimA || !claimB) throw new Error("no claims");
    const rB = await evaluateClaim(db, claimB);
    expect(
      await completeClaim(db, { owner: "B", claim: claimB, result: rB, now: () => later, minuteMs: MIN }),
    ).toMatchObject({
      status: "stored",
    });
    // A wakes up late: its lease is gone, nothing is written twice.
    const rA = await evaluateClaim(db, claimA);
    expect(
      await completeClaim(db, { owner: "A", claim: claimA, result: rA, now: () => later, minuteMs: MIN }),
    ).toEqual({
      status: "lost",
    });
    const slots = await slotsOf(m.id);
    expect(slots).toHaveLength(1);
    expect(slots[0]?.details).toMatchObject({ worker: "B" });
  });

  it("a long evaluation keeps its lease while its worker lives; renewal stops when it ends", async () => {
    await clearAll();
    const db = database.db;
    const m = await createMonitor({ nextRunAt: new Date(Date.now() - MIN) });
    // A lease of 1.5 s, renewed every 500 ms (a stall of a second on a busy machine still renews
    // in time), and an evaluation held until the lease has been renewed past three of its own
    // lengths (released by the test, not after a fixed time).
    const LEASE = 1_500;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let evaluating = false;
    const w = startWorker({
      db,
      pollMs: 10,
      leaseMs: LEASE,
      autoStart: false,
      owner: "long",
      evaluate: async (db, claims) => {
        evaluating = true;
        await held;
        return evaluateClaims(db, claims);
      },
    });
    const tick = w.tick();
    await eventually(async () => evaluating);
    const first = (await monitorRow(m.id))?.leaseUntil?.getTime() ?? 0;
    const takeovers: string[] = [];
    // Until the lease reaches three lease lengths past where it first stood: every look, nobody
    // else can claim it and the long worker still holds it.
    await eventually(async () => {
      const taken = await claimDue(db, { owner: "other", now: new Date(), leaseMs: LEASE, limit: 10 });
      takeovers.push(...taken.map((c) => c.id));
      const row = await monitorRow(m.id);
      expect(row?.leaseOwner).toBe("long");
      return (row?.leaseUntil?.getTime() ?? 0) > first + 3 * LEASE;
    }, 180_000);
    expect(takeovers).toEqual([]);
    release();
    expect(await tick).toBe(1);
    const slots = await slotsOf(m.id);
    expect(slots).toHaveLength(1);
    expect(slots[0]?.details).toMatchObject({ worker: "long" });
    expect(await monitorRow(m.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
    // Done: nothing renews a lease of this worker any more (an absence: three renewal periods).
    const stale = new Date(Date.now() - 1_000);
    await db.update(monitors).set({ leaseOwner: "long", leaseUntil: stale }).where(eq(monitors.id, m.id));
    await sleep(LEASE);
    expect((await monitorRow(m.id))?.leaseUntil?.getTime()).toBe(stale.getTime());
    await w.stop();
  });

  it("an evaluation holding its statistics thread longer than three leases keeps its lease; no other worker takes it", async () => {
    // The statistics thread is held synchronously (stats-test.thread.js: Atomics.wait, as a long
    // computation holds it) until released: the worker's event loop must renew the lease meanwhile.
    await clearAll();
    const db = database.db;
    const m = await createMonitor({ nextRunAt: new Date(Date.now() - MIN) });
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const pool = createStatsPool({
      threads: 1,
      threadFile: new URL("../helpers/stats-test.thread.js", import.meta.url),
      workerData: { flags },
    });
    const LEASE = 1_000;
    const w = startWorker({
      db,
      pollMs: 10,
      leaseMs: LEASE,
      leaseRenewMs: 200,
      autoStart: false,
      owner: "held",
      stats: { pool, cpuBudgetMs: 600_000 },
    });
    const tick = w.tick();
    await vi.waitFor(() => expect(Atomics.load(flags, 0)).toBe(1), { timeout: 30_000 });
    const firstLease = (await monitorRow(m.id))?.leaseUntil?.getTime() as number;
    const takeovers: string[] = [];
    // Until three leases past the first one's end, another worker keeps trying to claim.
    await vi.waitFor(
      async () => {
        const taken = await claimDue(db, { owner: "other", now: new Date(), leaseMs: LEASE, limit: 10 });
        takeovers.push(...taken.map((c) => c.id));
        expect(Date.now()).toBeGreaterThan(firstLease + 3 * LEASE);
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(takeovers).toEqual([]);
    const row = await monitorRow(m.id);
    expect(row?.leaseOwner).toBe("held");
    expect(row?.leaseUntil?.getTime()).toBeGreaterThan(firstLease + 2 * LEASE);
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);
    expect(await tick).toBe(1);
    const slots = await slotsOf(m.id);
    expect(slots).toHaveLength(1);
    expect(slots[0]?.state).toBe("NO_DATA");
    expect(await monitorRow(m.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
    await w.stop();
    await pool.close();
  });

  it("a worker stopped during an evaluation ends it, stores nothing and gives up its lease", async () => {
    await clearAll();
    const db = database.db;
    const m = await createMonitor({ nextRunAt: new Date(Date.now() - MIN) });
    const flags = new Int32Array(new SharedArrayBuffer(8));
    const pool = createStatsPool({
      threads: 1,
      threadFile: new URL("../helpers/stats-test.thread.js", import.meta.url),
      workerData: { flags },
    });
    const w = startWorker({
      db,
      pollMs: 10,
      leaseMs: 60_000,
      autoStart: false,
      owner: "stopping",
      stats: { pool, cpuBudgetMs: 600_000 },
    });
    const tick = w.tick();
    await vi.waitFor(() => expect(Atomics.load(flags, 0)).toBe(1), { timeout: 30_000 });
    expect((await monitorRow(m.id))?.leaseOwner).toBe("stopping");
    // Never released: only the stop can end the held thread.
    await w.stop();
    expect(await tick).toBe(1);
    expect(await slotsOf(m.id)).toEqual([]);
    expect(await monitorRow(m.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
    // Due at once for another worker, for the same slot.
    const taken = await claimDue(db, { owner: "next", now: new Date(), leaseMs: 60_000, limit: 10 });
    expect(taken.map((c) => c.id)).toEqual([m.id]);
    await pool.close();
  });

  it("a worker that stops renewing loses a long evaluation to another, which stores it once", async () => {
    await clearAll();
    const db = database.db;
    const m = await createMonitor({ nextRunAt: new Date(Date.now() - MIN) });
    // Renewal far slower than the lease: as if the worker hung. Its evaluation is held until the
    // other worker has stored the slot.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let evaluating = false;
    const w = startWorker({
      db,
      pollMs: 10,
      leaseMs: 200,
      leaseRenewMs: 60_000,
      autoStart: false,
      owner: "hung",
      evaluate: async (db, claims) => {
        evaluating = true;
        await held;
        return evaluateClaims(db, claims);
      },
    });
    const tick = w.tick();
    await eventually(async () => evaluating);
    // Once the hung worker's lease has run out, another worker claims the monitor.
    const c = await eventually(async () => {
      const [taken] = await claimDue(db, { owner: "other", now: new Date(), leaseMs: 60_000, limit: 10 });
      return taken;
    });
    expect(c.id).toBe(m.id);
    const r = await evaluateClaim(db, c);
    expect(
      await completeClaim(db, { owner: "other", claim: c, result: r, now: () => new Date(), minuteMs: MIN }),
    ).toMatchObject({ status: "stored" });
    release();
    expect(await tick).toBe(1);
    const slots = await slotsOf(m.id);
    expect(slots).toHaveLength(1);
    expect(slots[0]?.details).toMatchObject({ worker: "other" });
    await w.stop();
  });

  it("a batch sharing one window keeps each monitor's own 'nothing new' check; equal to each alone", async () => {
    await clearAll();
    const db = database.db;
    const newest = new Date(T0.getTime() - 1000); // the newest record's time
    const filter = (sample_size: number) => ({
      signal_uuids: [signalId],
      sample_size,
      evaluation_ratio: 0.25,
    });
    const seen = await createMonitor({ nextRunAt: T0, filter: filter(200) });
    const older = await createMonitor({ nextRunAt: T0, filter: filter(120) });
    const first = await createMonitor({ nextRunAt: T0, filter: filter(150) });
    const seenThenError = await createMonitor({ nextRunAt: T0, filter: filter(100) });
    const previous = (monitorId: string, slot: number, lastRecordTs: Date | null, state: "OK" | "ERROR") => ({
      customerId,
      monitorId,
      slot: new Date(T0.getTime() - slot * MIN),
      state,
      lastRecordTs,
    });
    await db
      .insert(evaluations)
      .values([
        previous(seen.id, 10, new Date(T0.getTime() - 100_000), "OK"),
        previous(seen.id, 5, newest, "OK"),
        previous(older.id, 10, newest, "OK"),
        previous(older.id, 5, new Date(T0.getTime() - 5000), "OK"),
        previous(seenThenError.id, 10, newest, "OK"),
        previous(seenThenError.id, 5, null, "ERROR"),
      ]);
    const claims = await claimDue(db, { owner: "A", now: T0, leaseMs: MIN, limit: 10 });
    expect(claims.map((c) => c.id).sort()).toEqual([seen.id, older.id, first.id, seenThenError.id].sort());
    const together = await evaluateClaims(db, claims);
    const alone = [];
    for (const c of claims) alone.push(await evaluateClaim(db, c));
    expect(together).toEqual(alone);
    const byId = new Map(claims.map((c, i) => [c.id, together[i]]));
    for (const id of [seen.id, seenThenError.id]) {
      expect(byId.get(id)).toMatchObject({ state: "NO_DATA", lastRecordTs: newest });
      expect(byId.get(id)?.reason).toMatch(/nothing new since the previous evaluation/);
    }
    for (const id of [older.id, first.id]) {
      expect(byId.get(id)?.lastRecordTs).toEqual(newest);
      expect(["OK", "BREACH"]).toContain(byId.get(id)?.state);
    }
    expect(byId.get(older.id)?.evaluationSize).toBe(30);
    expect(byId.get(first.id)?.evaluationSize).toBe(38);
  });

  it("a frequency changed after the claim schedules the next slot with the new one", async () => {
    await clearAll();
    const m = await createMonitor({ nextRunAt: T0 });
    const db = database.db;
    const [c] = await claimDue(db, { owner: "A", now: T0, leaseMs: 30 * MIN, limit: 10 });
    if (!c) throw new Error("not claimed");
    await db.update(monitors).set({ frequency: 15 }).where(eq(monitors.id, m.id));
    const r = await evaluateClaim(db, c);
    const done = new Date(T0.getTime() + MIN);
    const out = await completeClaim(db, { owner: "A", claim: c, result: r, now: () => done, minuteMs: MIN });
    expect(out).toMatchObject({ status: "stored", nextRunAt: new Date(T0.getTime() + 15 * MIN) });
    expect(await monitorRow(m.id)).toMatchObject({
      nextRunAt: new Date(T0.getTime() + 15 * MIN),
      leaseOwner: null,
      lastEvaluatedAt: done,
      lastState: r.state,
    });
    // Completing the same claim again: the lease is gone, nothing is written.
    expect(
      await completeClaim(db, { owner: "A", claim: c, result: r, now: () => done, minuteMs: MIN }),
    ).toEqual({
      status: "lost",
    });
    expect(await slotsOf(m.id)).toHaveLength(1);
  });

  it("a monitor whose only signal was switched off stores NO_DATA with its reason, and no alert opens", async () => {
    await clearAll();
    const m = await createMonitor({ nextRunAt: T0 });
    const db = database.db;
    await db.update(signals).set({ isSignalActive: false }).where(eq(signals.id, signalId));
    try {
      const [c] = await claimDue(db, { owner: "A", now: T0, leaseMs: 30 * MIN, limit: 10 });
      if (!c) throw new Error("not claimed");
      const r = await evaluateClaim(db, c);
      expect(r).toMatchObject({
        state: "NO_DATA",
        reason: NO_MONITORED_SIGNALS.reason,
        details: { kind: "no_data", code: NO_MONITORED_SIGNALS.code },
        lastRecordTs: null,
        score: null,
      });
      // The worker's alert hook runs in the storing transaction; with no rules every breach fires.
      const out = await completeClaim(db, {
        owner: "A",
        claim: c,
        result: r,
        now: () => T0,
        minuteMs: MIN,
        onEvaluated: createOnEvaluated({ now: () => T0 }),
      });
      expect(out.status).toBe("stored");
      const stored = await slotsOf(m.id);
      expect(stored.map((e) => e.state)).toEqual(["NO_DATA"]);
      expect(noDataReasonOf(stored[0]?.details)).toBe(NO_MONITORED_SIGNALS.reason);
      expect(await db.select().from(alerts).where(eq(alerts.monitorId, m.id))).toEqual([]);
    } finally {
      await db.update(signals).set({ isSignalActive: true }).where(eq(signals.id, signalId));
    }
  });

  it("a slow evaluation skips ticks instead of piling them up", async () => {
    await clearAll();
    const m = await createMonitor({ nextRunAt: T0 });
    const db = database.db;
    const [c] = await claimDue(db, { owner: "A", now: T0, leaseMs: 30 * MIN, limit: 10 });
    if (!c) throw new Error("not claimed");
    const r = await evaluateClaim(db, c);
    const done = new Date(T0.getTime() + 17 * MIN);
    const out = await completeClaim(db, { owner: "A", claim: c, result: r, now: () => done, minuteMs: MIN });
    expect(out).toMatchObject({ status: "stored", nextRunAt: new Date(T0.getTime() + 20 * MIN) });
    // At 17 min nothing is due; the 5, 10 and 15 minute slots were skipped.
    expect(await claimDue(db, { owner: "A", now: done, leaseMs: MIN, limit: 10 })).toEqual([]);
    expect((await slotsOf(m.id)).map((s) => s.slot)).toEqual([T0.toISOString()]);
  });

  it("inactive monitors and monitors of inactive lines are not claimed (next_run_at left as is)", async () => {
    await clearAll();
    const inactive = await createMonitor({ active: false, nextRunAt: T0 });
    const otherLine = await createLine(database.db, customerId, plantId, { active: false });
    const onInactiveLine = await createMonitor({ lineId: otherLine.id, nextRunAt: T0 });
    const claimed = await claimDue(database.db, {
      owner: "A",
      now: new Date(T0.getTime() + 60 * MIN),
      leaseMs: MIN,
      limit: 10,
    });
    expect(claimed).toEqual([]);
    expect((await monitorRow(inactive.id))?.nextRunAt?.getTime()).toBe(T0.getTime());
    expect((await monitorRow(onInactiveLine.id))?.nextRunAt?.getTime()).toBe(T0.getTime());
    await database.db.update(lines).set({ active: true }).where(eq(lines.id, otherLine.id));
    const now = new Date(T0.getTime() + 60 * MIN);
    const again = await claimDue(database.db, { owner: "A", now, leaseMs: MIN, limit: 10 });
    expect(again.map((c) => c.id)).toEqual([onInactiveLine.id]);
  });

  it("an onEvaluated failure rolls the evaluation back; the slot is retried after the lease", async () => {
    await clearAll();
    const m = await createMonitor({ nextRunAt: T0 });
    const clock = { now: T0 };
    let fail = true;
    const w = startWorker({
      db: database.db,
      now: () => clock.now,
      pollMs: 10,
      leaseMs: MIN,
      autoStart: false,
      owner: "w2",
      onEvaluated: async () => {
        if (fail) throw new Error("alert rules failed");
      },
    });
    expect(await w.tick()).toBe(1);
    expect(await slotsOf(m.id)).toEqual([]);
    fail = false;
    clock.now = new Date(T0.getTime() + 30_000);
    expect(await w.tick()).toBe(0);
    clock.now = new Date(T0.getTime() + MIN + 1);
    expect(await w.tick()).toBe(1);
    expect((await slotsOf(m.id)).map((s) => s.slot)).toEqual([T0.toISOString()]);
    const rows = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from evaluations where monitor_id = ${m.id}`),
    );
    expect(rows[0]?.n).toBe(1);
    await w.stop();
  });
});
