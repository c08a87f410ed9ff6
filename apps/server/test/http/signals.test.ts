import { SERVER_MESSAGES, SIGNAL_MESSAGES, type TStation } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStationWithSignals, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let sa: Awaited<ReturnType<typeof createStationWithSignals>>;
let sb: Awaited<ReturnType<typeof createStationWithSignals>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  sa = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
  sb = await createStationWithSignals(t.database.db, b.customer.id, b.line.id);
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
type Method = "GET" | "POST";
const call = (method: Method, url: string, headers?: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const routes = (): [Method, string, unknown?][] => [
  ["GET", `/api/lines/${a.line.id}/signals`],
  ["GET", `/api/lines/${a.line.id}/part-attributes`],
  ["GET", `/api/lines/${a.line.id}/model-numbers`],
  ["POST", "/api/signal-groups", { customerUuid: a.customer.id, plantUuid: a.plant.id, lineUuid: a.line.id }],
  ["POST", "/api/signal/associated-result-classifications", [sa.measurements[0]?.id]],
];

describe("signals: access", () => {
  it("answers 401 without a session", async () => {
    for (const [method, url, payload] of routes()) {
      const res = await call(method, url, undefined, payload);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
    }
  });

  it("answers 404 for another customer's line and signals", async () => {
    for (const [method, url, payload] of routes()) {
      const res = await call(method, url, b.userHeaders, payload);
      expect(res.statusCode, url).toBe(404);
    }
    const mixed = await call("POST", "/api/signal/associated-result-classifications", a.userHeaders, [
      sa.measurements[0]?.id,
      sb.measurements[0]?.id,
    ]);
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().message).toBe(SIGNAL_MESSAGES.notFound);
    // A's customer with B's line
    const groups = await call("POST", "/api/signal-groups", a.userHeaders, {
      customerUuid: a.customer.id,
      plantUuid: b.plant.id,
      lineUuid: b.line.id,
    });
    expect(groups.statusCode).toBe(404);
  });

  it("answers 400 for bad bodies and ids", async () => {
    expect((await call("GET", "/api/lines/not-a-uuid/signals", a.userHeaders)).statusCode).toBe(400);
    expect(
      (await call("POST", "/api/signal-groups", a.userHeaders, { lineUuid: a.line.id })).statusCode,
    ).toBe(400);
    expect(
      (await call("POST", "/api/signal/associated-result-classifications", a.userHeaders, [])).statusCode,
    ).toBe(400);
    expect(
      (await call("POST", "/api/signal/associated-result-classifications", a.userHeaders, ["x"])).statusCode,
    ).toBe(400);
  });
});

describe("signals: answers", () => {
  it("lists stations with their signals; ?active=true leaves out inactive ones", async () => {
    const res = await call("GET", `/api/lines/${a.line.id}/signals`, a.userHeaders);
    expect(res.statusCode).toBe(200);
    const [station] = res.json() as TStation[];
    expect(station?.name).toBe(sa.station.name);
    const first = station?.signals.find((s) => s.id === sa.measurements[0]?.id);
    expect(first).toEqual({
      id: sa.measurements[0]?.id,
      name: "Torque 1",
      friendlyName: null,
      entityType: "MEASUREMENT",
      isSignalActive: true,
      qualityCharacteristic: "NONE",
      stationName: sa.station.name,
      upperLimit: null,
      lowerLimit: null,
      result: sa.result.id,
      singleSide: null,
      storage: "num",
      hasCapLimits: false,
    });
    expect(station?.signals.map((s) => s.id)).toContain(sa.inactive.id);
    const active = (
      await call("GET", `/api/lines/${a.line.id}/signals?active=true`, a.userHeaders)
    ).json() as TStation[];
    expect(active[0]?.signals.map((s) => s.id)).not.toContain(sa.inactive.id);
  });

  it("lists part attributes with their values and model numbers", async () => {
    const attrs = await call("GET", `/api/lines/${a.line.id}/part-attributes`, a.userHeaders);
    expect(attrs.json()).toEqual([
      {
        attributeUuid: sa.attribute.id,
        attributeName: "Shift",
        stationName: sa.station.name,
        isSignalActive: true,
        attributeValues: ["A", "B"],
      },
    ]);
    const models = await call("GET", `/api/lines/${a.line.id}/model-numbers`, a.userHeaders);
    expect(models.statusCode).toBe(200);
    expect(models.json()).toHaveLength(2);
    expect((models.json() as { isChallenge: boolean }[]).filter((m) => m.isChallenge)).toHaveLength(1);
  });

  it("lists the line's signal groups", async () => {
    const res = await call("POST", "/api/signal-groups", a.userHeaders, {
      customerUuid: a.customer.id,
      plantUuid: a.plant.id,
      lineUuid: a.line.id,
    });
    expect(res.statusCode).toBe(200);
    const [group] = res.json();
    expect(group.signalGroupUuid).toBe(sa.group.id);
    expect(group.signalGroupName).toBe(sa.group.name);
    expect([...group.signalUuids].sort()).toEqual(
      sa.measurements
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    );
  });

  it("maps signals to their result's classifications", async () => {
    const ids = [sa.measurements[0]?.id, sa.result.id, sa.measurements[1]?.id];
    const res = await call("POST", "/api/signal/associated-result-classifications", a.userHeaders, ids);
    expect(res.statusCode).toBe(200);
    const expected = {
      pass: [{ value: "OK", failureMode: null }],
      fail: [{ value: "NOK", failureMode: "Torque low" }],
      other: [{ value: "SKIP", failureMode: null }],
    };
    expect(res.json()).toEqual({
      [sa.measurements[0]?.id as string]: { associatedResultClassifications: expected },
      [sa.result.id]: { associatedResultClassifications: expected },
      [sa.measurements[1]?.id as string]: {
        associatedResultClassifications: { pass: [], fail: [], other: [] },
      },
    });
  });
});
