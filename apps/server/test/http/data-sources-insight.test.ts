import { randomUUID } from "node:crypto";
import {
  DATA_SOURCE_MESSAGES,
  INSIGHT_DEAD_LETTERS_MAX,
  topicDefaults,
  topicMatches,
  ZDataSourceInsight,
} from "@linewatch/contracts";
import type { IPublishPacket } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSourceMessages, deadLetters } from "../../src/db/schema/index.js";
import { createIngestLog } from "../../src/ingest/ingest-log.js";
import { createTenant } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
type Tenant = Awaited<ReturnType<typeof createTenant>>;
let a: Tenant;
let b: Tenant;

const insightUrl = (id: string) => `/api/data-sources/${id}/insight`;

async function addSource(tn: Tenant, topic: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `/api/plants/${tn.plant.id}/data-sources`,
    headers: tn.adminHeaders,
    payload: { name: `Insight ${randomUUID().slice(0, 8)}`, topic },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; ingestorId: string; topic: string };
}

/** Runs messages through the ingestor's own store, as MQTT would deliver them. */
async function publish(
  tn: Tenant,
  source: { id: string; ingestorId: string; topic: string },
  msgs: [string, string][],
) {
  const log = createIngestLog(t.services.partRecords);
  const packets = msgs.map(
    ([topic, payload]) => ({ topic, payload: Buffer.from(payload) }) as IPublishPacket,
  );
  const resolved = { ...source, customerId: tn.customer.id, plantId: tn.plant.id };
  await log.store(
    packets.map((packet) => ({
      packet,
      source: topicMatches(source.topic, packet.topic) ? resolved : undefined,
    })),
    topicDefaults,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

describe("GET /api/data-sources/:dataSourceId/insight", () => {
  it("answers 401 without a session, 403 to a plain user and 404 across customers or for an unknown id", async () => {
    const src = await addSource(a, "insight/a/#");
    expect((await t.app.inject({ url: insightUrl(src.id) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: insightUrl(src.id), headers: a.userHeaders })).statusCode).toBe(403);
    const other = await t.app.inject({ url: insightUrl(src.id), headers: b.adminHeaders });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: DATA_SOURCE_MESSAGES.notFound });
    expect((await t.app.inject({ url: insightUrl(randomUUID()), headers: a.adminHeaders })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: insightUrl("nope"), headers: a.adminHeaders })).statusCode).toBe(400);
  });

  it("answers an empty insight for a source that has received nothing", async () => {
    const src = await addSource(a, "insight/empty/#");
    const res = await t.app.inject({ url: insightUrl(src.id), headers: a.adminHeaders });
    expect(res.statusCode).toBe(200);
    expect(ZDataSourceInsight.parse(res.json())).toMatchObject({
      source: { id: src.id, topic: "insight/empty/#" },
      timeZone: "Europe/Berlin",
      messages: [],
      deadLetters: [],
      deadLetterCount: 0,
    });
  });

  it("maps each field of the latest messages to its line, station and signal, existing or new", async () => {
    const src = await addSource(a, "insight/map/#");
    const line = `Map Line ${randomUUID().slice(0, 6)}`;
    // A stored record makes Torque and its upper limit exist at OP20.
    await publish(a, src, [
      [
        `insight/map/${line}/OP20`,
        JSON.stringify({
          partId: "M-1",
          timestamp: "2026-11-22T10:00:00Z",
          measurements: { Torque: 1 },
          limits: { Torque: { upper: 2 } },
        }),
      ],
    ]);
    // The sample table keeps the newest; add a newer one by hand (samples are taken once a second).
    await t.database.db.insert(dataSourceMessages).values({
      dataSourceId: src.id,
      topic: `insight/map/${line}/OP20`,
      receivedAt: new Date(Date.now() + 60_000),
      payload: JSON.stringify([
        {
          partId: "M-2",
          timestamp: "2026-11-22T10:01:00Z",
          measurements: { Torque: 1.5, Angle: 30 },
          limits: { Torque: { upper: 2, lower: 0.5 } },
          results: { Result: "PASS" },
          attributes: { Shift: "A" },
        },
        { station: "OP30", line: "Body Line", partId: "M-3", timestamp: "bad", measurements: { Torque: 1 } },
      ]),
    });
    const res = await t.app.inject({ url: insightUrl(src.id), headers: a.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZDataSourceInsight.parse(res.json());
    expect(body.messages).toHaveLength(2);
    const [newest, older] = body.messages;
    expect((newest?.receivedAt ?? "") > (older?.receivedAt ?? "")).toBe(true);
    const [first, second] = newest?.records ?? [];
    expect(first).toMatchObject({
      line,
      lineFrom: "topic",
      isNewLine: false,
      station: "OP20",
      stationFrom: "topic",
      isNewStation: false,
      partId: "M-2",
      problem: null,
    });
    const byPath = Object.fromEntries((first?.fields ?? []).map((f) => [f.path, f]));
    expect(byPath["measurements.Torque"]).toMatchObject({
      signalName: "Torque",
      entityType: "MEASUREMENT",
      isNew: false,
      value: "1.5",
    });
    expect(byPath["measurements.Angle"]).toMatchObject({
      signalName: "Angle",
      entityType: "MEASUREMENT",
      isNew: true,
    });
    expect(byPath["limits.Torque.upper"]).toMatchObject({
      signalName: "Torque Upper Limit",
      entityType: "UPPER_LIMIT",
      isNew: false,
    });
    expect(byPath["limits.Torque.lower"]).toMatchObject({
      signalName: "Torque Lower Limit",
      entityType: "LOWER_LIMIT",
      isNew: true,
    });
    expect(byPath["results.Result"]).toMatchObject({
      signalName: "Result",
      entityType: "RESULT",
      isNew: true,
      value: "PASS",
    });
    expect(byPath["attributes.Shift"]).toMatchObject({
      signalName: "Shift",
      entityType: "PART_ATTRIBUTE",
      isNew: true,
    });
    // The older message is the one whose record created the line, the station and Torque.
    expect(older?.records[0]).toMatchObject({ isNewLine: true, isNewStation: true, problem: null });
    expect(older?.records[0]?.fields.find((f) => f.path === "measurements.Torque")?.isNew).toBe(true);
    // The body's line and station win over the topic's.
    expect(second).toMatchObject({
      line: "Body Line",
      lineFrom: "body",
      isNewLine: true,
      station: "OP30",
      isNewStation: true,
    });
    expect(second?.problem).toMatch(/timestamp/);
  });

  it("lists the source's dead letters newest first, with topic, reason and payload, and only its own", async () => {
    const src = await addSource(a, "insight/dead/#");
    const otherSrc = await addSource(a, "insight/other/#");
    await publish(a, src, [["insight/dead/L1/OP10", "{not json"]]);
    await publish(a, src, [["insight/dead/L1/OP10", JSON.stringify({ partId: "D-1" })]]);
    await publish(a, otherSrc, [["insight/other/L1/OP10", "nope"]]);
    const body = ZDataSourceInsight.parse(
      (await t.app.inject({ url: insightUrl(src.id), headers: a.adminHeaders })).json(),
    );
    expect(body.deadLetterCount).toBe(2);
    expect(body.deadLetters.map((d) => d.payload)).toEqual(['{"partId":"D-1"}', "{not json"]);
    expect(body.deadLetters[0]).toMatchObject({
      topic: "insight/dead/L1/OP10",
      reason: expect.stringMatching(/timestamp/),
    });
    expect(body.deadLetters[1]?.reason).toMatch(/^payload is not JSON/);
    // The sampled non-JSON message shows why it holds no records.
    expect(body.messages.find((m) => m.payload === "{not json")?.error).toMatch(/^payload is not JSON/);
  });

  it("answers 200 when a sampled message holds NUL or unpaired surrogates, with them made visible", async () => {
    const src = await addSource(a, "insight/nul/#");
    const line = `Nul Line ${randomUUID().slice(0, 6)}`;
    // JSON's escapes carry what the database's text cannot hold: NUL and unpaired surrogates in
    // names, values and places. The ingestor refuses the record; the page must still show it.
    await publish(a, src, [
      [
        `insight/nul/${line}/OP10`,
        JSON.stringify({
          line: `${line}\u0000`,
          station: "OP\uD800",
          partId: "N-\u0000",
          timestamp: "2026-11-22T10:00:00Z",
          measurements: { "Tor\u0000que": 1, Angle: 2 },
          attributes: { Shift: "A\uDC00", "Op\uDBFF": "B" },
        }),
      ],
    ]);
    const res = await t.app.inject({ url: insightUrl(src.id), headers: a.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const body = ZDataSourceInsight.parse(res.json());
    expect(body.messages).toHaveLength(1);
    const record = body.messages[0]?.records[0];
    expect(record).toMatchObject({
      line: `${line}\\u0000`,
      station: "OP\uFFFD",
      partId: "N-\\u0000",
      problem: expect.stringMatching(/NUL/),
    });
    // Every signal of the record is still listed, its name and value as the dead letter shows them.
    const byPath = Object.fromEntries((record?.fields ?? []).map((f) => [f.path, f]));
    expect(byPath).toMatchObject({
      "measurements.Tor\\u0000que": { signalName: "Tor\\u0000que", entityType: "MEASUREMENT", value: "1" },
      "measurements.Angle": { signalName: "Angle", value: "2" },
      "attributes.Shift": { signalName: "Shift", value: "A\uFFFD" },
      "attributes.Op\uFFFD": { signalName: "Op\uFFFD", value: "B" },
    });
  });

  it(`keeps the newest ${INSIGHT_DEAD_LETTERS_MAX} dead letters and counts them all`, async () => {
    const src = await addSource(a, "insight/many/#");
    const base = Date.now();
    await t.database.db.insert(deadLetters).values(
      Array.from({ length: INSIGHT_DEAD_LETTERS_MAX + 3 }, (_, i) => ({
        customerId: a.customer.id,
        ingestorId: src.ingestorId,
        dataSourceId: src.id,
        topic: "insight/many/x",
        payload: `p${i}`,
        reason: "r",
        receivedAt: new Date(base + i * 1000),
      })),
    );
    const body = ZDataSourceInsight.parse(
      (await t.app.inject({ url: insightUrl(src.id), headers: a.adminHeaders })).json(),
    );
    expect(body.deadLetterCount).toBe(INSIGHT_DEAD_LETTERS_MAX + 3);
    expect(body.deadLetters).toHaveLength(INSIGHT_DEAD_LETTERS_MAX);
    expect(body.deadLetters[0]?.payload).toBe(`p${INSIGHT_DEAD_LETTERS_MAX + 2}`);
  });
});
