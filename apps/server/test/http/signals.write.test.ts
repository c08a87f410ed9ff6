import {
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SERVER_MESSAGES,
  SIGNAL_MESSAGES,
  type TSignal,
  type TStation,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resultClassifications, signals, spcLimits, stations } from "../../src/db/schema/index.js";
import { createStationWithSignals, createTenant, setFeatureFlag } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// Signal Management's writes (requirements.md settings §7, rules of §4 and §5): each route answers 401 without
// a session, 404 for another customer's ids, 400 with the spec's message on a broken rule, and
// applies a request all or nothing.

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let sa: Awaited<ReturnType<typeof createStationWithSignals>>;
let sb: Awaited<ReturnType<typeof createStationWithSignals>>;
/** A station of A's line with only measurements (no result signal). */
let bare: { id: string };
let upper: typeof signals.$inferSelect;
let lower: typeof signals.$inferSelect;
let result2: typeof signals.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  sa = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
  sb = await createStationWithSignals(t.database.db, b.customer.id, b.line.id);
  const db = t.database.db;
  const [st] = await db
    .insert(stations)
    .values({ customerId: a.customer.id, lineId: a.line.id, name: "OP999 Bare" })
    .returning();
  bare = st as { id: string };
  const add = async (
    name: string,
    entityType: TSignal["entityType"],
    storage: "num" | "text",
    slot: number,
  ) => {
    const [row] = await db
      .insert(signals)
      .values({
        customerId: a.customer.id,
        lineId: a.line.id,
        stationId: sa.station.id,
        name,
        entityType,
        storage,
        slot,
      })
      .returning();
    return row as typeof signals.$inferSelect;
  };
  upper = await add("Torque USL", "UPPER_LIMIT", "num", 50);
  lower = await add("Torque LSL", "LOWER_LIMIT", "num", 51);
  result2 = await add("Leak Result", "RESULT", "text", 52);
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
const patch = (url: string, headers: Headers | undefined, payload: unknown) =>
  t.app.inject({ method: "PATCH", url, headers, payload: payload as object });

const request = (tenant = a) => ({
  customer_uuid: tenant.customer.id,
  plant_uuid: tenant.plant.id,
  line_uuid: tenant.line.id,
});
const attrs = (signalsBody: { signal_uuid: string; signal_attributes: object }[], tenant = a) => ({
  signalRequest: request(tenant),
  signals: signalsBody,
});
const classifications = (pass: string[], fail: string[] = [], other: string[] = []) => ({
  resultClassifications: {
    pass: pass.map((value) => ({ value, failureMode: null })),
    fail: fail.map((value) => ({ value, failureMode: "Leak" })),
    other: other.map((value) => ({ value, failureMode: null })),
  },
});

const signalRow = async (id: string) => {
  const [row] = await t.database.db.select().from(signals).where(eq(signals.id, id));
  return row as typeof signals.$inferSelect;
};
const classificationValues = async (signalId: string) =>
  (
    await t.database.db
      .select({ value: resultClassifications.value, result: resultClassifications.result })
      .from(resultClassifications)
      .where(eq(resultClassifications.signalId, signalId))
  )
    .map((r) => `${r.value}:${r.result}`)
    .sort();

const m0 = () => sa.measurements[0]?.id as string;
const m1 = () => sa.measurements[1]?.id as string;

const routes = (): [string, unknown][] => [
  [`/api/stations/${sa.station.id}`, { final: true }],
  [
    "/api/signal-attribute-update",
    attrs([{ signal_uuid: m0(), signal_attributes: { signal_active: true } }]),
  ],
  ["/api/signals", [{ id: m0(), singleSide: null }]],
  ["/api/signal/result-classifications", { [sa.result.id]: classifications(["OK"]) }],
];

