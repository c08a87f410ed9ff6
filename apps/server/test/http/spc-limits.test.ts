import {
  SERVER_MESSAGES,
  SIGNAL_MESSAGES,
  SPC_LIMITS_MESSAGES,
  type TSpcSignalLimits,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partRecords, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import { createLine, createStationWithSignals, createTenant, setFeatureFlag } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let sa: Awaited<ReturnType<typeof createStationWithSignals>>;
let sb: Awaited<ReturnType<typeof createStationWithSignals>>;
/** A's second line, with its own signals. */
let other: Awaited<ReturnType<typeof createStationWithSignals>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  sa = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
  sb = await createStationWithSignals(t.database.db, b.customer.id, b.line.id);
  const line2 = await createLine(t.database.db, a.customer.id, a.plant.id);
  other = await createStationWithSignals(t.database.db, a.customer.id, line2.id);
});
afterAll(() => closeTestApp(t));

const url = (lineId: string) => `/api/line-config/spc-signal-limits?line-id=${lineId}`;
const get = (lineId: string, headers?: { cookie: string }) =>
  t.app.inject({ method: "GET", url: url(lineId), headers });
const put = (lineId: string, payload: unknown, headers?: { cookie: string }) =>
  t.app.inject({ method: "PUT", url: url(lineId), headers, payload: payload as object });

const m = (i: number) => sa.measurements[i] as (typeof sa.measurements)[number];
const item = (
  limits: Partial<TSpcSignalLimits["limits"][number]>[],
  signal = m(0),
  lineId = a.line.id,
): TSpcSignalLimits => ({
  lineUUID: lineId,
  stationName: sa.station.name,
  signalUUID: signal.id,
  signalName: signal.name,
  singleSide: null,
  limits: limits.map((l) => ({
    model_number: "*",
    lslFormula: null,
    lclFormula: null,
    uclFormula: null,
    uslFormula: null,
    ...l,
  })),
});

describe("spc limits: access", () => {
  it("answers 401 without a session", async () => {
    expect((await get(a.line.id)).statusCode).toBe(401);
    const res = await put(a.line.id, [item([{ lslFormula: "1" }])]);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
  });

  it("answers 404 for another customer's line and signals", async () => {
    expect((await get(b.line.id, a.userHeaders)).statusCode).toBe(404);
    expect((await put(b.line.id, [], a.userHeaders)).statusCode).toBe(404);
    const foreign = await put(
      a.line.id,
      [item([{ lslFormula: "1" }], sb.measurements[0] as (typeof sb.measurements)[number])],
      a.userHeaders,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(SIGNAL_MESSAGES.notFound);
    // A's own signal on A's other line, sent for this line
    const otherLine = await put(
      a.line.id,
      [item([{ lslFormula: "1" }], other.measurements[0] as (typeof other.measurements)[number])],
      a.userHeaders,
    );
    expect(otherLine.statusCode).toBe(404);
  });

  it("lets a user (not only administrators) read and save limits", async () => {
    expect((await get(a.line.id, a.userHeaders)).statusCode).toBe(200);
    expect((await put(a.line.id, [], a.userHeaders)).statusCode).toBe(200);
  });

  it("answers 400 for a bad line id or body", async () => {
    expect((await get("nope", a.userHeaders)).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/api/line-config/spc-signal-limits",
          headers: a.userHeaders,
        })
      ).statusCode,
    ).toBe(400);
    expect((await put(a.line.id, [{ signalUUID: m(0).id }], a.userHeaders)).statusCode).toBe(400);
  });
});

