// The embedded broker's access control (README "Security", "MQTT broker access"): anonymous
// clients are refused, a plant's client publishes and subscribes only within its own plant's data
// source topics, and a rotated password disconnects the clients that used the old one.
import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { eventually, storedCount, torqueRecord } from "../helpers/mqtt.js";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

let t: TestContext;
let a: Tenant;
let b: Tenant;
let ingest: Ingest;
const clients: mqtt.MqttClient[] = [];
// Topics and client ids unique to this run.
const run = randomBytes(4).toString("hex");
const topicA = `lwacl-${run}/a`;
const topicB = `lwacl-${run}/b`;
let n = 0;
const clientId = () => `lwacl-${run}-${n++}`;

async function addSource(tenant: Tenant, topic: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/data-sources`,
    headers: tenant.adminHeaders,
    payload: { name: `Source ${topic}`, topic },
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function newPassword(tenant: Tenant): Promise<{ username: string; password: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
    headers: tenant.adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { username: body.credential.username, password: body.password };
}

async function connect(url: string, login?: { username: string; password: string }) {
  const client = await mqtt.connectAsync(url, {
    clientId: clientId(),
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...login,
  });
  clients.push(client);
  return client;
}

/** The CONNACK return code a refused connection gets (MQTT 3.1.1 §3.2.2.3). */
async function refusal(url: string, login?: { username: string; password: string }): Promise<number> {
  const err = await connect(url, login).then(
    () => undefined,
    (e: Error & { code?: number }) => e,
  );
  expect(err, "connection accepted").toBeDefined();
  return err?.code ?? -1;
}

/** The SUBACK's return code for one filter: the granted QoS, or 0x80 for a refusal. */
async function subackCode(client: mqtt.MqttClient, filter: string): Promise<number | undefined> {
  return client.subscribeAsync(filter, { qos: 1 }).then(
    (granted) => granted[0]?.qos,
    (e: Error & { packet?: { granted?: number[] } }) => e.packet?.granted?.[0],
  );
}

const closed = (client: mqtt.MqttClient) =>
  new Promise<void>((resolve) => (client.connected ? client.once("close", () => resolve()) : resolve()));

const record = torqueRecord;

const stored = (partId: string) => storedCount(t.database.db, partId);

let loginA: { username: string; password: string };
let loginB: { username: string; password: string };

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  await addSource(a, `${topicA}/#`);
  await addSource(b, `${topicB}/+/+`);
  loginA = await newPassword(a);
  loginB = await newPassword(b);
  ingest = await startIngest({
    db: t.database.db,
    partRecords: t.services.partRecords,
    mqttPort: 0,
    refreshMs: 300,
  });
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true).catch(() => {});
  await ingest?.close();
  await closeTestApp(t);
});

describe("embedded broker: connecting", () => {
  it("refuses anonymous connections (CONNACK 5, not authorised)", async () => {
    expect(await refusal(ingest.url)).toBe(5);
  });

  it("refuses a wrong password, an unknown username and another plant's password (CONNACK 4)", async () => {
    expect(await refusal(ingest.url, { username: loginA.username, password: "lwm_wrong" })).toBe(4);
    expect(await refusal(ingest.url, { username: "not-a-plant", password: loginA.password })).toBe(4);
    expect(await refusal(ingest.url, { username: loginA.username, password: loginB.password })).toBe(4);
  });

  it("accepts anonymous clients only with MQTT_ALLOW_ANONYMOUS", async () => {
    const open = await startIngest({
      db: t.database.db,
      partRecords: t.services.partRecords,
      mqttPort: 0,
      allowAnonymous: true,
    });
    try {
      const client = await connect(open.url);
      await client.publishAsync(`${topicA}/Line A/OP10`, record(`ANON-${run}`), { qos: 1 });
      expect(await stored(`ANON-${run}`)).toBe(1);
      await client.endAsync();
    } finally {
      await open.close();
    }
  });
});

