// One large MQTT message holds up nobody (issue 27 §2): its records beyond INGEST_BATCH_MAX become
// one dead letter saying so; it is written in slices, each committed on its own, and another
// plant's message is stored (on the embedded broker: acknowledged) while it is still being
// stored; it is acknowledged itself only once every record is committed, and each is stored
// once — on the embedded broker and on Mosquitto.
import { randomBytes } from "node:crypto";
import { DEAD_LETTER_REASONS, INGEST_BATCH_MAX } from "@linewatch/contracts";
import { and, eq, like, sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSources, deadLetters, partRecords } from "../../src/db/schema/index.js";
import { LANE_BYTES } from "../../src/ingest/batcher.js";
import { type Ingest, startIngest } from "../../src/ingest/ingest.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const external = await reachableExternalBroker();
const brokers = [
  { name: "embedded broker", external: false },
  ...(external ? [{ name: "Mosquitto", external: true }] : []),
];

let t: TestContext;
let a: Tenant;
let b: Tenant;
const run = randomBytes(4).toString("hex");
const base = Date.UTC(2026, 10, 22, 8);

/** How many records with this part id prefix are stored (and how many distinct part ids). */
async function storedLike(prefix: string) {
  const [row] = await t.database.db
    .select({
      n: sql<number>`count(*)::int`,
      distinct: sql<number>`count(distinct ${partRecords.partId})::int`,
    })
    .from(partRecords)
    .where(like(partRecords.partId, `${prefix}%`));
  return { n: row?.n ?? 0, distinct: row?.distinct ?? 0 };
}

