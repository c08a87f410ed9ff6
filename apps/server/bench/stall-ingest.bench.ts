// npm run bench:stall-ingest — how long another plant waits for its MQTT acknowledgements while
// one large ingest runs (issue 27 §2: "other sources' messages are acknowledged within 1 s").
// In this process: the database (PostgreSQL, a fresh database of its own, when DATABASE_URL is
// set, else PGlite in a temporary folder), the API and the embedded broker, as `npm start` runs
// them. In a process of its own: the probe (stall-probe.ts), a client of another plant publishing
// one small QoS 1 record every BENCH_PROBE_MS (100), open loop, timing each PUBACK.
// Phases, each measured over the probe's publishes that left while it ran:
//   idle   nothing else;
//   mqtt   one MQTT message of BENCH_RECORDS (10,000) records × BENCH_SIGNALS (200) measurements;
//   http   one POST /api/ingest of the same size;
//   both   the two at once.
// BENCH_PHASES picks some of mqtt, http and both (all three by default).
// Prints per phase the probe's p50 / p99 / max acknowledgement latency and the max's ratio to the
// 1 s goal, how long the large ingest took, the longest the server's event loop was held, and the
// load average at the start and the end.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { INGEST_TOKEN_PREFIX } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import mqtt from "mqtt";
import type { Db } from "../src/db/client.js";
import {
  customers,
  dataSources,
  ingestors,
  ingestTokens,
  partRecords,
  plants,
} from "../src/db/schema/index.js";
import { buildApp } from "../src/http/app.js";
import { startIngest } from "../src/ingest/ingest.js";
import { createLogger } from "../src/lib/logger.js";
import { hashToken, newToken } from "../src/lib/tokens.js";
import { createServices } from "../src/services.js";
import { openBenchDatabase } from "./bench-db.js";
import { loadAverage } from "./load.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const RECORDS = Number(process.env.BENCH_RECORDS ?? 10_000);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 200);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 100);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
/** Which of the loaded phases run (idle always does). */
const PHASES = new Set((process.env.BENCH_PHASES ?? "mqtt,http,both").split(","));
const GOAL_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createPlant(db: Db, name: string, topic: string) {
  const [customer] = await db.insert(customers).values({ name }).returning();
  const customerId = customer?.id ?? "";
  const [plant] = await db.insert(plants).values({ customerId, name, timeZone: "UTC" }).returning();
  const [ingestor] = await db
    .insert(ingestors)
    .values({ customerId, plantId: plant?.id ?? "" })
    .returning();
  const ingestorId = ingestor?.id ?? "";
  await db.insert(dataSources).values({ customerId, ingestorId, name, topic });
  return { customerId, ingestorId };
}

/** `count` records of `SIGNALS` measurements at one station, as one JSON array. */
function payload(line: string, station: string, prefix: string, count: number): string {
  const names = Array.from({ length: SIGNALS }, (_, j) => `M${String(j + 1).padStart(3, "0")}`);
  const base = Date.UTC(2026, 0, 1);
  const records = Array.from({ length: count }, (_, i) => {
    const measurements: Record<string, number> = {};
    for (let j = 0; j < names.length; j++)
      measurements[names[j] as string] = Math.round((10 + j + Math.sin(i + j)) * 1000) / 1000;
    return {
      line,
      station,
      partId: `${prefix}-${i}`,
      modelNumber: "M-100",
      timestamp: new Date(base + i * 1000).toISOString(),
      measurements,
    };
  });
  return JSON.stringify(records);
}

type Sample = { sentAt: number; latencyMs: number; error?: string };

const quantile = (sorted: number[], q: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0) : 0;