describe("signal management: access", () => {
  it("answers 401 without a session", async () => {
    for (const [url, payload] of routes()) {
      const res = await patch(url, undefined, payload);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
    }
  });

  it("answers 404 to another customer for every id, and changes nothing", async () => {
    for (const [url, payload] of routes()) {
      const res = await patch(url, b.userHeaders, payload);
      expect(res.statusCode, url).toBe(404);
    }
    // B's own request naming one of A's signals
    const mixed = await patch(
      "/api/signal-attribute-update",
      b.userHeaders,
      attrs(
        [
          {
            signal_uuid: sb.measurements[0]?.id as string,
            signal_attributes: { signal_friendly_name: "Mine" },
          },
          { signal_uuid: m0(), signal_attributes: { signal_friendly_name: "Stolen" } },
        ],
        b,
      ),
    );
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().message).toBe(SIGNAL_MESSAGES.notFound);
    expect((await signalRow(m0())).friendlyName).toBeNull();
    expect((await signalRow(sb.measurements[0]?.id as string)).friendlyName).toBeNull();
    // A's line with B's customer id
    const wrongCustomer = await patch("/api/signal-attribute-update", a.userHeaders, {
      ...attrs([{ signal_uuid: m0(), signal_attributes: {} }]),
      signalRequest: { ...request(), customer_uuid: b.customer.id },
    });
    expect(wrongCustomer.statusCode).toBe(404);
    const station = await patch(`/api/stations/${sb.station.id}`, a.userHeaders, { final: false });
    expect(station.statusCode).toBe(404);
    expect(station.json().message).toBe(MSG.stationNotFound);
  });

  it("answers 400 to malformed bodies", async () => {
    expect((await patch(`/api/stations/${sa.station.id}`, a.userHeaders, {})).statusCode).toBe(400);
    expect((await patch("/api/stations/nope", a.userHeaders, { final: true })).statusCode).toBe(400);
    expect((await patch("/api/signal-attribute-update", a.userHeaders, attrs([]))).statusCode).toBe(400);
    const mixedQuality = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: m0(), signal_attributes: { quality_characteristic: "mixed" } }]),
    );
    expect(mixedQuality.statusCode).toBe(400);
    expect((await patch("/api/signals", a.userHeaders, [{ id: m0(), singleSide: "BOTH" }])).statusCode).toBe(
      400,
    );
    expect((await patch("/api/signal/result-classifications", a.userHeaders, {})).statusCode).toBe(400);
  });
});

