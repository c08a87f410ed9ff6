// A backtest reads its period a page at a time and feeds the replay as it reads (issue 31 §4):
// the answer is the one a replay of every record read at once gives; the records come in the
// worker's order across pages and across the month partitions of part_records (a month boundary
// inside the period); the records bound is far above a month of 5,000 parts an hour; another
// customer's line or monitor is not found.
import { randomUUID } from "node:crypto";
import {
  BACKTEST_BOUNDS,
  BACKTEST_MESSAGES,
  LINE_MESSAGES,
  storedFilterOf,
  USER_MESSAGES,
  ZTaskDetails,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { rowsOf } from "../../src/db/client.js";
import { createPartitions, monthStart, PART_RECORDS_PARTITIONING } from "../../src/db/partitions.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import { AppError } from "../../src/errors.js";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { replayMonitor, slotsOf } from "../../src/modules/backtest/backtest.replay.js";
import { createBacktestService } from "../../src/modules/backtest/backtest.service.js";
import { createStatsPool } from "../../src/modules/evaluation/stats-pool.js";
import { openRecordSpan } from "../../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createMonitorRow, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { readRecordSpan } from "../helpers/record-span.js";

const MINUTE = 60_000;
/** Two days and two hours from 30 October: 1 November (a month partition's start) is inside. */
const T0 = Date.UTC(2026, 9, 30);
const MONTH_EDGE = Date.UTC(2026, 10, 1);
/** Three parts a minute at OP10 (every 7th measured twice: op 1 and 2); each part at OP20 30 s later. */
const PARTS = 9_000;
/** 19 signals at OP10 and one at OP20: a page is ⌊50,000 / 23⌋ = 2,173 records. */
const OP10_SIGNALS = 19;
const PAGE = Math.floor(50_000 / (OP10_SIGNALS + 1 + 3));
const SAMPLE_SIZE = 200;
const FREQUENCY = 30;
const from = new Date(T0 + 300 * MINUTE);
const to = new Date(T0 + 3_000 * MINUTE);

let database: Database;
const stats = createStatsPool({ threads: 1 });
let tenant: { customerId: string; plantId: string; lineId: string };
let other: { customerId: string; plantId: string; lineId: string };
const signalIds = Array.from({ length: OP10_SIGNALS + 1 }, () => randomUUID());
let op10 = "";
/** OP10's records as written: the worker's order is (ts, part id, op). */
const written: { ts: number; partId: string; op: number }[] = [];

async function lineOf(db: Database["db"]) {
  const customerId = (await createCustomer(db)).id;
  const plantId = (await createPlant(db, customerId)).id;
  const lineId = (await createLine(db, customerId, plantId)).id;
  return { customerId, plantId, lineId };
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await createPartitions(db, PART_RECORDS_PARTITIONING).ensureMonths(
    monthStart(new Date(T0)),
    new Date(MONTH_EDGE),
  );
  tenant = await lineOf(db);
  other = await lineOf(db);
  const [a, b] = await db
    .insert(stations)
    .values([
      { customerId: tenant.customerId, lineId: tenant.lineId, name: "OP10", nextNumSlot: OP10_SIGNALS },
      { customerId: tenant.customerId, lineId: tenant.lineId, name: "OP20", nextNumSlot: 1 },
    ])
    .returning();
  if (!a || !b) throw new Error("no stations");
  op10 = a.id;
  await db.insert(signals).values(
    signalIds.map((id, k) => ({
      id,
      customerId: tenant.customerId,
      lineId: tenant.lineId,
      stationId: k < OP10_SIGNALS ? a.id : b.id,
      name: `S${k}`,
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      slot: k < OP10_SIGNALS ? k : 0,
    })),
  );
  let seed = 99;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const rows: (typeof partRecords.$inferInsert)[] = [];
  for (let i = 0; i < PARTS; i++) {
    const minute = Math.floor(i / 3);
    const ts = T0 + minute * MINUTE;
    const partId = `P-${String(i).padStart(5, "0")}`;
    // A shift of signal 3 for four hours on 31 October.
    const shift = minute > 2_000 && minute < 2_240 ? 2 : 0;
    for (const op of i % 7 === 0 ? [1, 2] : [1]) {
      const common = gauss();
      rows.push({
        stationId: a.id,
        ts: new Date(ts),
        partId,
        op,
        numValues: Array.from(
          { length: OP10_SIGNALS },
          (_, k) => 10 + k + 0.5 * common + gauss() + (k === 3 ? shift : 0),
        ),
      });
      written.push({ ts, partId, op });
    }
    rows.push({ stationId: b.id, ts: new Date(ts + 30_000), partId, numValues: [5 + gauss()] });
  }
  for (let k = 0; k < rows.length; k += 1_000) await db.insert(partRecords).values(rows.slice(k, k + 1_000));
}, 300_000);
afterAll(async () => {
  await stats.close();
  await database?.close();
});

