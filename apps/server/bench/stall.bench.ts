// npm run bench:stall — can one user's heaviest request stall the server for everyone else?
// (issue 27 §1): the p50 / p99 of a cheap signed-in GET and the MQTT acknowledgement latency of
// another customer's plant, idle and while the heaviest requests the product allows run; goals:
// the GET's p50 while heavy ≤ 2× its idle p50, every acknowledgement ≤ 1 s.
//
// The heaviest requests, from the bounds in packages/contracts:
//   - an MVD backtest (POST /api/monitors/backtest, streamed: Accept: application/x-ndjson) of the
//     most signals a task allows (ZTaskDetails signal_uuids ≤ 1,000) with the largest sample size
//     (MVD_QUERY_MAX_RECORD_COUNT, 10,000 by default) over the longest period (BACKTEST_BOUNDS.maxDays,
//     31 days since issue 31 §4; 30 before) at the shortest frequency (MONITOR_BOUNDS.minFrequency,
//     5 minutes: 8,928 slots);
//   - a query preview (POST /api/monitors/preview) of the same signals at the largest window
//     (sample_size 10,000, no period: the newest 10,000 records), asked again as soon as it
//     answers for as long as the heavy phase lasts (one at a time, as a user re-running it).
// The backtest reads every record of its period plus one window before it, a page at a time
// (issue 31 §4: up to 25,000,000 records, which at 1,000 signals is 2.5 × 10¹⁰ values — no seed
// of a bench holds that). The seed is therefore one record every
// 5 minutes (one new record a slot, so every slot evaluates) over the period, and the full
// window (10,000 records) before them: 18,928 records × 1,000 values, about 150 MB, written with
// COPY before the server starts (BENCH_RECORD_EVERY_MINUTES makes it denser).
//
// Who is measured: a second customer ("Other") with its own plant, user and MQTT login on the
// embedded broker. Its user asks GET /api/plants open loop at BENCH_GET_RATE (20/s), each latency
// counted from its planned start (no coordinated omission); its plant's MQTT client publishes
// one-record messages with QoS 1 at BENCH_MQTT_RATE (10/s) to its data source's topic, each
// acknowledgement latency from the publish's planned start to the PUBACK (mqtt.js's callback,
// which the ingest sends once the record is committed).
//
// The server: the whole product as `npm start` runs it (API, worker, ingest with its embedded
// broker; `node --import tsx apps/server/src/main.ts`), on free ports, DEMO=false (no demo plant
// or simulator: only the bench's load), PostgreSQL in a fresh database of its own when DATABASE_URL
// is set, else PGlite in a temporary folder.
//
// Phases, one after another, the GETs and publishes running throughout:
//   warm-up (BENCH_WARMUP_SECONDS, 5; not counted) → idle (BENCH_IDLE_SECONDS, 15) → heavy
//   (BENCH_SECONDS, 30: the backtest and the preview loop start at its beginning and are aborted
//   at its end by closing their connections) → after (BENCH_AFTER_SECONDS, 10: the cancellation
//   shows as the server's CPU dropping back).
// Requests planned in a phase count in that phase whenever they are answered; those not answered
// BENCH_GRACE_SECONDS (60) after the last phase are reported as unanswered.
//
// BENCH_WORKER=1 adds the worker's evaluations: an active MVD monitor of the same shape (1,000
// signals, sample size 10,000, every 5 minutes), a schedule minute of BENCH_WORKER_MINUTE_MS (1000:
// the monitor is due every 5 s) and one 1,000-measurement record published to the heavy line every
// BENCH_TRICKLE_SECONDS (5) so that every evaluation has something new. Those evaluations run in
// every phase, idle included: the idle figures are then "the worker busy", and the ratio says
// what the heavy requests add on top.
//
// Printed: per phase, the GET's p50 / p99 / max (and errors, unanswered), the acknowledgements'
// p50 / p99 / max; the heavy p50 over the idle p50 against 2×, the acknowledgements against 1 s;
// the worst latency of each 2 s of the heavy phase; on PostgreSQL, "db": a small transaction (insert,
// commit) from the bench's own connection at 5/s, the database's latency apart from the server's; the server's event-loop delay per phase (max,
// and the seconds it passed 100 ms: loop-delay.mjs, loaded into the server with --import, reports
// monitorEventLoopDelay each second on stderr); the backtest's last progress line and the
// previews' answers and times; the server process's CPU and its main thread's (from /proc) for
// idle, heavy, the first 5 s after the abort and the rest, with its busiest threads ("stats" are
// the statistics threads, at nice +10); the load average at start and end.
// BENCH_CPU_PROFILE=<folder>: the server runs with --cpu-prof; after it stops, the bench prints
// what held the main thread in each phase (cpu-profile.ts): busy share, top functions, the
// longest stretches without an idle sample.
// Other settings: BENCH_SIGNALS (1000), BENCH_SAMPLE_SIZE (10000), BENCH_HEAVY ("backtest,preview"),
// STATS_THREADS, BACKTEST_CPU_MS, STATS_REQUEST_CPU_MS are passed to the server as they are set.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import {
  BACKTEST_BOUNDS,
  BACKTEST_STREAM_TYPE,
  MONITOR_BOUNDS,
  MQTT_PASSWORD_PREFIX,
  monitorFilterMd5,
  QUERY_BOUNDS,
  storedFilterOf,
  ZTaskDetails,
} from "@linewatch/contracts";
import { eq } from "drizzle-orm";
import mqtt from "mqtt";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { type Database, openDatabase } from "../src/db/client.js";
import { dataSources, ingestors, mqttCredentials, signals, stations } from "../src/db/schema/index.js";
import { hashToken } from "../src/lib/tokens.js";
import {
  createCustomer,
  createLine,
  createMonitorRow,
  createPlant,
  createUser,
  PASSWORD,
} from "../test/factories.js";
import { createScratchPostgresDatabase } from "./bench-db.js";
import { agent, CLOCK_TICKS, cpuSeconds, freePort, percentile, request } from "./bench-http.js";
import { mainThreadProfile, summarizeProfile } from "./cpu-profile.js";
import { loadAverage } from "./load.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const env = process.env;
const usePostgres = !!env.DATABASE_URL;
const num = (name: string, dflt: number) => (env[name] ? Number(env[name]) : dflt);