async function login(tenant: Tenant) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tenant.plant.id}/mqtt-credential/password`,
    headers: tenant.adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { username: res.json().credential.username as string, password: res.json().password as string };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
  for (const [tenant, topic] of [
    [a, `lwlarge-${run}-a/#`],
    [b, `lwlarge-${run}-b/#`],
  ] as const) {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/plants/${tenant.plant.id}/data-sources`,
      headers: tenant.adminHeaders,
      payload: { name: "Large test", topic },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Records whose part id starts with BUSY- are refused as "insufficient resources" (SQLSTATE
  // 53000, a database that is away: retried) while lw_large_busy holds a row.
  await t.database.db.execute(sql.raw("create table lw_large_busy (x int)"));
  await t.database.db.execute(
    sql.raw(`create function lw_large_refuse() returns trigger language plpgsql as $$
      begin
        if new.part_id like 'BUSY-%' and exists (select 1 from lw_large_busy) then
          raise exception 'busy for the test' using errcode = '53000';
        end if;
        return new;
      end $$`),
  );
  await t.database.db.execute(
    sql.raw(
      "create trigger lw_large_refuse before insert on part_records for each row execute function lw_large_refuse()",
    ),
  );
});
afterAll(async () => {
  await closeTestApp(t);
});

describe.each(brokers)("a large MQTT message on the $name", ({ external: useExternal }) => {
  let ingest: Ingest;
  let publisherA: mqtt.MqttClient;
  let publisherB: mqtt.MqttClient;
  const on = useExternal ? "x" : "e";
  const topicA = `lwlarge-${run}-a/${on}/Line/OP10`;
  const topicB = `lwlarge-${run}-b/${on}/Line/OP10`;
  beforeAll(async () => {
    ingest = await startIngest({
      db: t.database.db,
      partRecords: t.services.partRecords,
      mqttUrl: useExternal ? external : undefined,
      mqttPort: 0,
      refreshMs: 300,
    });
    await eventually(async () => ingest.subscriptions().length >= 2);
    // Each plant's own login on the embedded broker (Mosquitto here takes anyone).
    publisherA = await mqtt.connectAsync(ingest.url, {
      clientId: `lwlarge-a-${on}-${run}`,
      ...(useExternal ? {} : await login(a)),
    });
    publisherB = await mqtt.connectAsync(ingest.url, {
      clientId: `lwlarge-b-${on}-${run}`,
      ...(useExternal ? {} : await login(b)),
    });
  });
  afterAll(async () => {
    await publisherA?.endAsync(true);
    await publisherB?.endAsync(true);
    await ingest?.close();
  });

  it.skipIf(useExternal)(
    `stores its first ${INGEST_BATCH_MAX.toLocaleString("en")} records and keeps the rest as one dead letter with the reason`,
    {
      timeout: 180_000,
    },
    async () => {
      const extra = 5;
      const records = Array.from({ length: INGEST_BATCH_MAX + extra }, (_, i) => ({
        partId: `CAP-${run}-${i}`,
        timestamp: new Date(base + i * 1000).toISOString(),
        measurements: { Torque: i / 10 },
      }));
      // Acknowledged once the records and the dead letter are committed.
      await publisherA.publishAsync(topicA, JSON.stringify(records), { qos: 1 });

      expect(await storedLike(`CAP-${run}-`)).toEqual({ n: INGEST_BATCH_MAX, distinct: INGEST_BATCH_MAX });
      // The first INGEST_BATCH_MAX are the ones stored.
      expect(await storedLike(`CAP-${run}-${INGEST_BATCH_MAX - 1}`)).toMatchObject({ n: 1 });
      expect(await storedLike(`CAP-${run}-${INGEST_BATCH_MAX}`)).toMatchObject({ n: 0 });
      const [source] = await t.database.db
        .select({ id: dataSources.id })
        .from(dataSources)
        .where(eq(dataSources.customerId, a.customer.id));
      const dead = await t.database.db
        .select()
        .from(deadLetters)
        .where(and(eq(deadLetters.customerId, a.customer.id), like(deadLetters.payload, `%CAP-${run}-%`)));
      expect(dead).toHaveLength(1);
      expect(dead[0]?.reason).toBe(DEAD_LETTER_REASONS.tooManyRecords(INGEST_BATCH_MAX + extra));
      expect(dead[0]?.reason).toBe(
        "the message holds 10,005 records, more than the 10,000 one message may carry: records 10,001 to 10,005 were not stored",
      );
      expect(dead[0]?.dataSourceId).toBe(source?.id);
      expect(dead[0]?.topic).toBe(topicA);
      // Its payload: the records that were not stored, as a JSON array.
      expect(JSON.parse(dead[0]?.payload ?? "")).toEqual(records.slice(INGEST_BATCH_MAX));
    },
  );

  it("is written in slices while another plant's message goes through, and is acknowledged once all of it is committed", {
    timeout: 120_000,
  }, async () => {
    // 400 records of 200 measurements (1.1 MB, stored in its data source's own lane): the first
    // 200 can be stored, the last 200 are refused as "busy" until the test says otherwise.
    const names = Array.from({ length: 200 }, (_, j) => `M${j}`);
    const records = Array.from({ length: 400 }, (_, i) => ({
      partId: i < 200 ? `SLICED-${on}-${run}-${i}` : `BUSY-SLICED-${on}-${run}-${i}`,
      timestamp: new Date(base + i * 1000).toISOString(),
      measurements: Object.fromEntries(names.map((m, j) => [m, i + j / 1000])),
    }));
    const payload = JSON.stringify(records);
    expect(payload.length).toBeGreaterThan(LANE_BYTES);
    await t.database.db.execute(sql.raw("insert into lw_large_busy values (1)"));
    // On the embedded broker the PUBACK follows the commit; Mosquitto acknowledges at once.
    let largeAcknowledged = false;
    const large = publisherA.publishAsync(topicA, payload, { qos: 1 }).then(() => {
      largeAcknowledged = true;
    });

    // The first slices are committed on their own while the message waits for the rest.
    await eventually(async () => (await storedLike(`SLICED-${on}-${run}-`)).n > 0, 60_000);
    if (!useExternal) expect(largeAcknowledged).toBe(false);

    // Another plant's message meanwhile: stored (and on the embedded broker acknowledged, after
    // its commit) while the large one is not.
    const small = {
      partId: `SMALL-${on}-${run}`,
      timestamp: new Date(base).toISOString(),
      measurements: { M: 1 },
    };
    await publisherB.publishAsync(topicB, JSON.stringify(small), { qos: 1 });
    await eventually(async () => (await storedLike(`SMALL-${on}-${run}`)).n === 1, 60_000);
    if (!useExternal) expect(largeAcknowledged).toBe(false);
    expect((await storedLike(`BUSY-SLICED-${on}-${run}-`)).n).toBe(0);

    // The database is back: the message is stored whole, each record once, and only then acknowledged.
    await t.database.db.execute(sql.raw("delete from lw_large_busy"));
    await large;
    await eventually(async () => (await storedLike(`BUSY-SLICED-${on}-${run}-`)).n === 200, 60_000);
    expect(await storedLike(`SLICED-${on}-${run}-`)).toEqual({ n: 200, distinct: 200 });
    expect(await storedLike(`BUSY-SLICED-${on}-${run}-`)).toEqual({ n: 200, distinct: 200 });
    expect(await storedLike(`SMALL-${on}-${run}`)).toEqual({ n: 1, distinct: 1 });
  });
});
