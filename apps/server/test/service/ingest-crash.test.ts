// Restart and failure: kill -9 of the ingesting process while a publisher sends QoS 1 messages
// loses no acknowledged record and stores none twice — on the embedded broker and on Mosquitto.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase, rowsOf } from "../../src/db/client.js";
import { dataSources, mqttCredentials, partRecords } from "../../src/db/schema/index.js";
import { hashToken } from "../../src/lib/tokens.js";
import { createCustomer, createPlant } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";
import { eventually, reachableExternalBroker } from "../helpers/mqtt.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const external = await reachableExternalBroker();
const usePostgres = !!process.env.DATABASE_URL;
const CRASH_TEST_KEY = randomBytes(32).toString("base64");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

/** A database the child process can open too: PostgreSQL, or PGlite in a folder. */
async function sharedDatabase(): Promise<{
  env: Record<string, string>;
  open: () => Promise<Database>;
  drop: () => Promise<void>;
}> {
  if (usePostgres) {
    const d = await createTestDatabase();
    return { env: { DATABASE_URL: d.url ?? "" }, open: async () => d, drop: () => d.close() };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "lw-crash-"));
  return {
    env: { DATA_DIR: dir, DATABASE_URL: "" },
    open: () => openDatabase({ dataDir: dir }),
    drop: async () => {},
  };
}

function startIngestProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/src/main.ts"), "--role", "ingest"],
    {
      // One process (no tsx wrapper), so SIGKILL really kills the one holding the broker and the session.
      cwd: root,
      // Every process of an installation shares the encryption key (required with DATABASE_URL).
      env: {
        ...process.env,
        DEMO: "false",
        LOG_LEVEL: "warn",
        MQTT_URL: "",
        ENCRYPTION_KEY: CRASH_TEST_KEY,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (/embedded MQTT broker on|ingesting from/.test(out)) resolve(child);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
    child.on("exit", (code) => reject(new Error(`ingest process exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`ingest process did not start: ${out}`)), 60_000);
  });
}

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
    const customer = await createCustomer(db.db);
    const plant = await createPlant(db.db, customer.id);
    const [ingestor] = rowsOf<{ id: string }>(
      await db.db.execute(sql`select id from ingestors where plant_id = ${plant.id}`),
    );
    // The plant's MQTT login on the embedded broker (set on the Data Sources page in real life).
    const password = `lwm_${randomBytes(32).toString("base64url")}`;
    await db.db.insert(mqttCredentials).values({
      ingestorId: ingestor?.id ?? "",
      customerId: customer.id,
      passwordHash: hashToken(password),
    });
    await db.db.insert(dataSources).values({
      customerId: customer.id,
      ingestorId: ingestor?.id ?? "",
      name: "crash",
      topic: `${topicRoot}/#`,
    });
    if (!usePostgres) await db.close();

    const port = await freePort();
    const env = {
      ...shared.env,
      ...(useExternal
        ? { MQTT_URL: external ?? "", INGEST_CLIENT_ID: `lwcrash-${run}` }
        : { MQTT_PORT: String(port) }),
    };
    child = await startIngestProcess(env);
    const url = useExternal ? (external ?? "") : `mqtt://127.0.0.1:${port}`;
    publisher = await mqtt.connectAsync(url, {
      clientId: `lwcrash-pub-${run}`,
      reconnectPeriod: 200,
      clean: true,
      ...(useExternal ? {} : { username: ingestor?.id, password }),
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
        await new Promise<void>((r) => child?.once("exit", () => r()));
        child = await startIngestProcess(env);
      }
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, useExternal ? 25 : 5));
    }
    await Promise.all(sends);
    expect(acknowledged.size).toBe(total);

    if (!usePostgres) {
      // Give the last batch time to commit, then stop the child so the data folder can be opened.
      await new Promise((r) => setTimeout(r, 1_000));
      child.kill("SIGTERM");
      await new Promise<void>((r) => child?.once("exit", () => r()));
      child = undefined;
      db = await shared.open();
    }
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
    // On Mosquitto the broker acknowledged the publisher; the ingestor may still be catching up.
    const final = await eventually(async () => {
      const c = await count();
      return c && c.n === total && c;
    }, 60_000);
    expect(final.distinctParts).toBe(total);
    // On PostgreSQL drop() closes the pool and drops the database; PGlite's folder just closes.
    if (usePostgres) await shared.drop();
    else await db.close();
  });
});