const SIGNALS = num("BENCH_SIGNALS", 1000);
const SAMPLE_SIZE = num("BENCH_SAMPLE_SIZE", QUERY_BOUNDS.defaultMaxRecordCount);
const DAYS = BACKTEST_BOUNDS.maxDays;
const FREQUENCY = MONITOR_BOUNDS.minFrequency;
const RECORD_EVERY_MINUTES = num("BENCH_RECORD_EVERY_MINUTES", FREQUENCY);
const GET_RATE = num("BENCH_GET_RATE", 20);
const MQTT_RATE = num("BENCH_MQTT_RATE", 10);
const WARMUP_SECONDS = num("BENCH_WARMUP_SECONDS", 5);
const IDLE_SECONDS = num("BENCH_IDLE_SECONDS", 15);
const HEAVY_SECONDS = num("BENCH_SECONDS", 30);
const AFTER_SECONDS = num("BENCH_AFTER_SECONDS", 10);
const GRACE_SECONDS = num("BENCH_GRACE_SECONDS", 60);
const HEAVY = new Set((env.BENCH_HEAVY ?? "backtest,preview").split(",").map((s) => s.trim()));
const WITH_WORKER = env.BENCH_WORKER === "1";
const WORKER_MINUTE_MS = num("BENCH_WORKER_MINUTE_MS", 1000);
const TRICKLE_SECONDS = num("BENCH_TRICKLE_SECONDS", 5);
const EVALUATION_RATIO = 0.2;
const GOAL = { p50Ratio: 2, ackMs: 1000 };
const MINUTE = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CLOCK_MONOTONIC in µs: the clock of V8's CPU profiles. */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Every thread's CPU seconds and a name: "main", "stats" for the statistics threads (the only ones
 * at nice +10, stats-pool.ts), else "thread" (PGlite's, V8's and libuv's helpers: Node names
 * none of them).
 */