describe("PATCH /api/stations/{stationId}: the final station", () => {
  it("marks a station holding a result signal final (204) and unmarks it", async () => {
    const on = await patch(`/api/stations/${sa.station.id}`, a.userHeaders, { final: true });
    expect(on.statusCode, on.body).toBe(204);
    const list = (
      await t.app.inject({ url: `/api/lines/${a.line.id}/signals`, headers: a.userHeaders })
    ).json() as TStation[];
    expect(list.find((s) => s.id === sa.station.id)?.final).toBe(true);
    expect((await patch(`/api/stations/${sa.station.id}`, a.userHeaders, { final: false })).statusCode).toBe(
      204,
    );
  });

  it("refuses to make a station without a result signal final", async () => {
    const res = await patch(`/api/stations/${bare.id}`, a.userHeaders, { final: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.finalStationNeedsResult);
  });
});

describe("PATCH /api/signal-attribute-update", () => {
  beforeEach(async () => {
    await t.database.db
      .update(signals)
      .set({
        friendlyName: null,
        upperLimitSignalId: null,
        lowerLimitSignalId: null,
        resultSignalId: sa.result.id,
      })
      .where(eq(signals.id, m0()));
  });

  it("sets friendly name, status and quality characteristic (204); an empty name clears it", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        {
          signal_uuid: m0(),
          signal_attributes: { signal_friendly_name: "Spindle torque", quality_characteristic: "CRITICAL" },
        },
        { signal_uuid: m1(), signal_attributes: { signal_active: false } },
      ]),
    );
    expect(res.statusCode, res.body).toBe(204);
    expect((await signalRow(m0())).friendlyName).toBe("Spindle torque");
    expect((await signalRow(m0())).qualityCharacteristic).toBe("CRITICAL");
    expect((await signalRow(m1())).isSignalActive).toBe(false);
    const cleared = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        { signal_uuid: m0(), signal_attributes: { signal_friendly_name: "" } },
        { signal_uuid: m1(), signal_attributes: { signal_active: true } },
      ]),
    );
    expect(cleared.statusCode).toBe(204);
    expect((await signalRow(m0())).friendlyName).toBeNull();
  });

  it("refuses a friendly name with leading spaces", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: m0(), signal_attributes: { signal_friendly_name: " Torque" } }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(MSG.noLeadingSpaces);
  });

  it("associates limits and a result with a measurement, and null clears them", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        {
          signal_uuid: m0(),
          signal_attributes: { upper_limit: upper.id, lower_limit: lower.id, result: result2.id },
        },
      ]),
    );
    expect(res.statusCode, res.body).toBe(204);
    const row = await signalRow(m0());
    expect([row.upperLimitSignalId, row.lowerLimitSignalId, row.resultSignalId]).toEqual([
      upper.id,
      lower.id,
      result2.id,
    ]);
    await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: m0(), signal_attributes: { upper_limit: null, result: null } }]),
    );
    const after = await signalRow(m0());
    expect([after.upperLimitSignalId, after.lowerLimitSignalId, after.resultSignalId]).toEqual([
      null,
      lower.id,
      null,
    ]);
  });

  it("converts a signal dropped into a container and associates it in the same request", async () => {
    const spare = sa.measurements[2]?.id as string;
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        { signal_uuid: spare, signal_attributes: { signal_entity_type: "UPPER_LIMIT" } },
        { signal_uuid: m0(), signal_attributes: { upper_limit: spare } },
      ]),
    );
    expect(res.statusCode, res.body).toBe(204);
    expect((await signalRow(spare)).entityType).toBe("UPPER_LIMIT");
    expect((await signalRow(m0())).upperLimitSignalId).toBe(spare);
    // and back: the measurement loses the association the conversion breaks
    const back = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: spare, signal_attributes: { signal_entity_type: "MEASUREMENT" } }]),
    );
    expect(back.statusCode).toBe(204);
    expect((await signalRow(m0())).upperLimitSignalId).toBeNull();
  });

  it("an entity type change dissociates what it breaks: a measurement that stops being one loses its own", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: m0(), signal_attributes: { signal_entity_type: "UNKNOWN" } }]),
    );
    expect(res.statusCode).toBe(204);
    const row = await signalRow(m0());
    expect(row.entityType).toBe("UNKNOWN");
    expect(row.resultSignalId).toBeNull();
    await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: m0(), signal_attributes: { signal_entity_type: "MEASUREMENT" } }]),
    );
  });

  it("refuses an association to a signal of the wrong type, all or nothing", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        { signal_uuid: m1(), signal_attributes: { signal_friendly_name: "Should not stay" } },
        { signal_uuid: m0(), signal_attributes: { upper_limit: lower.id } },
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.associationWrongType(lower.name, "upperLimit"));
    expect((await signalRow(m1())).friendlyName).toBeNull();
    expect((await signalRow(m0())).upperLimitSignalId).toBeNull();
  });

  it("refuses associations on a signal that is not a measurement", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: upper.id, signal_attributes: { result: sa.result.id } }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.associationsOnlyOnMeasurements(upper.name));
  });

  it("refuses an entity type the stored values cannot take (text → measurement)", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([{ signal_uuid: sa.attribute.id, signal_attributes: { signal_entity_type: "MEASUREMENT" } }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.entityTypeStorage("Shift", "MEASUREMENT"));
  });

  it("refuses an entity type whose selection flag is off (403), allows it once on", async () => {
    const body = attrs([
      { signal_uuid: sa.attribute.id, signal_attributes: { signal_entity_type: "COMPONENT_ID" } },
    ]);
    const off = await patch("/api/signal-attribute-update", a.userHeaders, body);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(MSG.entityTypeDisabled("COMPONENT_ID"));
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "componentEntityTypeSelection", true);
    try {
      expect((await patch("/api/signal-attribute-update", a.userHeaders, body)).statusCode).toBe(204);
      expect((await signalRow(sa.attribute.id)).entityType).toBe("COMPONENT_ID");
    } finally {
      await setFeatureFlag(t.app, t.database.db, a.customer.id, "componentEntityTypeSelection", false);
      await t.database.db
        .update(signals)
        .set({ entityType: "PART_ATTRIBUTE" })
        .where(eq(signals.id, sa.attribute.id));
    }
  });

  it("lists which signals have cap limits (the entity type summary names them)", async () => {
    await t.database.db.insert(spcLimits).values({
      customerId: a.customer.id,
      lineId: a.line.id,
      signalId: m1(),
      modelNumber: "*",
      uslFormula: "10",
    });
    const list = (
      await t.app.inject({ url: `/api/lines/${a.line.id}/signals`, headers: a.userHeaders })
    ).json() as TStation[];
    const all = list.flatMap((st) => st.signals);
    expect(all.find((x) => x.id === m1())?.hasCapLimits).toBe(true);
    expect(all.find((x) => x.id === m0())?.hasCapLimits).toBe(false);
  });

  it("refuses a signal named twice", async () => {
    const res = await patch(
      "/api/signal-attribute-update",
      a.userHeaders,
      attrs([
        { signal_uuid: m0(), signal_attributes: { signal_active: true } },
        { signal_uuid: m0(), signal_attributes: { signal_active: false } },
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.duplicateSignal);
  });
});

