// POST /api/monitors/preview: the window's sizes and span and the evaluation it would give now;
// stores nothing; any signed-in user; 404 across customers.
import { randomUUID } from "node:crypto";
import {
  adjustmentLines,
  MONITOR_MESSAGES,
  QUERY_MESSAGES,
  ZMvdCalibratedDetails,
  ZSvdCalibratedDetails,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/client.js";
import { partRecords, signals, stations } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let other: Awaited<ReturnType<typeof createTenant>>;
const torque = randomUUID();
const angle = randomUUID();
const foreign = randomUUID();
const T0 = Date.UTC(2026, 10, 22, 6);

async function lineWithSignals(customerId: string, lineId: string, ids: string[], shiftLast = 0) {
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
    Array.from({ length: 200 }, (_, i) => ({
      stationId: st?.id ?? "",
      ts: new Date(T0 + i * 60_000),
      partId: `P-${i}`,
      modelNumber: "M-1",
      numValues: ids.map((_, k) => 10 + Math.sin(i * 1.3 + k) + (i >= 200 - shiftLast ? 3 : 0)),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await createTenant(t.app, t.database.db);
  other = await createTenant(t.app, t.database.db);
  await lineWithSignals(tenant.customer.id, tenant.line.id, [torque, angle], 50);
  await lineWithSignals(other.customer.id, other.line.id, [foreign]);
});
afterAll(() => closeTestApp(t));

const body = (extra: Record<string, unknown> = {}, filter: Record<string, unknown> = {}) => ({
  type: "svd",
  line_id: tenant.line.id,
  alert_threshold: "medium",
  filter: { signal_uuids: [torque], sample_size: 200, evaluation_ratio: 0.25, ...filter },
  ...extra,
});
const post = (payload: unknown, headers = tenant.userHeaders) =>
  t.app.inject({ method: "POST", url: "/api/monitors/preview", headers, payload: payload as object });
const evaluationCount = async () =>
  rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from evaluations`))[0]?.n;

/** The time of record i of the factory lines (one a minute from T0). */
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();

describe("POST /api/monitors/preview", () => {
  it("needs a session", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/monitors/preview", payload: body() });
    expect(res.statusCode).toBe(401);
  });

  it("answers the window's sizes and span and the evaluation it would give; stores nothing", async () => {
    const res = await post(body());
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      window_size: 200,
      training_size: 150,
      evaluation_size: 50,
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 199 * 60_000).toISOString(),
      evaluation_from: new Date(T0 + 150 * 60_000).toISOString(),
    });
    // The newest 50 records are shifted by 3: a breach.
    expect(p.evaluation.state).toBe("BREACH");
    expect(p.evaluation.details).toMatchObject({ m: 150, n: 50, method: "calibrated" });
    // What the threshold allowed for in the chosen signal: its VIF and its shape.
    const d = ZSvdCalibratedDetails.parse(p.evaluation.details);
    expect(d.vif).toBeGreaterThanOrEqual(1);
    expect(d.shapeRatio).toBeGreaterThan(0);
    // The factory's values are a fast sine: alike neighbours, an effective size, the shape.
    const lines = adjustmentLines(d);
    expect(lines[0]).toMatch(/autocorrelation/);
    expect(lines.at(-1)).toMatch(/shape/);
    expect(await evaluationCount()).toBe(0);
  });

  it("mvd over two signals and a smaller window; NO_DATA with a reason when too few records", async () => {
    const mvd = await post(
      body({ type: "mvd" }, { signal_uuids: [torque, angle], sample_size: 100, evaluation_ratio: 0.3 }),
    );
    expect(mvd.statusCode).toBe(200);
    expect(mvd.json()).toMatchObject({ window_size: 100, training_size: 70, evaluation_size: 30 });
    expect(mvd.json().evaluation.details.worstRows[0].topSignals.length).toBeGreaterThan(0);
    const d = ZMvdCalibratedDetails.parse(mvd.json().evaluation.details);
    expect(d.meanSignals.map((s) => s.vif).every((v) => v >= 1)).toBe(true);
    expect(mvd.json().evaluation.threshold).toBeCloseTo(2, 12);
    const few = await post(body({}, { part_numbers: ["M-404"] }));
    expect(few.json()).toMatchObject({
      window_size: 0,
      evaluation: { state: "NO_DATA", reason: "no matching records" },
    });
  });

  it("reads the newest records up to `to` for a records period anchored at the end", async () => {
    const period = { from: null, to: at(149), records: 100, anchor: "end" };
    const res = await post(body({ period }));
    expect(res.statusCode).toBe(200);
    // Records 50 to 149; the evaluation set is the newest 25 of them (ratio 0.25), before the shift.
    expect(res.json()).toMatchObject({
      window_size: 100,
      training_size: 75,
      evaluation_size: 25,
      from: at(50),
      to: at(149),
      training_from: at(50),
      evaluation_from: at(125),
      evaluation: { state: "OK", training_size: 75, evaluation_size: 25 },
    });
    // sample_size plays no part in a period's window.
    const small = await post(body({ period }, { sample_size: 60 }));
    expect(small.json()).toMatchObject({ window_size: 100, evaluation_size: 25 });
    // Up to the newest record, halved, the evaluation set holds the shifted parts and the training
    // set none of them.
    const newest = await post(body({ period: { ...period, to: null } }, { evaluation_ratio: 0.5 }));
    expect(newest.json()).toMatchObject({ from: at(100), to: at(199), evaluation: { state: "BREACH" } });
  });

  it("reads the oldest records from `from` for a records period anchored at the start", async () => {
    const period = { from: at(100), to: null, records: 60, anchor: "start" };
    const res = await post(body({ period }, { evaluation_ratio: 0.5 }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      window_size: 60,
      training_size: 30,
      evaluation_size: 30,
      from: at(100),
      to: at(159),
      evaluation_from: at(130),
      evaluation: { training_size: 30, evaluation_size: 30 },
    });
    // From between two records: the first one after it.
    const between = await post(body({ period: { ...period, from: at(100.5) } }, { evaluation_ratio: 0.5 }));
    expect(between.json()).toMatchObject({ from: at(101), to: at(160) });
  });

  it("reads every record between from and to for a time period; NO_DATA when its evaluation set is below 25", async () => {
    // Records 100 to 199, halved: the training set ends where the shift of the newest 50 begins
    // (a training set holding part of the shift reads it as neighbouring parts being alike, a
    // large VIF, and widens the threshold).
    const half = await post(
      body(
        { period: { from: at(100), to: at(199), records: null, anchor: "end" } },
        { evaluation_ratio: 0.5 },
      ),
    );
    expect(half.statusCode).toBe(200);
    expect(half.json()).toMatchObject({
      window_size: 100,
      training_size: 50,
      evaluation_size: 50,
      from: at(100),
      to: at(199),
      evaluation_from: at(150),
      evaluation: { state: "BREACH", training_size: 50, evaluation_size: 50 },
    });
    const period = { from: at(120), to: at(199), records: null, anchor: "end" };
    // 80 × 0.25 = 20 evaluation records: too few to evaluate, and said so.
    const quarter = await post(body({ period }, { evaluation_ratio: 0.25 }));
    expect(quarter.json()).toMatchObject({
      window_size: 80,
      training_size: 60,
      evaluation_size: 20,
      evaluation: {
        state: "NO_DATA",
        reason: "the period has 80 records: its evaluation set (20) needs at least 25",
      },
    });
    const empty = await post(body({ period: { ...period, from: at(300), to: at(400) } }));
    expect(empty.json()).toMatchObject({
      window_size: 0,
      evaluation: { state: "NO_DATA", reason: "no matching records" },
    });
  });

  it("refuses a period that ends before it starts, and a window above MVD_QUERY_MAX_RECORD_COUNT", async () => {
    const backwards = await post(
      body({ period: { from: at(150), to: at(100), records: null, anchor: "end" } }),
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe(QUERY_MESSAGES.startAfterEnd);
    const tooMany = await post(body({ period: { from: null, to: null, records: 10_001, anchor: "end" } }));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(MONITOR_MESSAGES.sampleSizeMax(10_000));
    const badPeriod = await post(
      body({ period: { from: "yesterday", to: null, records: 50, anchor: "end" } }),
    );
    expect(badPeriod.statusCode).toBe(400);
  });

  it("404 for another customer's line with a period", async () => {
    const period = { from: at(0), to: at(199), records: null, anchor: "end" };
    const res = await post(body({ line_id: other.line.id, period }));
    expect(res.statusCode).toBe(404);
    // The other customer's own session reads its line's period.
    const own = await post(
      body({ line_id: other.line.id, period }, { signal_uuids: [foreign] }),
      other.userHeaders,
    );
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ window_size: 200 });
  });

  it("404 for another customer's line or signal; 400 for an unknown field", async () => {
    expect((await post(body({ line_id: other.line.id }))).statusCode).toBe(404);
    expect((await post(body({}, { signal_uuids: [foreign] }))).statusCode).toBe(404);
    const bad = await post(body({ extra: 1 }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/extra/);
  });
});

describe("POST /api/monitors/preview on an installation with a smaller MVD_QUERY_MAX_RECORD_COUNT", () => {
  let small: TestContext;
  let s: Awaited<ReturnType<typeof createTenant>>;
  const signal = randomUUID();
  beforeAll(async () => {
    small = await createTestApp({ mvdQueryMaxRecordCount: 150 });
    s = await createTenant(small.app, small.database.db);
    const [st] = await small.database.db
      .insert(stations)
      .values({ customerId: s.customer.id, lineId: s.line.id, name: "OP10", nextNumSlot: 1 })
      .returning();
    await small.database.db.insert(signals).values({
      id: signal,
      customerId: s.customer.id,
      lineId: s.line.id,
      stationId: st?.id ?? "",
      name: "S0",
      entityType: "MEASUREMENT",
      storage: "num",
      slot: 0,
    });
    await small.database.db.insert(partRecords).values(
      Array.from({ length: 200 }, (_, i) => ({
        stationId: st?.id ?? "",
        ts: new Date(T0 + i * 60_000),
        partId: `P-${i}`,
        numValues: [10 + Math.sin(i * 1.3)],
      })),
    );
  });
  afterAll(() => closeTestApp(small));

  it("reads at most that many records of a time period, the newest", async () => {
    const res = await small.app.inject({
      method: "POST",
      url: "/api/monitors/preview",
      headers: s.userHeaders,
      payload: {
        type: "svd",
        line_id: s.line.id,
        filter: { signal_uuids: [signal], sample_size: 100, evaluation_ratio: 0.2 },
        period: { from: at(0), to: at(199), records: null, anchor: "end" },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      window_size: 150,
      training_size: 120,
      evaluation_size: 30,
      from: at(50),
      to: at(199),
      evaluation_from: at(170),
    });
  });
});

/** A new customer whose line has one measurement signal with these values, a record a minute from T0. */
/** Uniform values in (0, 1) from a linear congruential generator: a series the same every run. */
function seededUniform(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state + 0.5) / 2 ** 31;
  };
}

/** The preview of one signal over the newest 1,500 records (tenantWithSeries), at medium, ratio 0.2. */
function previewOfSeries(
  s: Awaited<ReturnType<typeof createTenant>>,
  signal: string,
  type: "svd" | "cap",
  sampleSize: number,
  alertThreshold: "low" | "medium" | "high" = "medium",
) {
  return t.app.inject({
    method: "POST",
    url: "/api/monitors/preview",
    headers: s.userHeaders,
    payload: {
      type,
      line_id: s.line.id,
      alert_threshold: alertThreshold,
      filter: { signal_uuids: [signal], sample_size: sampleSize, evaluation_ratio: 0.2 },
      period: { from: null, to: null, records: 1500, anchor: "end" },
    },
  });
}

async function tenantWithSeries(station: string, signalId: string, name: string, values: readonly number[]) {
  const tn = await createTenant(t.app, t.database.db);
  const [st] = await t.database.db
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: station, nextNumSlot: 1 })
    .returning();
  await t.database.db.insert(signals).values({
    id: signalId,
    customerId: tn.customer.id,
    lineId: tn.line.id,
    stationId: st?.id ?? "",
    name,
    entityType: "MEASUREMENT",
    storage: "num",
    slot: 0,
  });
  await t.database.db.insert(partRecords).values(
    values.map((v, i) => ({
      stationId: st?.id ?? "",
      ts: new Date(T0 + i * 60_000),
      partId: `${station}-${i}`,
      numValues: [v],
    })),
  );
  return tn;
}

describe("POST /api/monitors/preview: does the monitor's window hold its level for the signal's autocorrelation?", () => {
  let s: Awaited<ReturnType<typeof createTenant>>;
  const drifting = randomUUID();
  beforeAll(async () => {
    // An AR(1) of 0.9 (a tool that wears and is reset): neighbouring parts are alike. A seeded
    // generator of uniform sums (near normal) keeps the series the same every run.
    const uniform = seededUniform(12345);
    const noise = () => uniform() + uniform() + uniform() + uniform() - 2;
    let x = 0;
    const values = Array.from({ length: 1500 }, () => {
      x = 0.9 * x + noise();
      return 20 + x;
    });
    s = await tenantWithSeries("OP20", drifting, "Bore", values);
  });

  const preview = (sampleSize: number) => previewOfSeries(s, drifting, "svd", sampleSize);

  it("measures the dependence on the whole period and refuses a 50-record window, naming one that holds", async () => {
    const res = await preview(50);
    expect(res.statusCode).toBe(200);
    const support = res.json().level_support;
    expect(support).toMatchObject({
      holds: false,
      measured_records: 1500,
      training_records: 25,
      limited_by: "dependence",
    });
    expect(support.vif).toBeGreaterThan(8);
    // The 25 training records are worth about 25 / VIF independent ones.
    expect(support.effective_sample_size).toBeCloseTo(25 / support.vif, 6);
    expect(support.minimum_sample_size).toBeGreaterThan(50);
    // The advised window holds.
    const advised = await preview(support.minimum_sample_size);
    expect(advised.json().level_support).toMatchObject({
      holds: true,
      measured_records: 1500,
      limited_by: null,
    });
  });

  it("says nothing is wrong for independent data (the factory line)", async () => {
    const res = await post(body({ period: { from: null, to: null, records: 200, anchor: "end" } }));
    expect(res.json().level_support).toMatchObject({ measured_records: 200 });
  });
});

describe("POST /api/monitors/preview: does the window span the signal's cycle?", () => {
  let s: Awaited<ReturnType<typeof createTenant>>;
  const coolant = randomUUID();
  beforeAll(async () => {
    // A coolant temperature cycle of 100 parts (amplitude 1) beside near-normal noise of sd 1,
    // from a seeded generator so the series is the same every run.
    const uniform = seededUniform(777);
    const noise = () => (uniform() + uniform() + uniform() + uniform() - 2) * Math.sqrt(3);
    const values = Array.from({ length: 1500 }, (_, t) => 22 + Math.sin((2 * Math.PI * t) / 100) + noise());
    s = await tenantWithSeries("OP40", coolant, "Coolant", values);
  });

  const preview = (sampleSize: number) => previewOfSeries(s, coolant, "svd", sampleSize);

  it("names the cycle, refuses a window whose evaluation records span less than two periods, and advises one", async () => {
    const res = await preview(600);
    expect(res.statusCode, res.body).toBe(200);
    const support = res.json().level_support;
    expect(support).toMatchObject({ holds: false, measured_records: 1500, limited_by: "cycle" });
    expect(support.cycle.period).toBeGreaterThan(98);
    expect(support.cycle.period).toBeLessThan(102);
    expect(support.cycle.share).toBeGreaterThan(0.2);
    // Two periods of evaluation records at 0.2: about 1,000 records.
    expect(support.minimum_sample_size).toBeGreaterThan(980);
    expect(support.minimum_sample_size).toBeLessThan(1030);
    const advised = await preview(support.minimum_sample_size);
    expect(advised.json().level_support).toMatchObject({ holds: true, limited_by: null });
  });
});

describe("POST /api/monitors/preview: does a CAP window hold its level for the signal's tails?", () => {
  let s: Awaited<ReturnType<typeof createTenant>>;
  const spiky = randomUUID();
  beforeAll(async () => {
    // Independent Student t with 3 degrees of freedom (a press whose force now and then spikes):
    // a normal over the root of a χ²₃ / 3, from a seeded generator so the series is the same every run.
    const uniform = seededUniform(424242);
    const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    const t3 = () => normal() / Math.sqrt((normal() ** 2 + normal() ** 2 + normal() ** 2) / 3);
    s = await tenantWithSeries(
      "OP30",
      spiky,
      "Press force",
      Array.from({ length: 1500 }, () => 50 + t3()),
    );
  });

  const preview = (type: "cap" | "svd", sampleSize: number, level: "low" | "medium" | "high" = "medium") =>
    previewOfSeries(s, spiky, type, sampleSize, level);

  it("refuses a 150-record CAP window on heavy-tailed data and names one whose training values read the tail", async () => {
    const res = await preview("cap", 150);
    expect(res.statusCode, res.body).toBe(200);
    const support = res.json().level_support;
    expect(support).toMatchObject({ holds: false, measured_records: 1500, limited_by: "tails" });
    // 400 training records at a ratio of 0.2: a window of 500.
    expect(support.minimum_sample_size).toBe(500);
    const advised = await preview("cap", support.minimum_sample_size);
    expect(advised.json().level_support).toMatchObject({ holds: true, limited_by: null });
  });

  it("holds an SVD window at medium on the same tails (its score is not a single point's tail)", async () => {
    const res = await preview("svd", 150);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().level_support).toMatchObject({ holds: true, limited_by: null });
  });

  it("warns that SVD at low cannot hold on tails this heavy, whatever the window", async () => {
    const res = await preview("svd", 150, "low");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().level_support).toMatchObject({
      holds: false,
      limited_by: "tails",
      minimum_sample_size: null,
    });
  });

  it("asks an SVD window on such tails for 50 training records at medium", async () => {
    const res = await preview("svd", 50);
    expect(res.statusCode, res.body).toBe(200);
    // 50 training records at a ratio of 0.2 (the evaluation set at least 25): 75 in all.
    expect(res.json().level_support).toMatchObject({
      holds: false,
      limited_by: "tails",
      minimum_sample_size: 75,
    });
  });
});
