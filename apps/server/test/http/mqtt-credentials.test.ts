import { createHash } from "node:crypto";
import { MQTT_PASSWORD_PREFIX, SERVER_MESSAGES } from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mqttCredentials } from "../../src/db/schema/index.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

type Method = "GET" | "POST";
const call = (method: Method, url: string, headers?: { cookie: string }) =>
  t.app.inject({ method, url, headers });
const routes = (plantId: string): [Method, string][] => [
  ["GET", `/api/plants/${plantId}/mqtt-credential`],
  ["POST", `/api/plants/${plantId}/mqtt-credential/password`],
];
const ingestorOf = async (tenant: typeof a) =>
  (await call("GET", `/api/plants/${tenant.plant.id}/ingestor`, tenant.adminHeaders)).json().id as string;

describe("MQTT credentials: access", () => {
  it("answers 401 without a session", async () => {
    for (const [method, url] of routes(a.plant.id)) {
      const res = await call(method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe(SERVER_MESSAGES.unauthorized);
    }
  });

  it("answers 403 to a user who is not an administrator", async () => {
    for (const [method, url] of routes(a.plant.id)) {
      expect((await call(method, url, a.userHeaders)).statusCode, url).toBe(403);
    }
  });

  it("answers 404 for another customer's plant, and sets no password there", async () => {
    for (const [method, url] of routes(b.plant.id)) {
      const res = await call(method, url, a.adminHeaders);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe("Plant not found");
    }
    const rows = await t.database.db
      .select()
      .from(mqttCredentials)
      .where(eq(mqttCredentials.ingestorId, await ingestorOf(b)));
    expect(rows).toEqual([]);
  });

  it("answers 400 for a plant id that is not a uuid", async () => {
    for (const [method, url] of routes("not-a-uuid")) {
      expect((await call(method, url, a.adminHeaders)).statusCode, url).toBe(400);
    }
  });
});

describe("MQTT credentials: answers", () => {
  it("names the plant's ingestor as username, with no password until one is set", async () => {
    const res = await call("GET", `/api/plants/${a.plant.id}/mqtt-credential`, a.adminHeaders);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username: await ingestorOf(a), passwordSetAt: null, lastConnectedAt: null });
  });

  it("shows a new password once, stores only its SHA-256, and replaces it on the next call", async () => {
    const first = await call("POST", `/api/plants/${a.plant.id}/mqtt-credential/password`, a.adminHeaders);
    expect(first.statusCode).toBe(201);
    const body = first.json();
    expect(body.password).toMatch(new RegExp(`^${MQTT_PASSWORD_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(body.credential).toMatchObject({ username: await ingestorOf(a), lastConnectedAt: null });
    expect(body.credential.passwordSetAt).toBe(t.now.value.toISOString());

    const got = await call("GET", `/api/plants/${a.plant.id}/mqtt-credential`, a.adminHeaders);
    expect(got.json()).toEqual(body.credential);
    expect(got.body).not.toContain(body.password);

    const [row] = await t.database.db
      .select()
      .from(mqttCredentials)
      .where(eq(mqttCredentials.ingestorId, body.credential.username));
    expect(row?.customerId).toBe(a.customer.id);
    expect(row?.passwordHash).toBe(createHash("sha256").update(body.password).digest("hex"));

    t.now.value = new Date(t.now.value.getTime() + 60_000);
    const second = await call("POST", `/api/plants/${a.plant.id}/mqtt-credential/password`, a.adminHeaders);
    expect(second.statusCode).toBe(201);
    expect(second.json().password).not.toBe(body.password);
    expect(second.json().credential.passwordSetAt).toBe(t.now.value.toISOString());
    const rows = await t.database.db
      .select()
      .from(mqttCredentials)
      .where(eq(mqttCredentials.ingestorId, body.credential.username));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.passwordHash).toBe(createHash("sha256").update(second.json().password).digest("hex"));
  });
});