describe("PATCH /api/signals: single-sided boundaries", () => {
  it("answers 403 while the single-sided flag is off, 204 once on; only measurements", async () => {
    const body = [{ id: m0(), singleSide: "LOWER" }];
    const off = await patch("/api/signals", a.userHeaders, body);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(MSG.singleSidedDisabled);
    await setFeatureFlag(t.app, t.database.db, a.customer.id, "capSingleSided", true);
    try {
      expect((await patch("/api/signals", a.userHeaders, body)).statusCode).toBe(204);
      expect((await signalRow(m0())).singleSide).toBe("LOWER");
      const notMeasurement = await patch("/api/signals", a.userHeaders, [
        { id: m1(), singleSide: null },
        { id: upper.id, singleSide: "UPPER" },
      ]);
      expect(notMeasurement.statusCode).toBe(400);
      expect(notMeasurement.json().message).toBe(MSG.singleSideOnlyMeasurements(upper.name));
      expect((await patch("/api/signals", a.userHeaders, [{ id: m0(), singleSide: null }])).statusCode).toBe(
        204,
      );
      expect((await signalRow(m0())).singleSide).toBeNull();
    } finally {
      await setFeatureFlag(t.app, t.database.db, a.customer.id, "capSingleSided", false);
    }
  });
});

describe("PATCH /api/signal/result-classifications", () => {
  it("replaces each result signal's classifications (204) and the associated answer shows them", async () => {
    const res = await patch("/api/signal/result-classifications", a.userHeaders, {
      [sa.result.id]: classifications(["OK", "PASS2"], ["NOK"], ["SKIP"]),
      [result2.id]: classifications(["OK"], ["LEAK"]),
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await classificationValues(sa.result.id)).toEqual([
      "NOK:fail",
      "OK:pass",
      "PASS2:pass",
      "SKIP:other",
    ]);
    expect(await classificationValues(result2.id)).toEqual(["LEAK:fail", "OK:pass"]);
    const assoc = await t.app.inject({
      method: "POST",
      url: "/api/signal/associated-result-classifications",
      headers: a.userHeaders,
      payload: [m0()],
    });
    expect(
      assoc.json()[m0()].associatedResultClassifications.pass.map((p: { value: string }) => p.value),
    ).toEqual(["OK", "PASS2"]);
  });

  it("refuses empty and repeated values with the spec's messages", async () => {
    const empty = await patch("/api/signal/result-classifications", a.userHeaders, {
      [sa.result.id]: classifications([" "]),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain(MSG.classificationEmpty);
    const twice = await patch("/api/signal/result-classifications", a.userHeaders, {
      [sa.result.id]: classifications(["OK"], ["OK"]),
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain(MSG.classificationExists);
  });

  it("refuses signals that are not results, all or nothing", async () => {
    const before = await classificationValues(sa.result.id);
    const res = await patch("/api/signal/result-classifications", a.userHeaders, {
      [sa.result.id]: classifications(["CHANGED"]),
      [m0()]: classifications(["OK"]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.allMustBeResults);
    expect(await classificationValues(sa.result.id)).toEqual(before);
  });
});
