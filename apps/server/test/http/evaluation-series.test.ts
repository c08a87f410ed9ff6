// GET /api/lines/:lineId/evaluation-series: the line overview's scores over time (issue 32 §4) —
// session, customer scope (404 across customers), the period's bounds, and the content: each
// monitor's evaluations of the period in order, decimated with every breach kept, and its alerts.
import {
  EVALUATION_SERIES_MAX_DAYS,
  EVALUATION_SERIES_MAX_POINTS,
  EVALUATION_SERIES_MESSAGES,
  SERVER_MESSAGES,
  type TLineEvaluationSeries,
} from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, evaluations } from "../../src/db/schema/index.js";
import { createMonitorRow, createStationWithSignals, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
const T0 = Date.UTC(2026, 10, 20, 0);
const MIN = 60_000;
/** Evaluations of the busy monitor: more than the series draws. */
const BUSY_COUNT = 1200;
/** Its breaches, at these indices (scores 50 + i, above every other score). */
const BREACH_AT = [7, 300, 301, 302, 655, 1000, 1199];
/** A dip and a spike among its plain evaluations: a stretch's lowest and highest stay. */
const DIP_AT = 420;
const SPIKE_AT = 888;
const ids = { busy: "", cap: "", mvd: "", breaching: "", signalName: "" };
const alertIds = { inPeriod: "", spanning: "", before: "" };

const slotOf = (i: number) => new Date(T0 + i * 5 * MIN);
const busyScore = (i: number) =>
  BREACH_AT.includes(i) ? 50 + i / 1000 : i === DIP_AT ? -5 : i === SPIKE_AT ? 9 : 1 + Math.sin(i / 10);

async function seed() {
  const db = t.database.db;
  const line = { id: a.line.id, customerId: a.customer.id, plantId: a.plant.id };
  const busy = await createMonitorRow(db, line, { name: "A busy", type: "svd" });
  const breaching = await createMonitorRow(db, line, { name: "B breaching", type: "svd" });
  const { measurements } = await createStationWithSignals(db, a.customer.id, a.line.id);
  const signal = measurements[0];
  if (!signal) throw new Error("no signal");
  ids.signalName = signal.name;
  const cap = await createMonitorRow(db, line, {
    name: "C capability",
    type: "cap",
    filter: { signal_uuids: [signal.id], signal_group_uuids: [] },
  });
  const mvd = await createMonitorRow(db, line, { name: "D multivariate", type: "mvd" });
  Object.assign(ids, { busy: busy.id, breaching: breaching.id, cap: cap.id, mvd: mvd.id });
  const row = (monitorId: string, i: number, state: "OK" | "BREACH", score: number, details?: object) => ({
    customerId: a.customer.id,
    monitorId,
    slot: slotOf(i),
    evaluatedAt: slotOf(i),
    state,
    score,
    threshold: 40,
    details: details ?? null,
  });
  await db.insert(evaluations).values([
    ...Array.from({ length: BUSY_COUNT }, (_, i) =>
      row(busy.id, i, BREACH_AT.includes(i) ? "BREACH" : "OK", busyScore(i)),
    ),
    // Before the period: not read.
    row(busy.id, -100, "BREACH", 99),
  ]);
  await db
    .insert(evaluations)
    .values(Array.from({ length: 800 }, (_, i) => row(breaching.id, i, "BREACH", 41 + (i % 17))));
  await db
    .insert(evaluations)
    .values([
      row(cap.id, 10, "OK", 1.5),
      { ...row(cap.id, 20, "OK", 1.4), state: "NO_DATA" as const, score: null, threshold: null },
      row(cap.id, 30, "BREACH", 0.9),
    ]);
  await db
    .insert(evaluations)
    .values([row(mvd.id, 10, "OK", 1.2, { method: "calibrated", p_value: 0.06, alpha: 0.001 })]);
  const base = { customerId: a.customer.id, lineId: a.line.id, rule: "breach" };
  const [inPeriod, spanning, before] = await db
    .insert(alerts)
    .values([
      { ...base, monitorId: busy.id, state: "OPEN", openedAt: slotOf(300), lastSeenAt: slotOf(302) },
      {
        ...base,
        monitorId: cap.id,
        state: "RESOLVED",
        openedAt: slotOf(-300),
        lastSeenAt: slotOf(30),
        resolvedAt: slotOf(40),
      },
      {
        ...base,
        monitorId: busy.id,
        state: "RESOLVED",
        openedAt: slotOf(-120),
        lastSeenAt: slotOf(-100),
        resolvedAt: slotOf(-90),
      },
    ])
    .returning();
  if (!inPeriod || !spanning || !before) throw new Error("no alerts");
  Object.assign(alertIds, { inPeriod: inPeriod.id, spanning: spanning.id, before: before.id });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  await seed();
});
afterAll(() => closeTestApp(t));

const from = slotOf(-1).toISOString();
const to = slotOf(BUSY_COUNT).toISOString();
const url = (lineId: string, f = from, e = to) =>
  `/api/lines/${lineId}/evaluation-series?from=${encodeURIComponent(f)}&to=${encodeURIComponent(e)}`;