describe("spc limits: saving", () => {
  it("lists the line's measurements, '*' first, and saves numbers and formulas", async () => {
    const before = (await get(a.line.id, a.userHeaders)).json() as TSpcSignalLimits[];
    expect(before.map((s) => s.signalName)).toEqual(["Retired", "Torque 1", "Torque 2", "Torque 3"]);
    expect(before.every((s) => s.limits.length === 0)).toBe(true);

    const formula = `{${m(1).id}} - 0.5`;
    const res = await put(
      a.line.id,
      [
        item([
          { model_number: "M-2", lslFormula: "2", uslFormula: "8" },
          { model_number: "*", lslFormula: "1", lclFormula: "2", uclFormula: formula, uslFormula: "10" },
        ]),
      ],
      a.userHeaders,
    );
    expect(res.statusCode).toBe(200);
    const saved = (res.json() as TSpcSignalLimits[]).find((s) => s.signalUUID === m(0).id);
    expect(saved?.limits.map((l) => l.model_number)).toEqual(["*", "M-2"]);
    expect(saved?.limits[0]).toMatchObject({ lslFormula: "1", uclFormula: formula, uslFormula: "10" });
    // what the worker reads
    const rows = await t.database.db
      .select()
      .from(spcLimits)
      .where(eq(spcLimits.signalId, m(0).id));
    expect(rows).toHaveLength(2);
  });

  it("replaces only the signals sent", async () => {
    await put(a.line.id, [item([{ lslFormula: "3" }], m(2))], a.userHeaders);
    await put(a.line.id, [item([{ lslFormula: "4" }], m(0))], a.userHeaders);
    const list = (await get(a.line.id, a.userHeaders)).json() as TSpcSignalLimits[];
    expect(list.find((s) => s.signalUUID === m(2).id)?.limits[0]?.lslFormula).toBe("3");
    expect(list.find((s) => s.signalUUID === m(0).id)?.limits).toHaveLength(1);
  });

  it("refuses a formula that does not parse, naming the cell, the model and the position", async () => {
    const res = await put(a.line.id, [item([{ model_number: "M-7", uclFormula: "2 + * 3" }])], a.userHeaders);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("UCL of Torque 1, model M-7: unexpected '*' (at position 4)");
  });

  it("refuses references to another line's or customer's signal", async () => {
    for (const foreign of [other.measurements[0], sb.measurements[0]]) {
      const res = await put(a.line.id, [item([{ lclFormula: `1 + {${foreign?.id}}` }])], a.userHeaders);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        SPC_LIMITS_MESSAGES.cellError(
          "LCL",
          "Torque 1",
          "*",
          SPC_LIMITS_MESSAGES.notOnLine(foreign?.id as string, 4),
        ),
      );
    }
  });

  it("refuses limits out of order, duplicate models and non-measurement signals", async () => {
    const order = await put(a.line.id, [item([{ lslFormula: "5", uslFormula: "5" }])], a.userHeaders);
    expect(order.json().message).toBe("LSL of Torque 1, model *: LSL must be < USL");
    const control = await put(a.line.id, [item([{ lclFormula: "9", uclFormula: "1" }])], a.userHeaders);
    expect(control.json().message).toBe("LCL of Torque 1, model *: LCL must be < UCL");
    const dup = await put(a.line.id, [item([{ lslFormula: "1" }, { lslFormula: "2" }])], a.userHeaders);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe(SPC_LIMITS_MESSAGES.duplicateModel("Torque 1", "*"));
    const result = await put(a.line.id, [item([{ lslFormula: "1" }], sa.result)], a.userHeaders);
    expect(result.statusCode).toBe(400);
  });

  it("with the cap-limits flag on, leaves out rows without a limit; off, keeps them", async () => {
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capLimits", true);
    const on = (await put(a.line.id, [item([{ model_number: "M-1" }], m(1))], a.userHeaders)).json();
    expect(on.find((s: TSpcSignalLimits) => s.signalUUID === m(1).id)?.limits).toEqual([]);
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capLimits", false);
    const off = (await put(a.line.id, [item([{ model_number: "M-1" }], m(1))], a.userHeaders)).json();
    expect(off.find((s: TSpcSignalLimits) => s.signalUUID === m(1).id)?.limits).toHaveLength(1);
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capLimits", true);
  });

  it("with the single-sided flag on, refuses the cells a single-sided signal does not have", async () => {
    await t.database.db
      .update(signals)
      .set({ singleSide: "LOWER" })
      .where(eq(signals.id, m(2).id));
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capSingleSided", true);
    const res = await put(a.line.id, [item([{ lslFormula: "1", uslFormula: "9" }], m(2))], a.userHeaders);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("USL of Torque 3, model *: Single Sided");
    expect((await put(a.line.id, [item([{ lslFormula: "1" }], m(2))], a.userHeaders)).statusCode).toBe(200);
  });
});

