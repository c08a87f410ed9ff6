import { PLANT_MESSAGES, SERVER_MESSAGES, ZPlantOverview } from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonitorRow, createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  await createMonitorRow(t.database.db, a.line, { name: "Torque", type: "svd", lastState: "BREACH" });
});
afterAll(() => closeTestApp(t));

const get = (url: string, headers?: { cookie: string }) => t.app.inject({ method: "GET", url, headers });
const overviewOf = (plantId: string) => `/api/plants/${plantId}/overview`;

describe("plant overview: access", () => {
  it("answers 401 without a session", async () => {
    const res = await get(overviewOf(a.plant.id));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
  });

  it("answers every user of the customer, not only administrators (no 403)", async () => {
    for (const headers of [a.userHeaders, a.adminHeaders]) {
      const res = await get(overviewOf(a.plant.id), headers);
      expect(res.statusCode).toBe(200);
    }
  });

  it("answers 404 for another customer's plant, naming the plant", async () => {
    const res = await get(overviewOf(a.plant.id), b.userHeaders);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(PLANT_MESSAGES.notFound);
  });

  it("answers 400 for an id that is not a uuid", async () => {
    expect((await get(overviewOf("not-a-uuid"), a.userHeaders)).statusCode).toBe(400);
  });
});

describe("plant overview: answer", () => {
  it("answers the contract's shape with the plant's lines and their monitors", async () => {
    const res = await get(overviewOf(a.plant.id), a.userHeaders);
    const body = ZPlantOverview.parse(res.json());
    expect(body.plantId).toBe(a.plant.id);
    expect(body.timeZone).toBe(a.plant.timeZone);
    expect(body.lines.map((l) => l.id)).toEqual([a.line.id]);
    expect(body.lines[0]?.monitors.map((m) => [m.name, m.lastState])).toEqual([["Torque", "BREACH"]]);
    expect(body.lines[0]?.recordsPerHour).toHaveLength(24);
  });
});
