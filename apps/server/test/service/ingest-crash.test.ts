// Restart and failure: kill -9 of the ingesting process while a publisher sends QoS 1 messages
// loses no acknowledged record and stores none twice — on the embedded broker and on Mosquitto.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { partRecords } from "../../src/db/schema/index.js";
import {
  createDataSourceRow,
  exited,
  freePort,
  sharedDatabase,
  startIngestProcess,
} from "../helpers/ingest-process.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

const external = await reachableExternalBroker();
const usePostgres = !!process.env.DATABASE_URL;

const cases = [
  { name: "embedded broker", external: false },
  ...(external ? [{ name: "Mosquitto", external: true }] : []),
];

describe.each(cases)("kill -9 while ingesting through the $name", ({ external: useExternal }) => {
  let child: ChildProcess | undefined;
  let publisher: mqtt.MqttClient | undefined;
  afterEach(async () => {
    child?.kill("SIGKILL");
    await publisher?.endAsync(true);
  });

  it("loses no acknowledged record and stores none twice", { timeout: 180_000 }, async () => {
    const shared = await sharedDatabase();
    const run = randomBytes(4).toString("hex");
    const topicRoot = `lwcrash-${run}`;
    // The child needs the data source before it starts.
    let db = await shared.open();
    const { login } = await createDataSourceRow(db, `${topicRoot}/#`);
    if (!usePostgres) await db.close();

    const port = await freePort();
    const env = {
      ...shared.env,
      ...(useExternal
        ? { MQTT_URL: external ?? "", INGEST_CLIENT_ID: `lwcrash-${run}` }
        : { MQTT_PORT: String(port) }),
    };
    child = (await startIngestProcess(env)).child;
    const url = useExternal ? (external ?? "") : `mqtt://127.0.0.1:${port}`;
    publisher = await mqtt.connectAsync(url, {
      clientId: `lwcrash-pub-${run}`,
      reconnectPeriod: 200,
      clean: true,
      ...(useExternal ? {} : login),
    });

    // Mosquitto queues at most 1,000 messages for an absent client by default: stay well below.
    const total = useExternal ? 600 : 1_000;
    const acknowledged = new Set<string>();
    const sends: Promise<void>[] = [];
    let killed = false;
    for (let i = 0; i < total; i++) {
      const partId = `K-${i}`;
      const body = JSON.stringify({
        line: "Crash Line",
        station: "OP10",
        partId,
        timestamp: new Date(Date.UTC(2026, 10, 22) + i * 1000).toISOString(),
        measurements: { Torque: i / 10 },
      });
      sends.push(
        (publisher as mqtt.MqttClient).publishAsync(`${topicRoot}/line/op`, body, { qos: 1 }).then(() => {
          acknowledged.add(partId);
        }),
      );
      if (!killed && i === Math.floor(total / 3)) {
        // Let some be acknowledged, then kill the ingesting process mid-stream and start it again.
        await eventually(async () => acknowledged.size > total / 6, 30_000);
        child.kill("SIGKILL");
        killed = true;
        await exited(child);
        child = (await startIngestProcess(env)).child;
      }
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, useExternal ? 25 : 5));
    }
    await Promise.all(sends);
    expect(acknowledged.size).toBe(total);

    const count = async () => {
      const [row] = await db.db
        .select({
          n: sql<number>`count(*)::int`,
          distinctParts: sql<number>`count(distinct ${partRecords.partId})::int`,
        })
        .from(partRecords)
        .where(sql`${partRecords.partId} like 'K-%'`);
      return row;
    };
    if (!usePostgres) {
      // PGlite's folder opens in one process at a time: stop the ingestor (SIGTERM stores what it
      // holds) and count. On Mosquitto the broker acknowledged the publisher and may still queue
      // messages for the ingestor's session: they arrive when it runs again, so run it again until
      // every record is stored (or the time is up, and the count below fails).
      const until = Date.now() + 120_000;
      for (;;) {
        if (child) {
          child.kill("SIGTERM");
          await exited(child);
          child = undefined;
        }
        db = await shared.open();
        if ((await count())?.n === total || !useExternal || Date.now() > until) break;
        await db.close();
        const again = await startIngestProcess(env);
        child = again.child;
        await eventually(async () => again.output().includes("subscribed to"), 60_000);
      }
    }
    // On Mosquitto the broker acknowledged the publisher; the ingestor may still be catching up.
    const final = await eventually(async () => {
      const c = await count();
      return c && c.n === total && c;
    }, 180_000);
    expect(final.distinctParts).toBe(total);
    // On PostgreSQL drop() closes the pool and drops the database; PGlite's folder just closes.
    if (usePostgres) await shared.drop();
    else await db.close();
  });
});
