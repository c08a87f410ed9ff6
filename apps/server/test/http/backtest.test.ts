// POST /api/monitors/backtest (issue #18 §1): a monitor replayed over a period by the worker's code;
// stores nothing; any signed-in user; another customer's monitor, line or customer is a 404.
import { randomUUID } from "node:crypto";
import { type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { BACKTEST_MESSAGES, BACKTEST_STREAM_TYPE, ZBacktestStreamLine } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import {
  createStatsPool,
  StatsBudgetError,
  StatsCancelledError,
  type StatsPool,
} from "../../src/modules/evaluation/stats-pool.js";
import { packWindow } from "../../src/modules/evaluation/window.pack.js";
import { createMonitorRow, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let other: Awaited<ReturnType<typeof createTenant>>;
const torque = randomUUID();
const angle = randomUUID();
const foreign = randomUUID();
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 20, 6);
/** One record a minute for 10 hours; from record 480 on the values are shifted by 3. */
const RECORDS = 600;
const SHIFT_FROM = 480;
const at = (minute: number) => new Date(T0 + minute * MINUTE).toISOString();

async function lineWithSignals(customerId: string, lineId: string, ids: string[]) {
  const db = t.database.db;
  const [st] = await db
    .insert(stations)
    .values({ customerId, lineId, name: "OP10", nextNumSlot: ids.length })
    .returning();
  await db.insert(signals).values(
    ids.map((id, slot) => ({
      id,
      customerId,
      lineId,
      stationId: st?.id ?? "",
      name: `S${slot}`,
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      slot,
    })),
  );
  await db.insert(partRecords).values(
    Array.from({ length: RECORDS }, (_, i) => ({
      stationId: st?.id ?? "",
      ts: new Date(T0 + i * MINUTE),
      partId: `P-${i}`,
      modelNumber: "M-1",
      numValues: ids.map((_, k) => 10 + Math.sin(i * 1.3 + k) + (i >= SHIFT_FROM ? 3 : 0)),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  other = await createTenant(t.app, t.database.db);
  await lineWithSignals(tenant.customer.id, tenant.line.id, [torque, angle]);
  await lineWithSignals(other.customer.id, other.line.id, [foreign]);
});
afterAll(() => closeTestApp(t));

const task = (details: Record<string, unknown> = {}) => ({
  task_name: "Torque drift",
  task_type: "svd",
  active: true,
  frequency: 15,
  task_details: {
    cust_uuid: tenant.customer.id,
    plant_uuid: tenant.plant.id,
    line_uuid: tenant.line.id,
    signal_uuids: [torque],
    sample_size: 100,
    evaluation_ratio: 0.25,
    ...details,
  },
});
/** (T0 + 100 min, T0 + 595 min]: 33 slots 15 minutes apart, ending at record 595. */
const period = { from: at(100), to: at(595) };
const post = (payload: unknown, headers = tenant.userHeaders) =>
  t.app.inject({ method: "POST", url: "/api/monitors/backtest", headers, payload: payload as object });
const evaluationCount = async () =>
  rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from evaluations`))[0]?.n;

describe("POST /api/monitors/backtest", () => {
  it("needs a session", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/monitors/backtest",
      payload: { task: task(), period },
    });
    expect(res.statusCode).toBe(401);
  });

  it("replays a monitor's settings at its frequency: OK before the shift, breaches and one alert after; stores nothing", async () => {
    const res = await post({ task: task(), period });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b.slots).toHaveLength(33);
    expect(b.slots[0].slot).toBe(at(115));
    expect(b.slots.at(-1).slot).toBe(at(595));
    // The period's 495 records and the window (100) before it.
    expect(b.records).toBe(595);
    const before = b.slots.filter((s: { slot: string }) => s.slot < at(SHIFT_FROM));
    const breaches = b.slots.filter((s: { state: string }) => s.state === "BREACH");
    expect(before.every((s: { state: string }) => s.state === "OK")).toBe(true);
    expect(breaches.length).toBeGreaterThan(0);
    expect(b.summary).toEqual({ evaluations: 33, breaches: breaches.length, alerts_opened: b.alerts.length });
    // No rule: the first breach opens the alert, the next counts on it, and the third OK in a row
    // after the last breach resolves it.
    const lastBreach = b.slots.findIndex((s: { slot: string }) => s.slot === breaches.at(-1).slot);
    expect(b.alerts).toHaveLength(1);
    expect(b.alerts[0]).toMatchObject({
      opened_at: breaches[0].slot,
      last_seen_at: breaches.at(-1).slot,
      resolved_at: b.slots[lastBreach + 3].slot,
      rule: "breach",
      count: breaches.length,
    });
    expect(b.slots.map((s: { alert: string }) => s.alert).filter((a: string) => a !== "none")).toEqual([
      "opened",
      ...breaches.slice(1).map(() => "fired"),
      "clean",
      "clean",
      "auto-resolved",
    ]);
    expect(await evaluationCount()).toBe(0);
    expect(BACKTEST_MESSAGES.summary(1, 7, 2, 10)).toBe(
      "would have opened 1 alert in the last 7 days (2 breaching evaluations of 10)",
    );
  });

  it("gives each slot the evaluation the preview gives for the newest sample_size records up to it", async () => {
    const b = (await post({ task: task(), period })).json();
    for (const s of [b.slots[3], b.slots.at(-1)]) {
      const preview = await t.app.inject({
        method: "POST",
        url: "/api/monitors/preview",
        headers: tenant.userHeaders,
        payload: {
          type: "svd",
          line_id: tenant.line.id,
          alert_threshold: "medium",
          filter: { signal_uuids: [torque], sample_size: 100, evaluation_ratio: 0.25 },
          period: { from: null, to: s.slot, records: 100, anchor: "end" },
        },
      });
      expect(preview.json().evaluation).toMatchObject({
        state: s.state,
        score: s.score,
        threshold: s.threshold,
      });
    }
  });

  it("covers `days` days before the period's end when no start is given", async () => {
    const b = (await post({ task: task(), period: { to: at(595), days: 1 } })).json();
    expect(b.from).toBe(at(595 - 24 * 60));
    expect(b.slots).toHaveLength(96);
  });

  it("applies the form's rules: Consecutive 2 opens the alert at the second breach in a row", async () => {
    const rules = [{ active: true, type: "Consecutive", details: { breaches: 2 } }];
    const b = (await post({ task: task(), rules, period })).json();
    const breaches = b.slots.filter((s: { state: string }) => s.state === "BREACH");
    expect(b.alerts).toHaveLength(1);
    expect(breaches.length).toBeGreaterThanOrEqual(2);
    expect(b.alerts[0]).toMatchObject({ opened_at: breaches[1].slot, rule: "Consecutive" });
    const never = [{ active: true, type: "Consecutive", details: { breaches: breaches.length + 1 } }];
    expect((await post({ task: task(), rules: never, period })).json().alerts).toEqual([]);
  });

  it("backtests a saved monitor with its stored rules on its own grid", async () => {
    const monitor = await createMonitorRow(t.database.db, tenant.line, {
      type: "mvd",
      frequency: 30,
      alertThreshold: "medium",
      filter: {
        signal_uuids: [torque, angle],
        signal_group_uuids: [],
        sample_size: 100,
        evaluation_ratio: 0.3,
      },
      // Its grid: every 30 minutes from T0 + 10 min.
      nextRunAt: new Date(T0 + 10 * MINUTE),
    });
    const res = await post({ monitor_uuid: monitor.id, period });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b.frequency).toBe(30);
    expect(b.to).toBe(at(580));
    expect(b.slots.at(-1).slot).toBe(at(580));
    expect(b.slots.every((s: { state: string }) => s.state === "OK" || s.state === "BREACH")).toBe(true);
    expect(b.summary.alerts_opened).toBeGreaterThan(0);
  });

  it("refuses a period longer than 31 days, one that ends before it starts, and a body with neither or both", async () => {
    const long = await post({ task: task(), period: { from: at(0), to: at(32 * 24 * 60) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(BACKTEST_MESSAGES.periodTooLong);
    const reversed = await post({ task: task(), period: { from: at(10), to: at(5) } });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe(BACKTEST_MESSAGES.periodOrder);
    expect((await post({ task: task(), period: { days: 32 } })).statusCode).toBe(400);
    expect((await post({ period })).statusCode).toBe(400);
    expect((await post({ task: task(), monitor_uuid: randomUUID(), period })).statusCode).toBe(400);
  });

  it("answers 404 for another customer's monitor, line, signal or customer", async () => {
    const theirs = await createMonitorRow(t.database.db, other.line, {
      type: "svd",
      filter: { signal_uuids: [foreign], signal_group_uuids: [], sample_size: 100, evaluation_ratio: 0.25 },
    });
    expect((await post({ monitor_uuid: theirs.id, period })).statusCode).toBe(404);
    expect((await post({ monitor_uuid: randomUUID(), period })).statusCode).toBe(404);
    const line = await post({
      task: task({ plant_uuid: other.plant.id, line_uuid: other.line.id, signal_uuids: [foreign] }),
      period,
    });
    expect(line.statusCode).toBe(404);
    expect((await post({ task: task({ signal_uuids: [foreign] }), period })).statusCode).toBe(404);
    expect((await post({ task: task({ cust_uuid: other.customer.id }), period })).statusCode).toBe(404);
  });
});

describe("POST /api/monitors/backtest streamed (Accept: application/x-ndjson)", () => {
  const stream = (payload: unknown, headers = tenant.userHeaders) =>
    t.app.inject({
      method: "POST",
      url: "/api/monitors/backtest",
      headers: { ...headers, accept: BACKTEST_STREAM_TYPE },
      payload: payload as object,
    });
  const linesOf = (body: string) =>
    body
      .split("\n")
      .filter(Boolean)
      .map((l) => ZBacktestStreamLine.parse(JSON.parse(l)));

  it("sends progress from the first slot to the last, then the plain answer's backtest", async () => {
    const plain = (await post({ task: task(), period })).json();
    const res = await stream({ task: task(), period });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain(BACKTEST_STREAM_TYPE);
    expect(res.headers["cache-control"]).toBe("no-store");
    const lines = linesOf(res.body);
    const progress = lines.filter((l) => l.type === "progress");
    expect(progress[0]).toEqual({ type: "progress", done: 0, total: 33, at: null });
    expect(progress.at(-1)).toEqual({ type: "progress", done: 33, total: 33, at: at(595) });
    expect(lines.at(-1)).toEqual({ type: "result", backtest: plain });
    expect(lines.filter((l) => l.type !== "progress")).toHaveLength(1);
  });

  it("answers a failure found before the replay with its status, as without the header", async () => {
    const foreignTask = task({ cust_uuid: other.customer.id });
    const res = await stream({ task: foreignTask, period });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/json");
    const tooLong = await stream({ task: task(), period: { from: at(0), to: at(60 * 24 * 32) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ message: BACKTEST_MESSAGES.periodTooLong });
  });
});

describe("a backtest whose client goes away, or that uses up its budget", () => {
  // The statistics thread reports the replay's start, then spins until it is stopped
  // (stats-test.thread.js); the pool is watched for how each task ended.
  const outcomes: unknown[] = [];
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const pool = createStatsPool({
    threads: 1,
    threadFile: new URL("../helpers/stats-test.thread.js", import.meta.url),
    workerData: { flags },
  });
  const watched: StatsPool = {
    get threads() {
      return pool.threads;
    },
    close: () => pool.close(),
    ready: () => pool.ready(),
    run: (...args) =>
      pool.run(...args).then(
        (v) => {
          outcomes.push("done");
          return v;
        },
        (err) => {
          outcomes.push(err);
          throw err;
        },
      ),
  };
  let budgeted: TestContext;
  let unbounded: TestContext;
  beforeAll(async () => {
    budgeted = await createTestApp({ database: t.database, stats: { pool: watched, backtestCpuMs: 1_000 } });
    unbounded = await createTestApp({
      database: t.database,
      stats: { pool: watched, backtestCpuMs: 600_000 },
    });
    await unbounded.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await budgeted?.app.close();
    await unbounded?.app.close();
    await pool.close();
  });
  const echo = async () =>
    pool.run(
      "capability",
      {
        window: (await packWindow({ signals: [], references: [], records: [] })).packed,
        period: {} as never,
      },
      [],
      { cpuBudgetMs: 60_000 },
    );

  it("past BACKTEST_CPU_MS the replay is stopped: a 400 with the message, or an error line once streamed", async () => {
    const plain = await budgeted.app.inject({
      method: "POST",
      url: "/api/monitors/backtest",
      headers: tenant.userHeaders,
      payload: { task: task(), period },
    });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toEqual({ message: BACKTEST_MESSAGES.tooLong(1) });
    expect(outcomes.at(-1)).toBeInstanceOf(StatsBudgetError);
    const streamed = await budgeted.app.inject({
      method: "POST",
      url: "/api/monitors/backtest",
      headers: { ...tenant.userHeaders, accept: BACKTEST_STREAM_TYPE },
      payload: { task: task(), period },
    });
    expect(streamed.statusCode).toBe(200);
    expect(
      streamed.body
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { type: "progress", done: 0, total: 33, at: null },
      { type: "error", status: 400, message: BACKTEST_MESSAGES.tooLong(1) },
    ]);
    // Two replays up to a second of the thread's CPU each: on a machine at load 10 that second
    // of CPU takes far longer than the suite's 30 s default by the wall clock.
  }, 180_000);

  it("stops the replay when the client goes away; the thread is free for the next task", async () => {
    const before = outcomes.length;
    const address = unbounded.app.server.address() as AddressInfo;
    // A connection of its own (no keep-alive pool), closed as a browser closes a tab's request.
    const req = request({
      host: "127.0.0.1",
      port: address.port,
      path: "/api/monitors/backtest",
      method: "POST",
      agent: false,
      headers: { ...tenant.userHeaders, accept: BACKTEST_STREAM_TYPE, "content-type": "application/json" },
    });
    req.end(JSON.stringify({ task: task(), period }));
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      req.once("response", resolve);
      req.once("error", reject);
    });
    expect(res.statusCode).toBe(200);
    const first = await new Promise<Buffer>((resolve) => res.once("data", resolve));
    expect(first.toString()).toContain('"type":"progress"');
    req.on("error", () => {});
    req.destroy();
    await vi.waitFor(() => expect(outcomes.length).toBe(before + 1), { timeout: 120_000 });
    expect(outcomes.at(-1)).toBeInstanceOf(StatsCancelledError);
    // The pool's one thread was spinning: it answers now only because that thread was ended.
    await expect(echo()).resolves.toBeDefined();
  }, 180_000);
});