const details = (over: Record<string, unknown> = {}) =>
  ZTaskDetails.parse({
    cust_uuid: tenant.customerId,
    plant_uuid: tenant.plantId,
    line_uuid: tenant.lineId,
    signal_uuids: signalIds,
    sample_size: SAMPLE_SIZE,
    evaluation_ratio: 0.25,
    ...over,
  });
const task = (over: Record<string, unknown> = {}) => ({
  task_name: "Bore across two stations",
  task_type: "mvd" as const,
  active: true,
  frequency: FREQUENCY,
  notes: "",
  task_details: details(over),
});
const period = { from: from.toISOString(), to: to.toISOString() };
const service = (maxRecords?: number) =>
  createBacktestService({
    db: database.db,
    maxRecordCount: 10_000,
    stats,
    cpuBudgetMs: 120_000,
    ...(maxRecords ? { maxRecords } : {}),
  });
const ctxOf = (customerId: string) => ({ customerId }) as AuthContext;
const query = () => ({
  customerId: tenant.customerId,
  lineId: tenant.lineId,
  type: "mvd" as const,
  filter: storedFilterOf(details()),
});

describe("a backtest read a page at a time", () => {
  it("answers what a replay of every record read at once answers", async () => {
    const b = await service().backtest(ctxOf(tenant.customerId), { task: task(), period });
    const one = await readRecordSpan(database.db, query(), { from, to, before: SAMPLE_SIZE });
    // The period came in several pages, more than the replay is ever sent ahead of itself.
    expect(one.chunks).toBeGreaterThanOrEqual(4);
    const slots = slotsOf(from, to, FREQUENCY);
    const here = replayMonitor(
      { type: "mvd", alertThreshold: "medium", filter: query().filter, frequency: FREQUENCY, rules: [] },
      one.window,
      slots,
    );
    expect(b.records).toBe(one.window.records.length);
    expect(b.slots).toEqual(
      here.slots.map(({ slot, result, alert }) => ({
        slot: slot.toISOString(),
        state: result.state,
        score: result.score,
        threshold: result.threshold,
        reason: result.reason,
        alert,
      })),
    );
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    expect(b.alerts).toEqual(
      here.alerts.map((a) => ({
        opened_at: a.openedAt.toISOString(),
        resolved_at: iso(a.resolvedAt),
        last_seen_at: a.lastSeenAt.toISOString(),
        rule: a.rule,
        count: a.count,
        score: a.score,
        threshold: a.threshold,
      })),
    );
    expect(b.summary.breaches).toBeGreaterThan(0);
    // Two replays of the month (the service's and this one): minutes of CPU on a loaded machine.
  }, 300_000);

  it("gives the records in the worker's order across pages and across the month partitions", async () => {
    const rows = rowsOf<{ partition: string; n: number }>(
      await database.db.execute(sql`select tableoid::regclass::text as partition, count(*)::int as n
        from part_records where station_id = ${op10} and ts > ${from} and ts <= ${to} group by 1 order by 1`),
    );
    // The period's records lie in two month partitions (October's and November's).
    expect(rows.map((r) => r.partition)).toEqual(["part_records_p2026_10", "part_records_p2026_11"]);
    const span = await openRecordSpan(database.db, query(), { from, to, before: SAMPLE_SIZE });
    const sizes: number[] = [];
    const got: { ts: number; partId: string }[] = [];
    for await (const chunk of span.chunks) {
      sizes.push(chunk.length);
      for (const r of chunk) got.push({ ts: r.ts.getTime(), partId: r.partId });
    }
    const want = written
      .filter((r) => r.ts > from.getTime() && r.ts <= to.getTime())
      .sort((x, y) => x.ts - y.ts || (x.partId < y.partId ? -1 : x.partId > y.partId ? 1 : 0) || x.op - y.op)
      .map(({ ts, partId }) => ({ ts, partId }));
    expect(got).toEqual(want);
    expect(sizes.slice(0, -1).every((n) => n === PAGE)).toBe(true);
    // A page ends on each side of the month's edge, so one page holds both months.
    const edgeAt = want.findIndex((r) => r.ts >= MONTH_EDGE);
    expect(edgeAt).toBeGreaterThan(0);
    expect(edgeAt % PAGE).not.toBe(0);
    // The window before the period: the newest sample_size records at or before `from`.
    expect(span.window.records).toHaveLength(SAMPLE_SIZE);
    expect(span.window.records.at(-1)?.ts.getTime()).toBeLessThanOrEqual(from.getTime());
  });
});