function threadCpu(pid: number): Map<number, { name: string; cpu: number }> {
  const out = new Map<number, { name: string; cpu: number }>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const tid = Number(t);
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const nice = Number(fields[16]);
      const name = tid === pid ? "main" : nice > 0 ? "stats" : "thread";
      out.set(tid, { name, cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Deterministic normal deviates (Box–Muller on an LCG): the same seed every run. */
function gaussian(seed: number) {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return (s + 1) / (2 ** 31 + 1);
  };
  return () => Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
}

type Seeded = {
  heavy: { customerId: string; plantId: string; lineId: string; signalIds: string[]; email: string };
  other: { email: string; username: string; password: string; topic: string };
  /** The heavy plant's MQTT login and topic (BENCH_WORKER: the trickle of new records). */
  trickle?: { username: string; password: string; topic: string };
  records: number;
  seconds: number;
};

const signalName = (k: number) => `M${String(k + 1).padStart(4, "0")}`;

/** The two customers, the heavy line and its records; straight into the database. */
async function seed(database: Database, now: number): Promise<Seeded> {
  const { db } = database;
  const t0 = performance.now();
  const heavyCustomer = await createCustomer(db, { name: "Heavy" });
  const heavyPlant = await createPlant(db, heavyCustomer.id, { name: "Heavy Plant", timeZone: "UTC" });
  const line = await createLine(db, heavyCustomer.id, heavyPlant.id, { name: "Heavy Line" });
  const [station] = await db
    .insert(stations)
    .values({ customerId: heavyCustomer.id, lineId: line.id, name: "OP10", nextNumSlot: SIGNALS })
    .returning();
  if (!station) throw new Error("no station");
  const signalRows = await db
    .insert(signals)
    .values(
      Array.from({ length: SIGNALS }, (_, slot) => ({
        customerId: heavyCustomer.id,
        lineId: line.id,
        stationId: station.id,
        name: signalName(slot),
        entityType: "MEASUREMENT" as const,
        storage: "num" as const,
        slot,
      })),
    )
    .returning({ id: signals.id, slot: signals.slot });
  signalRows.sort((a, b) => a.slot - b.slot);
  const heavyUser = await createUser(db, heavyCustomer.id, { admin: true, email: "heavy@bench.test" });

  // One record every RECORD_EVERY_MINUTES up to now: the 30 days of the backtest and, before
  // them, the backtest's first window (SAMPLE_SIZE records).
  const every = RECORD_EVERY_MINUTES * MINUTE;
  const inPeriod = Math.floor((DAYS * 24 * 60) / RECORD_EVERY_MINUTES);
  const count = inPeriod + SAMPLE_SIZE;
  const first = now - (count - 1) * every;
  // Correlated signals: a common factor and each signal's own noise.
  const gauss = gaussian(4242);
  const CHUNK = 500;
  const copySql =
    "COPY part_records (station_id, ts, part_id, op, model_number, num_values, text_values) FROM STDIN";
  const pgClient = database.raw.kind === "postgres" ? await database.raw.pool.connect() : undefined;
  try {
    for (let i = 0; i < count; i += CHUNK) {
      const lines: string[] = [];
      for (let j = i; j < Math.min(count, i + CHUNK); j++) {
        const common = gauss();
        const values = new Array<string>(SIGNALS);
        for (let k = 0; k < SIGNALS; k++) values[k] = (10 + (k % 17) + 0.6 * common + gauss()).toFixed(3);
        lines.push(
          `${station.id}\t${new Date(first + j * every).toISOString()}\tP-${j}\t1\tM-1\t{${values.join(",")}}\t\\N\n`,
        );
      }
      const text = lines.join("");
      if (pgClient) await pipeline(Readable.from([text]), pgClient.query(copyFrom(copySql)));
      else if (database.raw.kind === "pglite")
        await database.raw.client.query(copySql.replace("STDIN", "'/dev/blob'"), [], {
          blob: new Blob([text]),
        });
      if (env.BENCH_DEBUG) console.log(`  seeded ${Math.min(count, i + CHUNK)} of ${count}`);
    }
  } finally {
    pgClient?.release();
  }

  // The other customer: its plant's MQTT login and data source, and a user.
  const otherCustomer = await createCustomer(db, { name: "Other" });
  const otherPlant = await createPlant(db, otherCustomer.id, { name: "Other Plant", timeZone: "UTC" });
  await createUser(db, otherCustomer.id, { admin: true, email: "other@bench.test" });
  const mqttLogin = async (customerId: string, plantId: string, name: string) => {
    const [ingestor] = await db
      .select({ id: ingestors.id })
      .from(ingestors)
      .where(eq(ingestors.plantId, plantId));
    if (!ingestor) throw new Error("no ingestor");
    const password = `${MQTT_PASSWORD_PREFIX}${randomBytes(24).toString("hex")}`;
    await db
      .insert(mqttCredentials)
      .values({ ingestorId: ingestor.id, customerId, passwordHash: hashToken(password) });
    const topicRoot = `${name}-${randomBytes(3).toString("hex")}`;
    await db
      .insert(dataSources)
      .values({ customerId, ingestorId: ingestor.id, name: "bench", topic: `${topicRoot}/#` });
    return { username: ingestor.id, password, topicRoot };
  };
  const otherLogin = await mqttLogin(otherCustomer.id, otherPlant.id, "other");

  let trickle: Seeded["trickle"];
  if (WITH_WORKER) {
    const heavyLogin = await mqttLogin(heavyCustomer.id, heavyPlant.id, "heavy");
    trickle = { ...heavyLogin, topic: `${heavyLogin.topicRoot}/Heavy Line/OP10` };
    const filter = storedFilterOf(
      ZTaskDetails.parse({
        cust_uuid: heavyCustomer.id,
        plant_uuid: heavyPlant.id,
        line_uuid: line.id,
        signal_uuids: signalRows.map((s) => s.id),
        sample_size: SAMPLE_SIZE,
        evaluation_ratio: EVALUATION_RATIO,
      }),
    );
    await createMonitorRow(db, line, {
      name: "Heavy MVD",
      type: "mvd",
      frequency: FREQUENCY,
      filter,
      filterMd5: monitorFilterMd5("mvd", filter),
      nextRunAt: new Date(now),
    });
  }

  return {
    heavy: {
      customerId: heavyCustomer.id,
      plantId: heavyPlant.id,
      lineId: line.id,
      signalIds: signalRows.map((s) => s.id),
      email: heavyUser.email,
    },
    other: {
      email: "other@bench.test",
      username: otherLogin.username,
      password: otherLogin.password,
      topic: `${otherLogin.topicRoot}/Other Line/OP10`,
    },
    trickle,
    records: count,
    seconds: (performance.now() - t0) / 1000,
  };
}

type Phase = "warmup" | "idle" | "heavy" | "after";
const PHASES: Phase[] = ["warmup", "idle", "heavy", "after"];

/** Latencies of a phase; `at` holds each answered one's planned start (ms, performance.now()). */
type Samples = { latencies: number[]; at: number[]; errors: number; planned: number };
const emptySamples = (): Record<Phase, Samples> =>
  Object.fromEntries(
    PHASES.map((p) => [p, { latencies: [] as number[], at: [] as number[], errors: 0, planned: 0 }]),
  ) as Record<Phase, Samples>;

/** The worst latency of each `stepMs` of planned starts from `from`: when in a phase it stalled. */
function timeline(s: Samples, from: number, seconds: number, stepMs = 2000): string {
  const worst = new Array<number>(Math.ceil((seconds * 1000) / stepMs)).fill(0);
  s.latencies.forEach((l, i) => {
    const k = Math.floor(((s.at[i] as number) - from) / stepMs);
    if (k >= 0 && k < worst.length) worst[k] = Math.max(worst[k] as number, l);
  });
  return worst.map((w) => (w >= 1000 ? `${(w / 1000).toFixed(1)}s` : `${w.toFixed(0)}`)).join(" ");
}

function describe(s: Samples): string {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const unanswered = s.planned - s.latencies.length - s.errors;
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(
    sorted.at(-1) ?? Number.NaN
  ).toFixed(1)} ms (${s.latencies.length} answered${s.errors ? `, ${s.errors} errors` : ""}${
    unanswered ? `, ${unanswered} unanswered` : ""
  })`;
}

async function main() {
  const loadAtStart = loadAverage();
  console.log(`stall benchmark — Node ${process.version}; load average at start ${loadAtStart}`);
  const port = await freePort();
  const mqttPort = await freePort();
  const scratch = usePostgres
    ? await createScratchPostgresDatabase(env.DATABASE_URL as string, "lw_bench_stall")
    : null;
  const dataDir = scratch ? null : mkdtempSync(path.join(tmpdir(), "lw-bench-stall-"));
  const profileDir = env.BENCH_CPU_PROFILE ? path.resolve(env.BENCH_CPU_PROFILE) : undefined;
  console.log(`database: ${scratch ? scratch.label : `PGlite (${dataDir})`}`);

  let child: ChildProcess | undefined;
  const cleanup = async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child?.once("exit", r));
    }
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const now = Date.now();
    const database = await openDatabase(
      scratch ? { databaseUrl: scratch.url } : { dataDir: dataDir as string },
    );
    const seeded = await seed(database, now).finally(() => database.close());
    console.log(
      `seeded in ${seeded.seconds.toFixed(0)} s: one line of ${SIGNALS} signals on one station, ${seeded.records} records (one every ${RECORD_EVERY_MINUTES} min: ${DAYS} days and ${SAMPLE_SIZE} before)${
        WITH_WORKER ? "; an active MVD monitor of the same shape for the worker" : ""
      }`,
    );

    child = spawn(
      process.execPath,
      [
        ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
        "--import",
        "tsx",
        "--import",
        path.join(here, "loop-delay.mjs"),
        path.join(root, "apps/server/src/main.ts"),
      ],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "pipe"],
        env: {
          ...env,
          NODE_ENV: "production",
          PORT: String(port),
          HOST: "127.0.0.1",
          MQTT_PORT: String(mqttPort),
          MQTT_URL: "",
          DATABASE_URL: scratch?.url ?? "",
          DATA_DIR: dataDir ?? "",
          ENCRYPTION_KEY: randomBytes(32).toString("base64"),
          LOG_LEVEL: env.LOG_LEVEL ?? "warn",
          DEMO: "false",
          ...(WITH_WORKER ? { WORKER_MINUTE_MS: String(WORKER_MINUTE_MS) } : {}),
        },
      },
    );
    let stderr = "";
    /** The server's event-loop delay each second (loop-delay.ts): when, its max and p99 (ms). */
    const loopDelays: { mono: number; max: number; p99: number }[] = [];
    let partial = "";
    child.stderr?.on("data", (c: Buffer) => {
      const lines = (partial + c.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const l of lines) {
        const m = /^loop-delay (\d+) ([\d.]+) ([\d.]+)$/.exec(l);
        if (m) loopDelays.push({ mono: Number(m[1]), max: Number(m[2]), p99: Number(m[3]) });
        else {
          stderr += `${l}\n`;
          if (env.BENCH_DEBUG) process.stderr.write(`${l}\n`);
        }
      }
    });
    const pid = child.pid as number;

    const signIn = async (email: string) => {
      const res = await request(
        port,
        "POST",
        "/api/auth/login",
        { "content-type": "application/json" },
        JSON.stringify({ email, password: PASSWORD }),
      );
      if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${res.body.slice(0, 200)}`);
      return (res.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
    };
    const startedAt = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
      if (Date.now() - startedAt > 300_000) throw new Error(`the server did not start in 300 s:\n${stderr}`);
      try {
        const res = await request(port, "GET", "/api/health", {});
        if (res.status < 500) break;
      } catch {
        // not listening yet
      }
      await sleep(500);
    }
    const otherCookie = await signIn(seeded.other.email);
    const heavyCookie = await signIn(seeded.heavy.email);
    console.log(`server up in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; both users signed in`);

    const mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
    const client = await mqtt.connectAsync(mqttUrl, {
      clientId: `lw-bench-stall-${process.pid}`,
      clean: true,
      username: seeded.other.username,
      password: seeded.other.password,
      reconnectPeriod: 1000,
    });
    const trickleClient = seeded.trickle
      ? await mqtt.connectAsync(mqttUrl, {
          clientId: `lw-bench-stall-heavy-${process.pid}`,
          clean: true,
          username: seeded.trickle.username,
          password: seeded.trickle.password,
        })
      : undefined;

    // ── The load: GETs and publishes, open loop, bucketed by the phase of their planned start ──
    const gets = emptySamples();
    const acks = emptySamples();
    let phase: Phase = "warmup";
    const phaseAt: Partial<Record<Phase, { mono: number; wall: number }>> = {};
    const enter = (p: Phase) => {
      phase = p;
      phaseAt[p] = { mono: monoUs(), wall: performance.now() };
    };
    enter("warmup");
    let running = true;
    const inFlight: Promise<void>[] = [];
    /** Calls `fire` at `rate` a second, evenly spaced whatever the answers take, until stopped. */
    const openLoop = async (rate: number, fire: (planned: number) => Promise<void>) => {
      const t0 = performance.now();
      for (let i = 0; running; i++) {
        const planned = t0 + (i * 1000) / rate;
        const wait = planned - performance.now();
        if (wait > 1) await sleep(wait);
        if (!running) break;
        inFlight.push(fire(planned));
      }
    };
    let seq = 0;
    const getLoop = openLoop(GET_RATE, (planned) => {
      const bucket = gets[phase];
      bucket.planned++;
      return request(port, "GET", "/api/plants", { cookie: otherCookie }).then(
        (res) => {
          if (res.status === 200) {
            bucket.latencies.push(performance.now() - planned);
            bucket.at.push(planned);
          } else bucket.errors++;
        },
        () => {
          bucket.errors++;
        },
      );
    });
    const publishLoop = openLoop(MQTT_RATE, (planned) => {
      const bucket = acks[phase];
      bucket.planned++;
      const i = seq++;
      const body = JSON.stringify({
        partId: `O-${i}`,
        modelNumber: "M-1",
        timestamp: new Date().toISOString(),
        measurements: { Width: 10 + Math.sin(i), Height: 20 + Math.cos(i) },
      });
      return new Promise<void>((resolve) => {
        client.publish(seeded.other.topic, body, { qos: 1 }, (err) => {
          if (err) bucket.errors++;
          else {
            bucket.latencies.push(performance.now() - planned);
            bucket.at.push(planned);
          }
          resolve();
        });
      });
    });
    // PostgreSQL only: the database's own latency, apart from the server's: a small transaction
    // (insert, commit) from the bench's own connection, open loop at 5/s.
    const probes = emptySamples();
    const probe = scratch ? new pg.Client({ connectionString: scratch.url }) : undefined;
    let probeLoop: Promise<void> = Promise.resolve();
    if (probe) {
      await probe.connect();
      await probe.query("create table bench_probe (at timestamptz not null default now(), n int)");
      let chain = Promise.resolve();
      probeLoop = openLoop(5, (planned) => {
        const bucket = probes[phase];
        bucket.planned++;
        // One connection: transactions one after another, each counted from its planned start.
        chain = chain.then(async () => {
          try {
            await probe.query("begin");
            await probe.query("insert into bench_probe (n) values (1)");
            await probe.query("commit");
            bucket.latencies.push(performance.now() - planned);
            bucket.at.push(planned);
          } catch {
            bucket.errors++;
          }
        });
        return chain;
      });
    }
    let trickled = 0;
    const trickleTimer = trickleClient
      ? setInterval(() => {
          const measurements: Record<string, number> = {};
          const g = gaussian(trickled + 1);
          for (let k = 0; k < SIGNALS; k++) measurements[signalName(k)] = 10 + (k % 17) + g();
          trickleClient.publish(
            seeded.trickle?.topic as string,
            JSON.stringify({
              partId: `T-${trickled++}`,
              modelNumber: "M-1",
              timestamp: new Date().toISOString(),
              measurements,
            }),
            { qos: 1 },
          );
        }, TRICKLE_SECONDS * 1000)
      : undefined;

    type Cpu = {
      total: number;
      main: number;
      threads: Map<number, { name: string; cpu: number }>;
      at: number;
    };
    const cpuNow = (): Cpu => ({
      total: cpuSeconds(pid),
      main: cpuSeconds(pid, pid),
      threads: threadCpu(pid),
      at: performance.now(),
    });
    const cpuMarks: Partial<Record<Phase | "after5" | "end", Cpu>> = {};

    await sleep(WARMUP_SECONDS * 1000);
    enter("idle");
    cpuMarks.idle = cpuNow();
    await sleep(IDLE_SECONDS * 1000);

    // ── Heavy: the backtest (streamed) and the preview loop, aborted at the end ──
    enter("heavy");
    cpuMarks.heavy = cpuNow();
    const heavyHeaders = { cookie: heavyCookie, "content-type": "application/json" };
    const heavyT0 = performance.now();
    const backtest = {
      status: 0,
      firstByteMs: Number.NaN,
      firstProgressMs: Number.NaN,
      lastLine: "",
      lines: 0,
      ended: "",
    };
    let backtestReq: http.ClientRequest | undefined;
    if (HEAVY.has("backtest")) {
      const body = JSON.stringify({
        task: {
          task_name: "Stall bench",
          task_type: "mvd",
          active: true,
          frequency: FREQUENCY,
          notes: "",
          task_details: {
            cust_uuid: seeded.heavy.customerId,
            plant_uuid: seeded.heavy.plantId,
            line_uuid: seeded.heavy.lineId,
            signal_uuids: seeded.heavy.signalIds,
            sample_size: SAMPLE_SIZE,
            evaluation_ratio: EVALUATION_RATIO,
          },
        },
        period: { days: DAYS },
      });
      backtestReq = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/monitors/backtest",
          headers: { ...heavyHeaders, accept: BACKTEST_STREAM_TYPE },
          agent: false,
        },
        (res) => {
          backtest.status = res.statusCode ?? 0;
          backtest.firstByteMs = performance.now() - heavyT0;
          let buffer = "";
          res.on("data", (c: Buffer) => {
            buffer += c.toString();
            let nl = buffer.indexOf("\n");
            while (nl >= 0) {
              const l = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              backtest.lines++;
              if (Number.isNaN(backtest.firstProgressMs) && l.includes('"progress"'))
                backtest.firstProgressMs = performance.now() - heavyT0;
              backtest.lastLine = l.length > 300 ? `${l.slice(0, 300)}…` : l;
              nl = buffer.indexOf("\n");
            }
          });
          res.on("end", () => {
            backtest.ended ||= `ended after ${((performance.now() - heavyT0) / 1000).toFixed(1)} s${buffer ? `: ${buffer.slice(0, 300)}` : ""}`;
          });
          res.on("error", () => {});
        },
      );
      backtestReq.on("error", (e) => {
        backtest.ended ||= `connection: ${e.message}`;
      });
      backtestReq.end(body);
    }
    const previews: { ms: number; status: number; body: string }[] = [];
    let previewReq: http.ClientRequest | undefined;
    let previewStarted = 0;
    let heavyRunning = true;
    const previewLoop = async () => {
      const body = JSON.stringify({
        type: "mvd",
        line_id: seeded.heavy.lineId,
        filter: {
          signal_uuids: seeded.heavy.signalIds,
          sample_size: SAMPLE_SIZE,
          evaluation_ratio: EVALUATION_RATIO,
        },
      });
      while (heavyRunning) {
        previewStarted = performance.now();
        const answer = await new Promise<{ status: number; body: string } | undefined>((resolve) => {
          previewReq = http.request(
            {
              host: "127.0.0.1",
              port,
              method: "POST",
              path: "/api/monitors/preview",
              headers: heavyHeaders,
              agent: false,
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (c: Buffer) => chunks.push(c));
              res.on("end", () =>
                resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
              );
              res.on("error", () => resolve(undefined));
            },
          );
          previewReq.on("error", () => resolve(undefined));
          previewReq.end(body);
        });
        if (!answer) break;
        previews.push({ ms: performance.now() - previewStarted, ...answer });
      }
    };
    const previewDone = HEAVY.has("preview") ? previewLoop() : Promise.resolve();
    await sleep(HEAVY_SECONDS * 1000);
    heavyRunning = false;
    const previewInFlightMs = previewReq && !previewReq.destroyed ? performance.now() - previewStarted : 0;
    backtestReq?.destroy();
    previewReq?.destroy();
    await previewDone;

    enter("after");
    cpuMarks.after = cpuNow();
    await sleep(Math.min(5, AFTER_SECONDS) * 1000);
    cpuMarks.after5 = cpuNow();
    await sleep(Math.max(0, AFTER_SECONDS - 5) * 1000);
    cpuMarks.end = cpuNow();
    const endMono = monoUs();
    running = false;
    await Promise.all([getLoop, publishLoop, probeLoop]);
    if (trickleTimer) clearInterval(trickleTimer);
    await Promise.race([Promise.all(inFlight), sleep(GRACE_SECONDS * 1000)]);
    await probe?.end();
    await client.endAsync(true);
    await trickleClient?.endAsync(true);

    // ── Report ──
    console.log(
      `\nGET /api/plants as the other customer at ${GET_RATE}/s and its plant's QoS 1 publishes at ${MQTT_RATE}/s, open loop; phases: idle ${IDLE_SECONDS} s, heavy ${HEAVY_SECONDS} s, after ${AFTER_SECONDS} s (after ${WARMUP_SECONDS} s warm-up)`,
    );
    console.log(
      `heavy: ${[...HEAVY].join(" + ")} of ${SIGNALS} signals, sample size ${SAMPLE_SIZE}${HEAVY.has("backtest") ? `, backtest ${DAYS} days at ${FREQUENCY} min` : ""}${WITH_WORKER ? `; the worker evaluating an MVD monitor of the same shape every ${(FREQUENCY * WORKER_MINUTE_MS) / 1000} s throughout` : ""}`,
    );
    for (const p of ["idle", "heavy", "after"] as const) {
      console.log(`  ${p.padEnd(5)}  GET  ${describe(gets[p])}`);
      console.log(`         ack  ${describe(acks[p])}`);
      if (probe) console.log(`         db   ${describe(probes[p])}`);
    }
    const heavyFrom = phaseAt.heavy?.wall as number;
    console.log(`  heavy, the worst latency (ms) of each 2 s from its start:`);
    console.log(`         GET  ${timeline(gets.heavy, heavyFrom, HEAVY_SECONDS)}`);
    console.log(`         ack  ${timeline(acks.heavy, heavyFrom, HEAVY_SECONDS)}`);
    if (probe) console.log(`         db   ${timeline(probes.heavy, heavyFrom, HEAVY_SECONDS)}`);
    const loopOf = (p: Phase, toMono: number) => {
      // A second's line is written at its end: it covers (mono − 1 s, mono].
      const inPhase = loopDelays.filter(
        (d) => d.mono > (phaseAt[p]?.mono as number) + 500_000 && d.mono <= toMono + 500_000,
      );
      return inPhase.length
        ? `max ${Math.max(...inPhase.map((d) => d.max)).toFixed(0)} ms, seconds with a delay over 100 ms: ${inPhase.filter((d) => d.max > 100).length} of ${inPhase.length}`
        : "no reading";
    };
    console.log(
      `  the server's event-loop delay (monitorEventLoopDelay, per second): idle ${loopOf("idle", phaseAt.heavy?.mono as number)}; heavy ${loopOf("heavy", phaseAt.after?.mono as number)}; after ${loopOf("after", endMono)}`,
    );
    const heavyLoop = loopDelays.filter(
      (d) =>
        d.mono > (phaseAt.heavy?.mono as number) + 500_000 &&
        d.mono <= (phaseAt.after?.mono as number) + 500_000,
    );
    console.log(
      `         loop, max of each second of heavy (ms): ${heavyLoop.map((d) => d.max.toFixed(0)).join(" ")}`,
    );
    const p50 = (s: Samples) =>
      percentile(
        [...s.latencies].sort((a, b) => a - b),
        0.5,
      );
    const ratio = p50(gets.heavy) / p50(gets.idle);
    const unanswered = (s: Samples) => s.planned - s.latencies.length - s.errors;
    const getMet = ratio <= GOAL.p50Ratio && unanswered(gets.heavy) === 0 && gets.heavy.errors === 0;
    if (HEAVY_SECONDS > 30) {
      // The reads, their conversion and packing happen in the first seconds; then the statistics
      // threads alone: the figures of that part apart.
      const late = (x: Samples): Samples => {
        const keep = x.at.map((a, i) => (a >= heavyFrom + 30_000 ? i : -1)).filter((i) => i >= 0);
        return {
          latencies: keep.map((i) => x.latencies[i] as number),
          at: keep.map((i) => x.at[i] as number),
          errors: 0,
          planned: keep.length,
        };
      };
      console.log(`  heavy after its first 30 s (the statistics threads alone, the reads done):`);
      console.log(`         GET  ${describe(late(gets.heavy))}`);
      console.log(`         ack  ${describe(late(acks.heavy))}`);
      if (probe) console.log(`         db   ${describe(late(probes.heavy))}`);
    }
    if (probe)
      console.log(
        `  the database probe's p50, heavy / idle: ${(p50(probes.heavy) / p50(probes.idle)).toFixed(2)}× (the machine's share of the slowdown: the probe does not go through the server)`,
      );
    console.log(
      `goal GET p50 heavy ≤ ${GOAL.p50Ratio}× idle: ${p50(gets.heavy).toFixed(1)} / ${p50(gets.idle).toFixed(1)} ms = ${ratio.toFixed(2)}× — ${getMet ? "met" : "NOT met"}`,
    );
    const ackMax = (s: Samples) => Math.max(...s.latencies, unanswered(s) > 0 ? Number.POSITIVE_INFINITY : 0);
    const ackWorst = Math.max(ackMax(acks.idle), ackMax(acks.heavy), ackMax(acks.after));
    const ackMet = ackWorst <= GOAL.ackMs;
    console.log(
      `goal acknowledgements ≤ ${GOAL.ackMs} ms: worst ${Number.isFinite(ackWorst) ? `${ackWorst.toFixed(0)} ms` : "unanswered"} — ${ackMet ? "met" : "NOT met"}`,
    );

    if (HEAVY.has("backtest"))
      console.log(
        `backtest: status ${backtest.status || "none"}, first byte after ${(backtest.firstByteMs / 1000).toFixed(1)} s, first progress after ${(backtest.firstProgressMs / 1000).toFixed(1)} s, ${backtest.lines} lines; last: ${backtest.lastLine || "(none)"}${backtest.ended ? `; ${backtest.ended}` : "; aborted by the bench"}`,
      );
    if (HEAVY.has("preview"))
      console.log(
        `previews: ${previews.length} answered${previews.length ? ` (${previews.map((p) => `${p.status} in ${(p.ms / 1000).toFixed(1)} s`).join(", ")})` : ""}${previewInFlightMs ? `; one aborted after ${(previewInFlightMs / 1000).toFixed(1)} s` : ""}${
          previews.find((p) => p.status !== 200)
            ? `; first failure: ${previews.find((p) => p.status !== 200)?.body.slice(0, 200)}`
            : ""
        }`,
      );

    const marks = ["idle", "heavy", "after", "after5", "end"] as const;
    const markNames = {
      idle: "idle",
      heavy: "heavy",
      after: "first 5 s after the abort",
      after5: "the rest of after",
    } as const;
    for (let i = 0; i < 4; i++) {
      const a = cpuMarks[marks[i] as (typeof marks)[number]] as Cpu;
      const b = cpuMarks[marks[i + 1] as (typeof marks)[number]] as Cpu;
      if (b.at - a.at < 500) continue;
      const secs = (b.at - a.at) / 1000;
      const busiest = [...b.threads]
        .map(([tid, t]) => ({ tid, name: t.name, cpu: t.cpu - (a.threads.get(tid)?.cpu ?? 0) }))
        .filter((t) => t.cpu > 0)
        .sort((x, y) => y.cpu - x.cpu)
        .slice(0, 5)
        .map(
          (t) => `${t.name}${t.name === "main" ? "" : `#${t.tid}`} ${((t.cpu / secs) * 100).toFixed(0)} %`,
        );
      console.log(
        `  server CPU, ${markNames[marks[i] as keyof typeof markNames]}: ${(((b.total - a.total) / secs) * 100).toFixed(0)} % of a core, main thread ${(((b.main - a.main) / secs) * 100).toFixed(0)} % (busiest threads: ${busiest.join(", ") || "none"})`,
      );
    }
    if (WITH_WORKER) console.log(`trickle: ${trickled} records of ${SIGNALS} measurements to the heavy line`);
    console.log(`load average at start ${loadAtStart}, at end ${loadAverage()}`);

    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child?.once("exit", r));
    }
    if (profileDir) {
      const file = mainThreadProfile(profileDir, pid);
      if (!file) console.log(`no CPU profile of process ${pid} in ${profileDir}`);
      else {
        console.log(`\nCPU profile ${file}`);
        const w = (p: Phase, to: number) => ({ name: p, fromUs: phaseAt[p]?.mono as number, toUs: to });
        for (const l of summarizeProfile(file, [
          w("idle", phaseAt.heavy?.mono as number),
          w("heavy", phaseAt.after?.mono as number),
          w("after", endMono),
        ]))
          console.log(l);
      }
    }
    process.exitCode = getMet && ackMet ? 0 : 1;
  } finally {
    await cleanup();
    agent.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
