// GET /api/monitors/form-bounds: the installation's MVD_QUERY_MAX_RECORD_COUNT as main.ts passes it
// from the configuration, and the same bound in the task schemas the monitors API validates with.
import { MONITOR_MESSAGES, SERVER_MESSAGES, ZMonitorFormBounds } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStationWithSignals, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let s: Awaited<ReturnType<typeof createStationWithSignals>>;

beforeAll(async () => {
  t = await createTestApp({ mvdQueryMaxRecordCount: 2_000 });
  a = await createTenant(t.app, t.database.db);
  s = await createStationWithSignals(t.database.db, a.customer.id, a.line.id);
});
afterAll(() => closeTestApp(t));

const task = (name: string, sampleSize: number) => ({
  task_name: name,
  task_type: "svd",
  active: false,
  frequency: 15,
  task_details: {
    cust_uuid: a.customer.id,
    plant_uuid: a.plant.id,
    line_uuid: a.line.id,
    signal_uuids: [s.measurements[0]?.id],
    sample_size: sampleSize,
    evaluation_ratio: 0.2,
  },
});

describe("GET /api/monitors/form-bounds", () => {
  it("answers the configured records maximum to any signed-in user", async () => {
    for (const headers of [a.userHeaders, a.adminHeaders]) {
      const res = await t.app.inject({ method: "GET", url: "/api/monitors/form-bounds", headers });
      expect(res.statusCode).toBe(200);
      expect(ZMonitorFormBounds.parse(res.json())).toEqual({ maxRecordCount: 2_000 });
    }
  });

  it("needs a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/monitors/form-bounds" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: SERVER_MESSAGES.unauthorized });
  });

  it("is the bound the monitors API checks records against", async () => {
    const post = (body: unknown) =>
      t.app.inject({ method: "POST", url: "/api/tasks", headers: a.userHeaders, payload: body as object });
    const over = await post(task("Too many records", 2_001));
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain(MONITOR_MESSAGES.sampleSizeMax(2_000));
    expect((await post(task("Most records", 2_000))).statusCode).toBe(201);
  });
});
