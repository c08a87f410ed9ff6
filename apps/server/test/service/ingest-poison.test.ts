// One bad message never stops a plant: a record with a NUL character, a binary payload and an
// empty array become dead letters, and the good records after them — on this customer's topics
// and another customer's — are stored, on the embedded broker and on Mosquitto.
import { randomBytes } from "node:crypto";
import { TEXT_MESSAGES } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadLetters, partRecords } from "../../src/db/schema/index.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

const external = await reachableExternalBroker();
const brokers = [
  { name: "embedded broker", external: false },
  ...(external ? [{ name: "Mosquitto", external: true }] : []),
];

describe.each(brokers)("a poison message on the $name", ({ external: useExternal }) => {
  let t: TestContext;
  let a: Awaited<ReturnType<typeof createTenant>>;
  let b: Awaited<ReturnType<typeof createTenant>>;
  let ingestor: Ingest;
  let publisherA: mqtt.MqttClient;
  let publisherB: mqtt.MqttClient;
  const run = randomBytes(4).toString("hex");
  const topicA = `lwpoison-${run}-a/line/OP10`;
  const topicB = `lwpoison-${run}-b/line/OP10`;

  const record = (partId: string) => ({
    partId,
    // Within the 11.6 days before now: a record dated ahead of the server's clock is refused.
    timestamp: new Date(Date.now() - Math.floor(Math.random() * 1e9)).toISOString(),
    measurements: { M: 1 },
  });
  const stored = async (partId: string) => {
    const rows = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(partRecords)
      .where(eq(partRecords.partId, partId));
    return rows[0]?.n === 1;
  };
  const deadLettersOf = (customerId: string) =>
    t.database.db.select().from(deadLetters).where(eq(deadLetters.customerId, customerId));

  beforeAll(async () => {
    t = await createTestApp();
    a = await createTenant(t.app, t.database.db);
    b = await createTenant(t.app, t.database.db);
    for (const [tenant, topic] of [
      [a, `lwpoison-${run}-a/#`],
      [b, `lwpoison-${run}-b/#`],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/plants/${tenant.plant.id}/data-sources`,
        headers: tenant.adminHeaders,
        payload: { name: "Poison test", topic },
      });
      expect(res.statusCode).toBe(201);
    }
    ingestor = await startIngest({
      db: t.database.db,
      partRecords: t.services.partRecords,
      mqttUrl: useExternal ? external : undefined,
      mqttPort: 0,
      refreshMs: 300,
    });
    await eventually(async () => ingestor.subscriptions().length >= 2);
    // Each plant's own login on the embedded broker (Mosquitto here takes anyone).
    const loginOf = async (tenant: typeof a) => {
      if (useExternal) return {};
      const res = await t.app.inject({
        method: "POST",
        url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
        headers: tenant.adminHeaders,
      });
      return { username: res.json().credential.username as string, password: res.json().password as string };
    };
    publisherA = await mqtt.connectAsync(ingestor.url, {
      clientId: `lwpoison-a-${run}`,
      ...(await loginOf(a)),
    });
    publisherB = await mqtt.connectAsync(ingestor.url, {
      clientId: `lwpoison-b-${run}`,
      ...(await loginOf(b)),
    });
  });
  afterAll(async () => {
    await publisherA?.endAsync(true);
    await publisherB?.endAsync(true);
    await ingestor?.close();
    await closeTestApp(t);
  });

  it("keeps a NUL record, a binary payload and an empty array as dead letters and stores the good records after them", async () => {
    const nul = JSON.stringify(record("A\u0000B"));
    const binary = Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x00, 0x7d]);
    // On the embedded broker a publish resolves when its PUBACK comes, after the commit: before
    // the fix the NUL record was never acknowledged, nor anything after it.
    await Promise.all([
      publisherA.publishAsync(topicA, nul, { qos: 1 }),
      publisherA.publishAsync(topicA, binary, { qos: 1 }),
      publisherA.publishAsync(topicA, "[]", { qos: 1 }),
      publisherA.publishAsync(topicA, JSON.stringify(record(`good-a-${run}`)), { qos: 1 }),
      publisherB.publishAsync(topicB, JSON.stringify(record(`good-b-${run}`)), { qos: 1 }),
    ]);
    // The promise: good records of both customers stored within 5 s.
    await eventually(async () => (await stored(`good-a-${run}`)) && (await stored(`good-b-${run}`)), 5_000);

    const dead = await eventually(async () => {
      const rows = await deadLettersOf(a.customer.id);
      return rows.length >= 3 && rows;
    });
    const reasons = dead.map((d) => d.reason).join("\n");
    expect(reasons).toContain(`partId: ${TEXT_MESSAGES.unstorable}`);
    expect(reasons).toMatch(/payload is not JSON/);
    expect(reasons).toContain("the message holds no records (an empty array)");
    // The stored samples show the NUL instead of losing the dead letter to it.
    const binaryDead = dead.find((d) => d.reason.startsWith("payload is not JSON"));
    expect(binaryDead?.payload).toContain("\\u0000");
    expect(await deadLettersOf(b.customer.id)).toEqual([]);
  });
});