describe("the records bound", () => {
  it("lies far above a month of 5,000 parts an hour, and says so when met", async () => {
    expect(BACKTEST_BOUNDS.maxRecords).toBeGreaterThan(5 * 5_000 * 24 * 31);
    expect(BACKTEST_MESSAGES.tooManyRecords(BACKTEST_BOUNDS.maxRecords)).toBe(
      "The backtest period holds more than 25,000,000 records (about 33,600 parts an hour over 31 days): choose a shorter period",
    );
    // A bound smaller than the period, given to a service: refused while reading, in those words.
    const err = await service(5_000)
      .backtest(ctxOf(tenant.customerId), { task: task(), period })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "BAD_REQUEST", message: BACKTEST_MESSAGES.tooManyRecords(5_000) });
    // The replay thread it fed is free for the next backtest.
    const b = await service().backtest(ctxOf(tenant.customerId), {
      task: task(),
      period: { from: from.toISOString(), to: new Date(from.getTime() + 120 * MINUTE).toISOString() },
    });
    expect(b.summary.evaluations).toBe(4);
  });
});

describe("another customer's line or monitor", () => {
  it("is not found", async () => {
    const theirs = service();
    // The tenant's settings sent by another customer's session.
    await expect(theirs.backtest(ctxOf(other.customerId), { task: task(), period })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: USER_MESSAGES.customerNotFound,
    });
    // Their own customer id with the tenant's line.
    await expect(
      theirs.backtest(ctxOf(other.customerId), {
        task: task({ cust_uuid: other.customerId, plant_uuid: other.plantId }),
        period,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: LINE_MESSAGES.notFound });
    // The tenant's saved monitor.
    const monitor = await createMonitorRow(
      database.db,
      { id: tenant.lineId, customerId: tenant.customerId, plantId: tenant.plantId },
      { filter: { signal_uuids: signalIds, sample_size: SAMPLE_SIZE }, frequency: FREQUENCY },
    );
    await expect(
      theirs.backtest(ctxOf(other.customerId), { monitor_uuid: monitor.id, period }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const own = await theirs.backtest(ctxOf(tenant.customerId), {
      monitor_uuid: monitor.id,
      period: { from: from.toISOString(), to: new Date(from.getTime() + 60 * MINUTE).toISOString() },
    });
    expect(own.summary.evaluations).toBeGreaterThan(0);
  });
});
