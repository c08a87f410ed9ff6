// GET /api/alerts/:alertId/evaluations/:evaluationId/values: the values an SVD or CAP evaluation
// judged, read again from its window up to its newest record; any signed-in user; 404 across
// customers and for an evaluation of another monitor.
import { randomUUID } from "node:crypto";
import { ALERT_MESSAGES, ZEvaluationValues } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, monitors, partRecords, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import { applyEvaluation } from "../../src/worker/alerts/apply.js";
import { createEvaluation, createMonitorRow, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ mvdQueryMaxRecordCount: 500 });
});
afterAll(() => closeTestApp(t));

const db = () => t.database.db;
const T0 = Date.UTC(2026, 10, 22, 6);
/** Record i of a station: one a minute from T0, part P-i. */
const at = (i: number) => new Date(T0 + i * 60_000);
/** The measured value of record i (record 60 has none). */
const forceOf = (i: number) => (i === 60 ? null : 10 + ((i * 7) % 13) / 10);
/** The reference signal's value of record i (the UCL formula adds 1.5 to it). */
const refOf = (i: number) => 10 + (i % 2) / 10;

/** A tenant with one station of two numeric signals (the second a limit reference) and 200 records. */
async function tenantWithRecords() {
  const tn = await createTenant(t.app, db());
  const [station] = await db()
    .insert(stations)
    .values({ customerId: tn.customer.id, lineId: tn.line.id, name: "OP10", nextNumSlot: 2 })
    .returning();
  if (!station) throw new Error("no station");
  const [signal, ref] = await db()
    .insert(signals)
    .values(
      ["Press force", "Force nominal"].map((name, slot) => ({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        stationId: station.id,
        name,
        unit: "kN",
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    )
    .returning();
  if (!signal || !ref) throw new Error("no signals");
  await db()
    .insert(partRecords)
    .values(
      Array.from({ length: 200 }, (_, i) => ({
        stationId: station.id,
        ts: at(i),
        partId: `P-${i}`,
        modelNumber: "AX-100",
        numValues: [forceOf(i), refOf(i)],
      })),
    );
  return { ...tn, signal, ref };
}

type Tenant = Awaited<ReturnType<typeof tenantWithRecords>>;

/** A monitor of `type` on the signal whose breach at record `last` opened an alert. */
async function alertOf(
  tn: Tenant,
  type: "svd" | "cap" | "mvd",
  evaluation: { last: number; trainingSize: number; evaluationSize: number; details?: unknown },
) {
  // Saved an hour before the evaluation (the evaluation's time is the test clock).
  const saved = new Date(t.now.value.getTime() - 3_600_000);
  const monitor = await createMonitorRow(db(), tn.line, {
    type,
    createdAt: saved,
    updatedAt: saved,
    filter: { signal_uuids: [tn.signal.id], signal_group_uuids: [], sample_size: 100, evaluation_ratio: 0.3 },
  });
  const ev = await db().transaction(async (tx) => {
    const row = await createEvaluation(tx as never, monitor, {
      state: "BREACH",
      slot: t.now.value,
      evaluatedAt: t.now.value,
      score: 0.5,
      threshold: 1.33,
      trainingSize: evaluation.trainingSize,
      evaluationSize: evaluation.evaluationSize,
      lastRecordTs: at(evaluation.last),
      details: evaluation.details ?? null,
    });
    await applyEvaluation(tx, row, { now: t.now.value });
    return row;
  });
  const [alert] = await db().select().from(alerts).where(eq(alerts.monitorId, monitor.id));
  if (!alert) throw new Error("no alert");
  return { monitor, evaluation: ev, alert };
}

const url = (alertId: string, evaluationId: string) =>
  `/api/alerts/${alertId}/evaluations/${evaluationId}/values`;
const get = (alertId: string, evaluationId: string, headers: { cookie: string }) =>
  t.app.inject({ method: "GET", url: url(alertId, evaluationId), headers });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

describe("SVD values", () => {
  it("answers the training and evaluation values of the window up to the evaluation's newest record", async () => {
    const tn = await tenantWithRecords();
    // sample_size 100, ratio 0.3, newest record 149: records 50–149; evaluation 120–149, training
    // 50–119 of which record 60 has no value (left out, as the evaluation left it out).
    const a = await alertOf(tn, "svd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    // A record 1 ms after the evaluation's newest is not part of its window.
    await db()
      .insert(partRecords)
      .values({
        stationId: tn.signal.stationId,
        ts: new Date(at(149).getTime() + 1),
        partId: "P-late",
        modelNumber: "AX-100",
        numValues: [99, 10],
      });
    const res = await get(a.alert.id, a.evaluation.id, tn.userHeaders);
    expect(res.statusCode).toBe(200);
    const body = ZEvaluationValues.parse(res.json());
    if (body.type !== "svd") throw new Error("not svd");
    expect(body.training).toEqual(range(50, 120).flatMap((i) => forceOf(i) ?? []));
    expect(body.evaluation).toEqual(range(120, 150).map((i) => forceOf(i)));
    expect(body).toMatchObject({
      evaluationId: a.evaluation.id,
      signal: { id: tn.signal.id, name: "Press force", unit: "kN" },
      lastRecordTs: at(149).toISOString(),
      windowSize: 100,
      trainingFrom: at(50).toISOString(),
      evaluationFrom: at(120).toISOString(),
      isMonitorChanged: false,
      isSameAsEvaluated: true,
    });
  });

  it("says when the monitor changed after the evaluation or the sizes differ from the stored ones", async () => {
    const tn = await tenantWithRecords();
    const a = await alertOf(tn, "svd", { last: 149, trainingSize: 70, evaluationSize: 30 });
    let body = (await get(a.alert.id, a.evaluation.id, tn.userHeaders)).json();
    expect(body).toMatchObject({ isMonitorChanged: false, isSameAsEvaluated: false });
    await db()
      .update(monitors)
      .set({ updatedAt: new Date(t.now.value.getTime() + 60_000) })
      .where(eq(monitors.id, a.monitor.id));
    body = (await get(a.alert.id, a.evaluation.id, tn.userHeaders)).json();
    expect(body).toMatchObject({ isMonitorChanged: true, isSameAsEvaluated: false });
  });

  it("reads at most MVD_QUERY_MAX_RECORD_COUNT records", async () => {
    const tn = await tenantWithRecords();
    const a = await alertOf(tn, "svd", { last: 199, trainingSize: 1, evaluationSize: 1 });
    await db()
      .update(monitors)
      .set({ filter: { signal_uuids: [tn.signal.id], sample_size: 5000, evaluation_ratio: 0.01 } })
      .where(eq(monitors.id, a.monitor.id));
    const body = (await get(a.alert.id, a.evaluation.id, tn.userHeaders)).json();
    // The test app's maximum is 500 and the line holds 200 records: all of them, 50 evaluated.
    expect(body.windowSize).toBe(200);
    expect(body.evaluation).toHaveLength(50);
  });
});

describe("CAP values", () => {
  it("answers the evaluation records with the limits their formulas give, and the stored limits and indices", async () => {
    const tn = await tenantWithRecords();
    await db()
      .insert(spcLimits)
      .values({
        customerId: tn.customer.id,
        lineId: tn.line.id,
        signalId: tn.signal.id,
        modelNumber: "*",
        lslFormula: "9",
        lclFormula: "9.5",
        uclFormula: `{${tn.ref.id}} + 1.5`,
        uslFormula: "12",
      });
    const details = {
      cp: 1.1,
      cpk: 1.05,
      pp: 1.2,
      ppk: 0.9,
      cpkTarget: 1.33,
      limits: { lsl: 9, usl: 12, lcl: [9.5], ucl: [11.5, 11.6] },
    };
    const a = await alertOf(tn, "cap", { last: 179, trainingSize: 70, evaluationSize: 30, details });
    const res = await get(a.alert.id, a.evaluation.id, tn.userHeaders);
    expect(res.statusCode).toBe(200);
    const body = ZEvaluationValues.parse(res.json());
    if (body.type !== "cap") throw new Error("not cap");
    expect(body.records).toEqual(
      range(150, 180).map((i) => ({
        ts: at(i).toISOString(),
        partId: `P-${i}`,
        modelNumber: "AX-100",
        value: forceOf(i),
        lsl: 9,
        lcl: 9.5,
        ucl: refOf(i) + 1.5,
        usl: 12,
      })),
    );
    expect(body.limits).toEqual(details.limits);
    expect(body.indices).toEqual({ cp: 1.1, cpk: 1.05, pp: 1.2, ppk: 0.9, cpkTarget: 1.33 });
    expect(body).toMatchObject({ windowSize: 100, isSameAsEvaluated: true });
  });

  it("keeps only the lower limits of a signal single-sided LOWER", async () => {
    const tn = await tenantWithRecords();
    await db().update(signals).set({ singleSide: "LOWER" }).where(eq(signals.id, tn.signal.id));
    await db().insert(spcLimits).values({
      customerId: tn.customer.id,
      lineId: tn.line.id,
      signalId: tn.signal.id,
      lslFormula: "9",
      lclFormula: "9.5",
      uclFormula: "11.5",
      uslFormula: "12",
    });
    const a = await alertOf(tn, "cap", { last: 179, trainingSize: 70, evaluationSize: 30 });
    const body = (await get(a.alert.id, a.evaluation.id, tn.userHeaders)).json();
    expect(body.records[0]).toMatchObject({ lsl: 9, lcl: 9.5, ucl: null, usl: null });
    expect(body.indices).toEqual({ cp: null, cpk: null, pp: null, ppk: null, cpkTarget: null });
  });
});

describe("access", () => {
  it("answers 401 without a session and 400 for ids that are not uuids", async () => {
    const tn = await tenantWithRecords();
    const a = await alertOf(tn, "svd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    expect((await t.app.inject({ method: "GET", url: url(a.alert.id, a.evaluation.id) })).statusCode).toBe(
      401,
    );
    expect((await get("x", a.evaluation.id, tn.userHeaders)).statusCode).toBe(400);
    expect((await get(a.alert.id, "x", tn.userHeaders)).statusCode).toBe(400);
  });

  it("answers 404 for another customer's alert or evaluation and for an evaluation of another monitor", async () => {
    const tn = await tenantWithRecords();
    const other = await tenantWithRecords();
    const a = await alertOf(tn, "svd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    const b = await alertOf(other, "svd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    const second = await alertOf(tn, "cap", { last: 149, trainingSize: 69, evaluationSize: 30 });
    const cases: [string, string, string][] = [
      [a.alert.id, a.evaluation.id, "the other customer's user asks for an alert of this one"],
      [b.alert.id, a.evaluation.id, "their alert with this customer's evaluation"],
    ];
    for (const [alertId, evaluationId, why] of cases) {
      const res = await get(alertId, evaluationId, other.userHeaders);
      expect(res.statusCode, why).toBe(404);
    }
    expect((await get(a.alert.id, a.evaluation.id, other.userHeaders)).json()).toEqual({
      message: ALERT_MESSAGES.notFound,
    });
    for (const [alertId, evaluationId] of [
      [a.alert.id, b.evaluation.id],
      [a.alert.id, second.evaluation.id],
      [a.alert.id, randomUUID()],
    ] as const) {
      const res = await get(alertId, evaluationId, tn.userHeaders);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: ALERT_MESSAGES.evaluationNotFound });
    }
    expect((await get(randomUUID(), a.evaluation.id, tn.userHeaders)).statusCode).toBe(404);
  });

  it("any signed-in user, not only administrators; an MVD evaluation answers 400", async () => {
    const tn = await tenantWithRecords();
    const a = await alertOf(tn, "svd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    expect((await get(a.alert.id, a.evaluation.id, tn.userHeaders)).statusCode).toBe(200);
    expect((await get(a.alert.id, a.evaluation.id, tn.adminHeaders)).statusCode).toBe(200);
    const m = await alertOf(tn, "mvd", { last: 149, trainingSize: 69, evaluationSize: 30 });
    const res = await get(m.alert.id, m.evaluation.id, tn.userHeaders);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: ALERT_MESSAGES.valuesNotForMvd });
  });
});

describe("OpenAPI", () => {
  it("documents the route with its SVD and CAP answers", async () => {
    const doc = (await t.app.inject({ url: "/api/docs/json" })).json();
    const op = doc.paths["/api/alerts/{alertId}/evaluations/{evaluationId}/values"]?.get;
    expect(op?.operationId).toBe("getAlertEvaluationValues");
    const schema = JSON.stringify(op?.responses?.["200"]);
    expect(schema).toContain('"svd"');
    expect(schema).toContain('"cap"');
  });
});