async function main() {
  console.log(`load average at start ${loadAverage()}`);
  const { database, label, drop } = await openBenchDatabase(8);
  const { db } = database;
  const services = createServices({ db, publicUrl: "http://localhost" });
  const run = randomBytes(3).toString("hex");
  const big = await createPlant(db, "Big plant", `lwstall-big-${run}/#`);
  const probe = await createPlant(db, "Probe plant", `lwstall-probe-${run}/#`);
  const secret = `${INGEST_TOKEN_PREFIX}${newToken()}`;
  await db.insert(ingestTokens).values({
    customerId: big.customerId,
    ingestorId: big.ingestorId,
    name: "bench",
    tokenHash: hashToken(secret),
    prefix: secret.slice(0, INGEST_TOKEN_PREFIX.length + 6),
  });

  const app = await buildApp({ services, cookieSecure: "auto", settings: { ingestRateLimitPerMinute: 0 } });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const apiPort = typeof address === "object" && address ? address.port : 0;
  const ingest = await startIngest({
    db,
    partRecords: services.partRecords,
    mqttPort: 0,
    logger: createLogger("warn").child({ role: "ingest" }),
  });
  console.log(`database: ${label}`);
  console.log(`broker:   embedded (${ingest.url}); API on 127.0.0.1:${apiPort}`);
  console.log(
    `load:     ${RECORDS.toLocaleString("en")} records × ${SIGNALS} measurements a message or request; probe: one record every ${PROBE_MS} ms from another plant`,
  );

  const bigLogin = ingest.internalLogin([big.ingestorId]);
  const publisher = await mqtt.connectAsync(ingest.url, {
    clientId: `lw-stall-big-${run}`,
    clean: true,
    reconnectPeriod: 0,
    ...bigLogin,
  });
  const bigTopic = `lwstall-big-${run}/Big Line/OP10`;
  const postIngest = async (body: string) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}/api/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body,
    });
    if (res.status !== 200) throw new Error(`POST /api/ingest answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { stored: number };
  };

  // Warm-up: the lines, stations and signals exist before anything is measured.
  await publisher.publishAsync(bigTopic, payload("Big Line", "OP10", `W-MQTT-${run}`, 1), { qos: 1 });
  await postIngest(payload("Big Line", "OP20", `W-HTTP-${run}`, 1));

  const probeLogin = ingest.internalLogin([probe.ingestorId]) ?? { username: "", password: "" };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(here, "stall-probe.ts"),
      ingest.url,
      `lwstall-probe-${run}/Probe Line/OP10`,
      String(PROBE_MS),
    ],
    {
      cwd: path.resolve(here, "../../.."),
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, MQTT_USERNAME: probeLogin.username, MQTT_PASSWORD: probeLogin.password },
    },
  );
  const samples: Sample[] = [];
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => (ready = r));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const m = JSON.parse(line) as Sample & { ready?: boolean };
    if (m.ready) ready();
    else samples.push(m);
  });
  const probeExit = new Promise<void>((r) => child.once("exit", () => r()));
  await isReady;

  type Phase = { name: string; from: number; to: number; tookMs?: number; loopMaxMs: number };
  const phases: Phase[] = [];
  // The server's event loop: its longest delay during the phase (this process is the server).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const loopMaxMs = () => {
    const ms = loop.max / 1e6;
    loop.reset();
    return ms;
  };
  const measure = async (name: string, load: () => Promise<unknown>) => {
    loop.reset();
    const from = Date.now();
    await load();
    const to = Date.now();
    phases.push({ name, from, to, tookMs: to - from, loopMaxMs: loopMaxMs() });
    // The probe's last publishes of the phase are acknowledged before the next phase starts.
    await sleep(1_000);
  };

  // The payloads are built before they are measured: building them is the client's work.
  const mqttBody = payload("Big Line", "OP10", `MQTT-${run}`, RECORDS);
  const httpBody = payload("Big Line", "OP20", `HTTP-${run}`, RECORDS);
  const mqttBoth = payload("Big Line", "OP30", `MQTT2-${run}`, RECORDS);
  const httpBoth = payload("Big Line", "OP40", `HTTP2-${run}`, RECORDS);
  console.log(
    `payloads: ${(Buffer.byteLength(mqttBody) / 1_048_576).toFixed(1)} MiB a message or request body`,
  );

  const idleFrom = Date.now();
  loop.reset();
  await sleep(IDLE_SECONDS * 1000);
  phases.push({ name: "idle", from: idleFrom, to: Date.now(), loopMaxMs: loopMaxMs() });
  if (PHASES.has("mqtt")) await measure("mqtt", () => publisher.publishAsync(bigTopic, mqttBody, { qos: 1 }));
  if (PHASES.has("http")) await measure("http", () => postIngest(httpBody));
  if (PHASES.has("both"))
    await measure("both", () =>
      Promise.all([
        publisher.publishAsync(`lwstall-big-${run}/Big Line/OP30`, mqttBoth, { qos: 1 }),
        postIngest(httpBoth),
      ]),
    );

  child.stdin?.end();
  await probeExit;
  await publisher.endAsync();
  const [stored] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(partRecords)
    .where(sql`${partRecords.partId} not like 'PROBE-%' and ${partRecords.partId} not like 'W-%'`);

  console.log("");
  console.log(
    "phase   large ingest   probe acks   p50 ms   p99 ms   max ms   max / 1 s goal   server loop max delay",
  );
  for (const p of phases) {
    const during = samples.filter((s) => s.sentAt >= p.from && s.sentAt <= p.to);
    const errors = during.filter((s) => s.error).length;
    const sorted = during.map((s) => s.latencyMs).sort((a, b) => a - b);
    const max = sorted[sorted.length - 1] ?? 0;
    console.log(
      [
        p.name.padEnd(6),
        (p.tookMs != null ? `${(p.tookMs / 1000).toFixed(1)} s` : "-").padStart(13),
        String(during.length).padStart(12),
        String(quantile(sorted, 0.5)).padStart(8),
        String(quantile(sorted, 0.99)).padStart(8),
        String(max).padStart(8),
        `${(max / GOAL_MS).toFixed(2)}${errors ? ` (${errors} errors)` : ""}`.padStart(17),
        `${Math.round(p.loopMaxMs)} ms`.padStart(23),
      ].join(" "),
    );
  }
  const expected =
    RECORDS * (["mqtt", "http"].filter((p) => PHASES.has(p)).length + (PHASES.has("both") ? 2 : 0));
  console.log(`large ingests stored ${stored?.n ?? 0} of ${expected} records`);
  console.log(`load average at end ${loadAverage()}`);
  await ingest.close();
  await app.close();
  await database.close();
  await drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