/** A tenant's station with two numeric signals (the second a formula's reference) and 150 records, one a minute. */
async function tenantWithRecords() {
  const tn = await createTenant(t.app, t.database.db);
  const db = t.database.db;
  const [station] = await db
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP10", nextNumSlot: 2 })
    .returning();
  if (!station) throw new Error("no station");
  const [force, nominal] = await db
    .insert(signals)
    .values(
      ["Press force", "Force nominal"].map((name, slot) => ({
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
  if (!force || !nominal) throw new Error("no signals");
  const t0 = Date.UTC(2026, 10, 22, 6);
  await db.insert(partRecords).values(
    Array.from({ length: 150 }, (_, i) => ({
      stationId: station.id,
      ts: new Date(t0 + i * 60_000),
      partId: `P-${i}`,
      modelNumber: "AX-100",
      numValues: [10 + ((i * 7) % 13) / 10, 10 + (i % 2) / 10],
    })),
  );
  return { tn, force, nominal, t0 };
}

describe("spc limits: evaluation", () => {
  it("the next evaluation of a cap monitor uses the limits just saved, formulas evaluated per record", async () => {
    const { tn, force, nominal } = await tenantWithRecords();
    const ucl = `{${nominal.id}} + 1.5`;
    const saved = await put(
      tn.line.id,
      [
        {
          lineUUID: tn.line.id,
          stationName: "OP10",
          signalUUID: force.id,
          signalName: force.name,
          singleSide: null,
          limits: [
            { model_number: "*", lslFormula: "9", lclFormula: "9.5", uclFormula: ucl, uslFormula: "12" },
          ],
        },
      ],
      tn.userHeaders,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const preview = await t.app.inject({
      method: "POST",
      url: "/api/monitors/preview",
      headers: tn.userHeaders,
      payload: {
        type: "cap",
        line_id: tn.line.id,
        filter: { signal_uuids: [force.id], sample_size: 150, evaluation_ratio: 0.2 },
      },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const details = preview.json().evaluation.details;
    expect(details.limits).toMatchObject({
      lsl: 9,
      usl: 12,
      lcl: [9.5],
      ucl: [11.5, 11.6],
      formulas: { "*": { lsl: "9", lcl: "9.5", ucl, usl: "12" } },
    });
  });
});

describe("spc limits: a referenced signal converted in Signal Management", () => {
  it("keeps the formula that names it, which goes on reading its values (issue #15)", async () => {
    const { tn, force, nominal } = await tenantWithRecords();
    const ucl = `{${nominal.id}} + 1.5`;
    const body = [
      {
        lineUUID: tn.line.id,
        stationName: "OP10",
        signalUUID: force.id,
        signalName: force.name,
        singleSide: null,
        limits: [
          { model_number: "*", lslFormula: "9", lclFormula: "9.5", uclFormula: ucl, uslFormula: "12" },
        ],
      },
    ];
    expect((await put(tn.line.id, body, tn.userHeaders)).statusCode).toBe(200);
    // The summary dialog named this formula; the user confirms: Force nominal is no longer a measurement.
    const converted = await t.app.inject({
      method: "PATCH",
      url: "/api/signal-attribute-update",
      headers: tn.userHeaders,
      payload: {
        signalRequest: { customer_uuid: tn.customer.id, plant_uuid: tn.plant.id, line_uuid: tn.line.id },
        signals: [{ signal_uuid: nominal.id, signal_attributes: { signal_entity_type: "UNKNOWN" } }],
      },
    });
    expect(converted.statusCode, converted.body).toBe(204);
    // The formula is kept as it was; Force nominal leaves the Cap Limits list (not a measurement).
    const listed = (await get(tn.line.id, tn.userHeaders)).json() as TSpcSignalLimits[];
    expect(listed.map((x) => x.signalUUID)).toEqual([force.id]);
    expect(listed[0]?.limits[0]).toMatchObject({ uclFormula: ucl });
    // The cap evaluation still reads the converted signal's values for the formula.
    const preview = await t.app.inject({
      method: "POST",
      url: "/api/monitors/preview",
      headers: tn.userHeaders,
      payload: {
        type: "cap",
        line_id: tn.line.id,
        filter: { signal_uuids: [force.id], sample_size: 150, evaluation_ratio: 0.2 },
      },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().evaluation.details.limits).toMatchObject({ ucl: [11.5, 11.6] });
    // And the Cap Limits page can save the row again as it is.
    expect((await put(tn.line.id, body, tn.userHeaders)).statusCode).toBe(200);
  });
});

describe("spc limits: suggest control limits", () => {
  it("gives mean ± 3 σ within per model and for '*' over the period marked stable", async () => {
    const { tn, force, t0 } = await tenantWithRecords();
    const url = `/api/line-config/spc-signal-limits/suggest?line-id=${tn.line.id}`;
    const body = (from: number, to: number, signalUUID = force.id) => ({
      signalUUID,
      from: new Date(t0 + from * 60_000).toISOString(),
      to: new Date(t0 + to * 60_000).toISOString(),
    });
    expect((await t.app.inject({ method: "POST", url, payload: body(0, 10) })).statusCode).toBe(401);
    const foreign = await t.app.inject({ method: "POST", url, headers: a.userHeaders, payload: body(0, 10) });
    expect(foreign.statusCode).toBe(404);
    const backwards = await t.app.inject({
      method: "POST",
      url,
      headers: tn.userHeaders,
      payload: body(10, 0),
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe(SPC_LIMITS_MESSAGES.suggestOrder);

    // records 0..3: 10, 10.7, 10.1, 10.8 → mean 10.4, moving ranges 0.7, 0.6, 0.7 → σ 2/3/1.128
    const res = await t.app.inject({ method: "POST", url, headers: tn.userHeaders, payload: body(0, 3) });
    expect(res.statusCode, res.body).toBe(200);
    const [star, model] = res.json();
    const sigma = 2 / 3 / 1.128;
    expect(star).toMatchObject({ model_number: "*", n: 4 });
    expect(star.lcl).toBeCloseTo(10.4 - 3 * sigma, 5);
    expect(star.ucl).toBeCloseTo(10.4 + 3 * sigma, 5);
    expect(model).toMatchObject({ model_number: "AX-100", n: 4, lcl: star.lcl, ucl: star.ucl });
    // Too few values to call neighbouring parts alike: the moving range, with its expected rate.
    expect(star).toMatchObject({ basis: "moving_range", isAutocorrelated: false });
    expect(star.movingRange).toMatchObject({ lcl: star.lcl, ucl: star.ucl });
    expect(star.expectedFalseAlarmRate).toBe(star.movingRange.expectedFalseAlarmRate);
  });

  it("measures the period's autocorrelation and, where neighbouring parts are alike, suggests from the overall σ (issue 29)", async () => {
    const { tn, force, t0 } = await tenantWithRecords();
    // A slow drift (a temperature cycle of 60 parts) on another station's signal: neighbours alike.
    const db = t.database.db;
    const [station] = await db
      .insert(stations)
      .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP20", nextNumSlot: 1 })
      .returning();
    if (!station) throw new Error("no station");
    const [drift] = await db
      .insert(signals)
      .values({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        stationId: station.id,
        name: "Bore",
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot: 0,
      })
      .returning();
    if (!drift) throw new Error("no signal");
    await db.insert(partRecords).values(
      Array.from({ length: 150 }, (_, i) => ({
        stationId: station.id,
        ts: new Date(t0 + i * 60_000),
        partId: `B-${i}`,
        numValues: [20 + Math.sin((2 * Math.PI * i) / 60) + (((i * 7) % 5) - 2) / 20],
      })),
    );
    const url = `/api/line-config/spc-signal-limits/suggest?line-id=${tn.line.id}`;
    const payload = {
      signalUUID: drift.id,
      from: new Date(t0).toISOString(),
      to: new Date(t0 + 150 * 60_000).toISOString(),
    };
    const res = await t.app.inject({ method: "POST", url, headers: tn.userHeaders, payload });
    expect(res.statusCode, res.body).toBe(200);
    const [star] = res.json();
    expect(star).toMatchObject({ model_number: "*", n: 150, basis: "overall", isAutocorrelated: true });
    expect(star.lag1Autocorrelation).toBeGreaterThan(0.9);
    expect(star.sigmaRatio).toBeGreaterThan(3);
    expect([star.lcl, star.ucl]).toEqual([star.overall.lcl, star.overall.ucl]);
    expect(star.movingRange.expectedFalseAlarmRate).toBeGreaterThan(0.3);
    expect(star.expectedFalseAlarmRate).toBe(star.overall.expectedFalseAlarmRate);
    expect(star.ucl - star.lcl).toBeGreaterThan(3 * (star.movingRange.ucl - star.movingRange.lcl));
    // The other signal's period is unchanged by it.
    const other = await t.app.inject({
      method: "POST",
      url,
      headers: tn.userHeaders,
      payload: { ...payload, signalUUID: force.id },
    });
    expect(other.json()[0].basis).toBe("moving_range");
  });
});