describe("embedded broker: a plant's client", () => {
  it("stores records published on its own plant's topics", async () => {
    const client = await connect(ingest.url, loginA);
    await client.publishAsync(`${topicA}/Line A/OP10`, record(`OWN-${run}`), { qos: 1 });
    // The embedded broker acknowledges a QoS 1 publish after the commit.
    expect(await stored(`OWN-${run}`)).toBe(1);
  });

  it("is disconnected when it publishes on another plant's topic, and nothing is stored", async () => {
    const client = await connect(ingest.url, loginA);
    const gone = closed(client);
    client.publish(`${topicB}/Line B/OP10`, record(`CROSS-${run}`), { qos: 1 });
    await gone;
    expect(await stored(`CROSS-${run}`)).toBe(0);
  });

  it("is disconnected when it publishes on a topic no data source of its plant matches", async () => {
    const client = await connect(ingest.url, loginA);
    const gone = closed(client);
    client.publish(`lwacl-${run}/elsewhere`, "x", { qos: 1 });
    await gone;
  });

  it("gets SUBACK 0x80 for '#', wide filters and another plant's topics, and its own within them", async () => {
    const client = await connect(ingest.url, loginA);
    for (const filter of ["#", "+/#", `lwacl-${run}/#`, `${topicB}/#`, `${topicB}/Line B/OP10`, "$SYS/#"]) {
      expect(await subackCode(client, filter), filter).toBe(0x80);
    }
    expect(client.connected).toBe(true);
    for (const filter of [`${topicA}/#`, `${topicA}/+/OP10`, `${topicA}/Line A/OP10`]) {
      expect(await subackCode(client, filter), filter).toBe(1);
    }
  });

  it("receives another plant's records through no filter: '#' was refused", async () => {
    const listener = await connect(ingest.url, loginA);
    expect(await subackCode(listener, "#")).toBe(0x80);
    expect(await subackCode(listener, `${topicA}/#`)).toBe(1);
    const heard: string[] = [];
    listener.on("message", (topic) => heard.push(topic));
    const publisherB = await connect(ingest.url, loginB);
    await publisherB.publishAsync(`${topicB}/Line B/OP10`, record(`B-${run}`), { qos: 1 });
    const publisherA = await connect(ingest.url, loginA);
    await publisherA.publishAsync(`${topicA}/Line A/OP10`, record(`A2-${run}`), { qos: 1 });
    await eventually(async () => heard.includes(`${topicA}/Line A/OP10`));
    expect(heard.filter((topic) => topic.startsWith(topicB))).toEqual([]);
    expect(await stored(`B-${run}`)).toBe(1);
  });
});

describe("embedded broker: a new password", () => {
  it("disconnects clients holding the old one and refuses it from then on", async () => {
    const tenant = await createTenant(t.app, t.database.db);
    const topic = `lwacl-${run}/rotate`;
    await addSource(tenant, `${topic}/#`);
    const old = await newPassword(tenant);
    await ingest.refresh();
    const client = await connect(ingest.url, old);
    const gone = closed(client);
    const fresh = await newPassword(tenant);
    expect(fresh.username).toBe(old.username);
    expect(fresh.password).not.toBe(old.password);
    await gone;
    expect(await refusal(ingest.url, old)).toBe(4);
    const again = await connect(ingest.url, fresh);
    await again.publishAsync(`${topic}/Line R/OP10`, record(`ROT-${run}`), { qos: 1 });
    expect(await stored(`ROT-${run}`)).toBe(1);
  });
});

describe("embedded broker: a deleted data source", () => {
  it("disconnects a client whose subscription is no longer within its plant's data sources", async () => {
    const tenant = await createTenant(t.app, t.database.db);
    const topic = `lwacl-${run}/deleted`;
    await addSource(tenant, `${topic}/#`);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/data-sources`,
      headers: tenant.adminHeaders,
      payload: { name: "Kept", topic: `lwacl-${run}/kept/#` },
    });
    expect(res.statusCode).toBe(201);
    const login = await newPassword(tenant);
    await ingest.refresh();
    const client = await connect(ingest.url, login);
    expect(await subackCode(client, `${topic}/#`)).toBe(1);
    const gone = closed(client);
    const sources = await t.app.inject({
      method: "GET",
      url: `/api/plants/${tenant.plant.id}/data-sources`,
      headers: tenant.adminHeaders,
    });
    const source = (sources.json() as { id: string; topic: string }[]).find((s) => s.topic === `${topic}/#`);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/data-sources/${source?.id}`,
      headers: tenant.adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    await gone;
    // Its plant's other source still takes its login.
    const again = await connect(ingest.url, login);
    expect(await subackCode(again, `lwacl-${run}/kept/#`)).toBe(1);
  });
});
