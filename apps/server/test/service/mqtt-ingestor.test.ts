import { randomBytes } from "node:crypto";
import { topicDefaults } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSourceMessages, deadLetters, lines, partRecords } from "../../src/db/schema/index.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

const external = await reachableExternalBroker();
const brokers = [
  { name: "embedded broker", external: false },
  ...(external ? [{ name: "Mosquitto", external: true }] : []),
];

describe.each(brokers)("MQTT ingestion through the $name", ({ external: useExternal }) => {
  // The embedded broker stores before it acknowledges: a QoS 1 publish resolves after the commit.
  let t: TestContext;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let ingestor: Ingest;
  let publisher: mqtt.MqttClient;
  /** The plant's MQTT login on the embedded broker; Mosquitto here takes anonymous clients. */
  let login: { username?: string; password?: string } = {};
  // Topics unique to this run, so runs on a shared broker cannot meet.
  const root = `lwtest-${randomBytes(4).toString("hex")}`;

  const count = async (partIdPrefix: string) => {
    const [row] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(partRecords)
      .where(sql`${partRecords.partId} like ${`${partIdPrefix}%`}`);
    return row?.n ?? 0;
  };
  const addSource = async (name: string, topic: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/data-sources`,
      headers: tenant.adminHeaders,
      payload: { name, topic },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string };
  };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await createTenant(t.app, t.database.db);
    await addSource("Assembly", `${root}/assembly/#`);
    ingestor = await startIngest({
      db: t.database.db,
      partRecords: t.services.partRecords,
      mqttUrl: useExternal ? external : undefined,
      mqttPort: 0,
      refreshMs: 300,
    });
    if (!useExternal) {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
        headers: tenant.adminHeaders,
      });
      login = { username: res.json().credential.username, password: res.json().password };
    }
    publisher = await mqtt.connectAsync(ingestor.url, { clientId: `lwtest-pub-${root}`, ...login });
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await ingestor?.close();
    await closeTestApp(t);
  });

  const record = (partId: string, extra: Record<string, unknown> = {}) => ({
    partId,
    modelNumber: "M-1",
    timestamp: new Date(
      Date.UTC(2026, 10, 22, 8, 0, 0) + Number(partId.replace(/\D/g, "") || 0) * 1000,
    ).toISOString(),
    measurements: { Torque: 12.5 },
    ...extra,
  });

  it("stores QoS 1 records, taking line and station from the topic when the body has none", async () => {
    for (let i = 0; i < 20; i++) {
      await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(record(`A-${i}`)), {
        qos: 1,
      });
    }
    await eventually(async () => (await count("A-")) === 20);
    const [line] = await t.database.db.select().from(lines).where(eq(lines.name, "Line A"));
    expect(line?.plantId).toBe(tenant.plant.id);
    expect(line?.lastIngestedTime).not.toBeNull();
  });

  it.runIf(useExternal)("stores the records of an MQTT 5 device through Mosquitto", async () => {
    // The embedded broker speaks MQTT 3.1.1; devices that speak only 5 publish to an external
    // broker, which hands their messages to the ingestor's 3.1.1 subscription (README, "MQTT 5").
    const device = await mqtt.connectAsync(ingestor.url, {
      clientId: `lwtest-v5-${root}`,
      protocolVersion: 5,
      reconnectPeriod: 0,
      ...login,
    });
    try {
      for (let i = 0; i < 5; i++) {
        await device.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(record(`V5-${i}`)), {
          qos: 1,
          properties: { contentType: "application/json", userProperties: { gateway: "edge-1" } },
        });
      }
      await eventually(async () => (await count("V5-")) === 5);
    } finally {
      await device.endAsync();
    }
  });

  it("lets the body's line and station win over the topic's", async () => {
    await publisher.publishAsync(
      `${root}/assembly/Line A/OP10`,
      JSON.stringify(record("B-1", { line: "Line B", station: "OP30" })),
      { qos: 1 },
    );
    await eventually(async () => (await count("B-")) === 1);
    const [line] = await t.database.db.select().from(lines).where(eq(lines.name, "Line B"));
    expect(line).toBeDefined();
  });

  it("keeps malformed messages as dead letters with the reason, and stores the good ones around them", async () => {
    await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(record("C-1")), { qos: 1 });
    await publisher.publishAsync(`${root}/assembly/Line A/OP10`, "{not json", { qos: 1 });
    await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify({ partId: "C-2" }), {
      qos: 1,
    });
    await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(record("C-3")), { qos: 1 });
    await eventually(async () => (await count("C-")) === 2);
    const dead = await eventually(async () => {
      const rows = await t.database.db.select().from(deadLetters);
      return rows.length >= 2 && rows;
    });
    expect(dead.map((d) => d.reason).join("\n")).toMatch(/payload is not JSON/);
    expect(dead.map((d) => d.reason).join("\n")).toMatch(/timestamp/);
    expect(dead.every((d) => d.customerId === tenant.customer.id)).toBe(true);
    const samples = await t.database.db.select().from(dataSourceMessages);
    expect(samples.length).toBeGreaterThan(0);
  });

  it("subscribes to a new data source and drops a deleted one, without a restart", async () => {
    const source = await addSource("Paint", `${root}/paint/+/+`);
    await eventually(async () => ingestor.subscriptions().includes(`${root}/paint/+/+`));
    await publisher.publishAsync(`${root}/paint/Line P/OP50`, JSON.stringify(record("D-1")), { qos: 1 });
    await eventually(async () => (await count("D-")) === 1);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/data-sources/${source.id}`,
      headers: tenant.adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    await eventually(async () => !ingestor.subscriptions().includes(`${root}/paint/+/+`));
    if (useExternal) {
      await publisher.publishAsync(`${root}/paint/Line P/OP50`, JSON.stringify(record("D-2")), { qos: 1 });
      // The broker delivers one publisher's messages in order: once a later record on a topic that
      // is still subscribed is stored, D-2 would have been stored before it had it been delivered.
      await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(record("DM-1")), {
        qos: 1,
      });
      await eventually(async () => (await count("DM-")) === 1);
    } else {
      // The embedded broker refuses a topic none of the plant's data sources matches: it disconnects.
      const once = await mqtt.connectAsync(ingestor.url, {
        clientId: `lwtest-pub2-${root}`,
        reconnectPeriod: 0,
        ...login,
      });
      const gone = new Promise<void>((r) => once.once("close", () => r()));
      once.publish(`${root}/paint/Line P/OP50`, JSON.stringify(record("D-2")), { qos: 1 });
      await gone;
      await once.endAsync(true);
    }
    expect(await count("D-")).toBe(1);
  });

  it("accepts a message holding an array of records", async () => {
    const batch = Array.from({ length: 50 }, (_, i) => record(`E-${i}`));
    await publisher.publishAsync(`${root}/assembly/Line A/OP10`, JSON.stringify(batch), { qos: 1 });
    await eventually(async () => (await count("E-")) === 50);
  });
});

describe("topicDefaults", () => {
  it("takes line and station from the last two levels", () => {
    expect(topicDefaults("plant/Line 1/OP20")).toEqual({ line: "Line 1", station: "OP20" });
    expect(topicDefaults("single")).toEqual({});
  });
});