const get = (u: string, headers?: { cookie: string }) => t.app.inject({ method: "GET", url: u, headers });

describe("evaluation series: access", () => {
  it("answers 401 without a session", async () => {
    const res = await get(url(a.line.id));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
  });
  it("answers 404 for another customer's line", async () => {
    expect((await get(url(b.line.id), a.userHeaders)).statusCode).toBe(404);
    expect((await get(url(a.line.id), b.userHeaders)).statusCode).toBe(404);
  });
  it("answers 400 for a period out of order, too long, or no date", async () => {
    const reversed = await get(url(a.line.id, to, from), a.userHeaders);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe(EVALUATION_SERIES_MESSAGES.order);
    const long = new Date(Date.parse(to) - (EVALUATION_SERIES_MAX_DAYS + 1) * 86_400_000).toISOString();
    const tooLong = await get(url(a.line.id, long, to), a.userHeaders);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(EVALUATION_SERIES_MESSAGES.tooLong);
    expect((await get(url(a.line.id, "yesterday"), a.userHeaders)).statusCode).toBe(400);
  });
});

describe("evaluation series: content", () => {
  let v: TLineEvaluationSeries;
  const series = (id: string) => {
    const s = v.monitors.find((m) => m.monitor.id === id);
    if (!s) throw new Error(`no series of ${id}`);
    return s;
  };
  beforeAll(async () => {
    const res = await get(url(a.line.id), a.userHeaders);
    expect(res.statusCode).toBe(200);
    v = res.json() as TLineEvaluationSeries;
  });

  it("lists every monitor of the line by name, a CAP monitor with its signal", () => {
    expect(v.monitors.map((m) => m.monitor.name)).toEqual([
      "A busy",
      "B breaching",
      "C capability",
      "D multivariate",
    ]);
    expect(series(ids.cap).monitor.signal).toEqual({ id: expect.any(String), name: ids.signalName });
    expect(series(ids.busy).monitor.signal).toBeNull();
  });

  it("gives a few evaluations whole, oldest first, with what the chart plots", () => {
    const cap = series(ids.cap);
    expect(cap.isDecimated).toBe(false);
    expect(cap.evaluationCount).toBe(3);
    expect(cap.points.map((p) => [p.slot, p.state, p.score])).toEqual([
      [slotOf(10).toISOString(), "OK", 1.5],
      [slotOf(20).toISOString(), "NO_DATA", null],
      [slotOf(30).toISOString(), "BREACH", 0.9],
    ]);
    // An MVD plots its p-value against α, not its stored score.
    expect(series(ids.mvd).points[0]).toMatchObject({ score: 1.2, plotScore: 0.06, plotThreshold: 0.001 });
  });

  it("decimates a long series in order, keeping every breach, the dip and the spike", () => {
    const busy = series(ids.busy);
    expect(busy.evaluationCount).toBe(BUSY_COUNT);
    expect(busy.isDecimated).toBe(true);
    expect(busy.points.length).toBeLessThanOrEqual(EVALUATION_SERIES_MAX_POINTS);
    expect(busy.points.length).toBeGreaterThan(EVALUATION_SERIES_MAX_POINTS / 2);
    const times = busy.points.map((p) => Date.parse(p.slot));
    expect(times.every((x, i) => i === 0 || x > (times[i - 1] as number))).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(from));
    const breaches = busy.points.filter((p) => p.state === "BREACH").map((p) => p.slot);
    expect(breaches).toEqual(BREACH_AT.map((i) => slotOf(i).toISOString()));
    const slots = new Set(busy.points.map((p) => p.slot));
    expect(slots.has(slotOf(DIP_AT).toISOString())).toBe(true);
    expect(slots.has(slotOf(SPIKE_AT).toISOString())).toBe(true);
    for (const p of busy.points) expect(p.score).toBe(busyScore((Date.parse(p.slot) - T0) / (5 * MIN)));
  });

  it("keeps to the bound when a monitor breaches throughout", () => {
    const s = series(ids.breaching);
    expect(s.evaluationCount).toBe(800);
    expect(s.isDecimated).toBe(true);
    expect(s.points.length).toBeLessThanOrEqual(EVALUATION_SERIES_MAX_POINTS);
    expect(s.points.every((p) => p.state === "BREACH")).toBe(true);
    expect(s.points.some((p) => p.score === 57)).toBe(true);
    expect(s.points.some((p) => p.score === 41)).toBe(true);
  });

  it("lists the alerts open at some time of the period, not those over before it", () => {
    expect(series(ids.busy).alerts.map((x) => x.id)).toEqual([alertIds.inPeriod]);
    expect(series(ids.busy).alerts[0]).toMatchObject({
      state: "OPEN",
      openedAt: slotOf(300).toISOString(),
      lastSeenAt: slotOf(302).toISOString(),
      resolvedAt: null,
    });
    expect(series(ids.cap).alerts).toEqual([
      {
        id: alertIds.spanning,
        state: "RESOLVED",
        openedAt: slotOf(-300).toISOString(),
        lastSeenAt: slotOf(30).toISOString(),
        resolvedAt: slotOf(40).toISOString(),
      },
    ]);
    expect(series(ids.mvd).alerts).toEqual([]);
  });
});
