// GET /api/lines/:lineId/signals/:signalId/capability: the capability view of a signal over a
// period (issue #14) — session, customer scope (404 across customers), the period's order, and
// the view: every record's statistics, the limits from the formulas, per model number.
import { CAPABILITY_MESSAGES, SERVER_MESSAGES, type TCapabilityView } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partRecords, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let signalId: string;
let foreignSignalId: string;
const T0 = Date.UTC(2026, 10, 22, 6);

/** A station with "Bore" (slot 0) and "Bore nominal" (slot 1, a formula's reference), limits, 120 records. */
async function seed(tn: Awaited<ReturnType<typeof createTenant>>) {
  const db = t.database.db;
  const [station] = await db
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP20", nextNumSlot: 2 })
    .returning();
  if (!station) throw new Error("no station");
  const [bore, nominal] = await db
    .insert(signals)
    .values(
      ["Bore", "Bore nominal"].map((name, slot) => ({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        stationId: station.id,
        name,
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    )
    .returning();
  if (!bore || !nominal) throw new Error("no signals");
  await db.insert(spcLimits).values([
    {
      customerId: tn.customer.id,
      lineId: tn.line.id,
      signalId: bore.id,
      modelNumber: "*",
      lslFormula: "9",
      lclFormula: `{${nominal.id}} - 0.6`,
      uclFormula: `{${nominal.id}} + 0.6`,
      uslFormula: "11",
    },
    {
      customerId: tn.customer.id,
      lineId: tn.line.id,
      signalId: bore.id,
      modelNumber: "B-2",
      lslFormula: "9.5",
      lclFormula: null,
      uclFormula: null,
      uslFormula: "10.5",
    },
  ]);
  // 120 records a minute apart; every third is model B-2; records 60 (B-2) and 61 sit far above.
  await db.insert(partRecords).values(
    Array.from({ length: 120 }, (_, i) => ({
      stationId: station.id,
      ts: new Date(T0 + i * 60_000),
      partId: `P-${i}`,
      modelNumber: i % 3 === 0 ? "B-2" : "A-1",
      numValues: [i === 60 || i === 61 ? 12 : 10 + (((i * 7) % 11) - 5) / 50, 10],
    })),
  );
  return bore.id;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  signalId = await seed(a);
  foreignSignalId = await seed(b);
});
afterAll(() => closeTestApp(t));

const from = new Date(T0 - 60_000).toISOString();
const to = new Date(T0 + 200 * 60_000).toISOString();
const url = (lineId: string, sid: string, f = from, e = to) =>
  `/api/lines/${lineId}/signals/${sid}/capability?from=${encodeURIComponent(f)}&to=${encodeURIComponent(e)}`;
const get = (u: string, headers?: { cookie: string }) => t.app.inject({ method: "GET", url: u, headers });

describe("capability view: access", () => {
  it("answers 401 without a session", async () => {
    const res = await get(url(a.line.id, signalId));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
  });
  it("answers 404 for another customer's line or signal", async () => {
    expect((await get(url(b.line.id, foreignSignalId), a.userHeaders)).statusCode).toBe(404);
    expect((await get(url(a.line.id, foreignSignalId), a.userHeaders)).statusCode).toBe(404);
  });
  it("answers 400 for a period that ends before it starts or is no date", async () => {
    const res = await get(url(a.line.id, signalId, to, from), a.userHeaders);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CAPABILITY_MESSAGES.order);
    expect((await get(url(a.line.id, signalId, "yesterday"), a.userHeaders)).statusCode).toBe(400);
  });
});

describe("capability view: content", () => {
  it("gives every record with its formula limits, the rule breaks, MR, histogram and capability per model", async () => {
    const res = await get(url(a.line.id, signalId), a.userHeaders);
    expect(res.statusCode).toBe(200);
    const v = res.json() as TCapabilityView;
    expect(v.signal.name).toBe("Bore");
    expect(v.recordCount).toBe(120);
    expect(v.isTruncated).toBe(false);
    expect(v.isDecimated).toBe(false);
    expect(v.points).toHaveLength(120);
    // A-1 records take the '*' row: the formulas give nominal ∓ 0.6
    const p1 = v.points[1];
    expect(p1).toMatchObject({ modelNumber: "A-1", lsl: 9, usl: 11, mr: expect.any(Number) });
    expect(p1?.lcl).toBeCloseTo(9.4, 12);
    expect(p1?.ucl).toBeCloseTo(10.6, 12);
    expect(v.points[0]?.mr).toBeNull();
    // record 60 is B-2 (no control limits): no rule; its LSL/USL are B-2's
    expect(v.points[60]).toMatchObject({ modelNumber: "B-2", lsl: 9.5, usl: 10.5, lcl: null, rules: [] });
    // record 61 is above its UCL: rule 1
    expect(v.points[61]?.rules).toContain(1);
    expect(v.ruleCounts[1]).toBe(1);
    expect(v.histogram?.counts.reduce((s, c) => s + c, 0)).toBe(120);
    expect(v.mrUcl).toBeCloseTo(3.267 * (v.mrBar as number), 12);
    // '*' (all records): LSL/USL differ between models → no indices; each model has its own.
    const [all, a1, b2] = v.models;
    expect(all).toMatchObject({
      modelNumber: "*",
      n: 120,
      cpk: null,
      note: CAPABILITY_MESSAGES.specLimitsDiffer,
    });
    expect(a1).toMatchObject({ modelNumber: "A-1", n: 80, lsl: 9, usl: 11, note: null });
    expect(b2).toMatchObject({ modelNumber: "B-2", n: 40, lsl: 9.5, usl: 10.5 });
    expect(a1?.cpk).toBeGreaterThan(0);
    const [lo, hi] = a1?.intervals?.cpk ?? [Number.NaN, Number.NaN];
    expect(lo).toBeLessThan(a1?.cpk as number);
    expect(hi).toBeGreaterThan(a1?.cpk as number);
  });

  it("reads one model number's records when asked (a CAP alert's), its indices those of the whole view's model row", async () => {
    const whole = (await get(url(a.line.id, signalId), a.userHeaders)).json() as TCapabilityView;
    const res = await get(`${url(a.line.id, signalId)}&model=B-2`, a.userHeaders);
    expect(res.statusCode).toBe(200);
    const v = res.json() as TCapabilityView;
    expect(v.recordCount).toBe(40);
    expect(new Set(v.points.map((p) => p.modelNumber))).toEqual(new Set(["B-2"]));
    const b2 = whole.models.find((m) => m.modelNumber === "B-2");
    expect(v.models.find((m) => m.modelNumber === "B-2")).toEqual(b2);
    // One model's records share their spec limits: the all-records row has indices now.
    expect(v.models[0]).toMatchObject({ modelNumber: "*", n: 40, ppk: b2?.ppk });
    const empty = (
      await get(`${url(a.line.id, signalId)}&model=Z-9`, a.userHeaders)
    ).json() as TCapabilityView;
    expect(empty.recordCount).toBe(0);
  });

  it("says so when the period has no records", async () => {
    const early = new Date(T0 - 3_600_000).toISOString();
    const v = (await get(url(a.line.id, signalId, early, from), a.userHeaders)).json() as TCapabilityView;
    expect(v.recordCount).toBe(0);
    expect(v.points).toEqual([]);
    expect(v.models).toEqual([]);
  });
});
