// npm run bench:api — how the API answers under load (issue "Speed a person feels", API part).
// Starts the whole product as `npm start` runs it (API, worker, ingest with its embedded broker, the
// demo plant and its live simulator) in a child process on free ports, signs in as the demo
// administrator and sends the four ordinary reads of a line's page — the plant's lines, the line's
// alerts, monitors and signals — in turn, open loop: arrivals evenly spaced at the given rate
// whatever the answers take, each latency counted from its planned start (no coordinated omission).
// PostgreSQL (a fresh database of its own) when DATABASE_URL is set, else PGlite in a temporary
// folder. Prints the rate reached, p50 / p99 / max, errors, the app process's CPU per request (its
// CPU over the run less what it spent idle with the worker and the simulator alone, measured just
// before; and the share of its main thread, PGlite running in a thread of its own), and the load
// average at start and end, with the goals:
//   PostgreSQL p99 ≤ 25 ms at 400 requests/s; PGlite p99 ≤ 50 ms at 250/s; no errors.
// Settings: BENCH_RATE (requests/s; default 400 on PostgreSQL, 250 on PGlite), BENCH_SECONDS (20),
// BENCH_WARMUP_SECONDS (5, not counted), BENCH_IDLE_SECONDS (10, the background CPU),
// BENCH_WORKER_MINUTE_MS (2000: the worker's schedule runs 30× faster, so the demo's six monitors
// evaluate several times during the run; 60000 for the real clock),
// BENCH_CPU_PROFILE (a folder: the app process writes a V8 CPU profile there when it stops).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createScratchPostgresDatabase } from "./bench-db.js";
import { agent, cpuSeconds, freePort, percentile, request } from "./bench-http.js";
import { loadAverage } from "./load.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const usePostgres = !!process.env.DATABASE_URL;
const RATE = Number(process.env.BENCH_RATE ?? (usePostgres ? 400 : 250));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const GOAL = usePostgres ? { rate: 400, p99: 25 } : { rate: 250, p99: 50 };
/** The worker's schedule minute: shortened so the demo's monitors evaluate during the run. */
const WORKER_MINUTE_MS = Number(process.env.BENCH_WORKER_MINUTE_MS ?? 2000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of every PostgreSQL server process on this machine (other users' work included). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (name === "postgres") total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** A fresh PostgreSQL database for the run, with the two counts the report reads from it. */
async function createPostgresDatabase(url: string) {
  const scratch = await createScratchPostgresDatabase(url, "lw_bench_api");
  const count = async (target: string, query: string, params: unknown[] = []) => {
    const c = new pg.Client({ connectionString: target });
    await c.connect();
    const r = await c.query(query, params);
    await c.end();
    return Number(r.rows[0]?.n ?? 0);
  };
  return {
    ...scratch,
    /** Transactions committed in the bench database so far (each statement outside a transaction is one). */
    commits: () =>
      count(url, "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1", [scratch.name]),
    /** Evaluations the worker stored so far. */
    evaluations: () => count(scratch.url, "SELECT count(*)::int AS n FROM evaluations"),
  };
}

async function main() {
  console.log(`API benchmark — Node ${process.version}; load average at start ${loadAverage()}`);
  const port = await freePort();
  const mqttPort = await freePort();
  const pgDb = usePostgres ? await createPostgresDatabase(process.env.DATABASE_URL as string) : null;
  const dataDir = pgDb ? null : mkdtempSync(path.join(tmpdir(), "lw-bench-api-"));
  console.log(`database: ${pgDb ? pgDb.label : `PGlite (${dataDir})`}`);

  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROFILE
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
        : []),
      "--import",
      "tsx",
      path.join(root, "apps/server/src/main.ts"),
    ],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        MQTT_PORT: String(mqttPort),
        MQTT_URL: "",
        DATABASE_URL: pgDb?.url ?? "",
        DATA_DIR: dataDir ?? "",
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        LOG_LEVEL: "warn",
        DEMO: "true",
        WORKER_MINUTE_MS: String(WORKER_MINUTE_MS),
      },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    await pgDb?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // Up: the API answers and the demo plant is seeded (sign-in works).
    const startedAt = Date.now();
    let cookie = "";
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${stderr}`);
      if (Date.now() - startedAt > 300_000) throw new Error(`the server did not start in 300 s:\n${stderr}`);
      try {
        const res = await request(
          port,
          "POST",
          "/api/auth/login",
          { "content-type": "application/json" },
          JSON.stringify({ email: "admin@demo.local", password: "demo-admin" }),
        );
        if (res.status === 200) {
          const setCookie = res.headers["set-cookie"]?.[0] ?? "";
          cookie = setCookie.split(";")[0] ?? "";
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(500);
    }
    console.log(`server up in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (demo seeded, signed in)`);
    const headers = { cookie };
    const plants = JSON.parse((await request(port, "GET", "/api/plants", headers)).body) as {
      id: string;
      name: string;
    }[];
    const plant = plants.find((p) => p.name === "Detroit Assembly") ?? plants[0];
    if (!plant) throw new Error("no plant");
    const lines = JSON.parse((await request(port, "GET", `/api/plants/${plant.id}/lines`, headers)).body) as {
      id: string;
      name: string;
    }[];
    const line = lines[0];
    if (!line) throw new Error("no line");
    const reads = [
      `/api/plants/${plant.id}/lines`,
      `/api/lines/${line.id}/alerts`,
      `/api/lines/${line.id}/monitors`,
      `/api/lines/${line.id}/signals`,
    ];
    for (const url of reads) {
      const res = await request(port, "GET", url, headers);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.slice(0, 200)}`);
    }
    const pid = child.pid as number;

    // The background: the worker and the simulator alone.
    const idleCpu0 = cpuSeconds(pid);
    const idleMainCpu0 = cpuSeconds(pid, pid);
    const idleCommits0 = (await pgDb?.commits()) ?? 0;
    const idleStarted = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const idleCpuPerSecond = (cpuSeconds(pid) - idleCpu0) / idleSeconds;
    const idleMainCpuPerSecond = (cpuSeconds(pid, pid) - idleMainCpu0) / idleSeconds;
    const idleCommitsPerSecond = (((await pgDb?.commits()) ?? 0) - idleCommits0) / idleSeconds;
    const commits0 = (await pgDb?.commits()) ?? 0;
    const evaluations0 = (await pgDb?.evaluations()) ?? 0;

    const total = Math.round(RATE * (WARMUP_SECONDS + SECONDS));
    const warmup = Math.round(RATE * WARMUP_SECONDS);
    const latencies: number[] = [];
    const statusCounts = new Map<string, number>();
    let errors = 0;
    const t0 = performance.now() + 50;
    let cpuAtMeasureStart = 0;
    let mainCpuAtMeasureStart = 0;
    let measureStartedAt = 0;
    let pgCpuAtMeasureStart = 0;
    let clientCpuAtMeasureStart = process.cpuUsage();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const planned = t0 + (i * 1000) / RATE;
      const wait = planned - performance.now();
      if (wait > 1) await sleep(wait);
      if (i === warmup) {
        cpuAtMeasureStart = cpuSeconds(pid);
        mainCpuAtMeasureStart = cpuSeconds(pid, pid);
        pgCpuAtMeasureStart = usePostgres ? postgresCpuSeconds() : 0;
        clientCpuAtMeasureStart = process.cpuUsage();
        measureStartedAt = performance.now();
      }
      const url = reads[i % reads.length] as string;
      const counted = i >= warmup;
      inFlight.push(
        request(port, "GET", url, headers).then(
          (res) => {
            if (!counted) return;
            latencies.push(performance.now() - planned);
            if (res.status !== 200) {
              errors++;
              const key = `${res.status} ${url.split("/").slice(-1)[0]}`;
              statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
            }
          },
          () => {
            if (counted) errors++;
          },
        ),
      );
    }
    await Promise.all(inFlight);
    const measuredSeconds = (performance.now() - measureStartedAt) / 1000;
    // pg_stat_database is updated when a backend's transaction ends and reported with a delay.
    await sleep(1500);
    const commits = ((await pgDb?.commits()) ?? 0) - commits0;
    const evaluationsDuring = ((await pgDb?.evaluations()) ?? 0) - evaluations0;
    const busyCpu = cpuSeconds(pid) - cpuAtMeasureStart;
    const busyMainCpu = cpuSeconds(pid, pid) - mainCpuAtMeasureStart;
    const pgCpu = usePostgres ? postgresCpuSeconds() - pgCpuAtMeasureStart : 0;
    const clientCpuUs = process.cpuUsage(clientCpuAtMeasureStart);
    const clientCpu = (clientCpuUs.user + clientCpuUs.system) / 1e6;
    const requests = total - warmup;
    const cpuPerRequestMs = ((busyCpu - idleCpuPerSecond * measuredSeconds) / requests) * 1000;
    const mainCpuPerRequestMs = ((busyMainCpu - idleMainCpuPerSecond * measuredSeconds) / requests) * 1000;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    const max = latencies[latencies.length - 1] ?? Number.NaN;

    console.log(
      `\nfour reads in turn (${reads.map((r) => r.replace(/[0-9a-f-]{36}/g, ":id")).join(", ")}), open loop at ${RATE}/s for ${SECONDS} s after ${WARMUP_SECONDS} s warm-up`,
    );
    console.log(
      `requests ${requests}, sent at ${RATE}/s, all answered within ${measuredSeconds.toFixed(1)} s (${(requests / measuredSeconds).toFixed(0)}/s)`,
    );
    console.log(
      `latency p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; errors ${errors}${
        statusCounts.size > 0 ? ` (${[...statusCounts].map(([k, v]) => `${k}: ${v}`).join(", ")})` : ""
      }`,
    );
    console.log(
      `app process CPU ${((busyCpu / measuredSeconds) * 100).toFixed(0)} % of a core during the run, ${(
        idleCpuPerSecond * 100
      ).toFixed(
        0,
      )} % idle (worker, ingest, simulator); ${cpuPerRequestMs.toFixed(2)} ms CPU per request, ${mainCpuPerRequestMs.toFixed(2)} ms of it on the main thread (${((busyMainCpu / measuredSeconds) * 100).toFixed(0)} % of a core)`,
    );
    if (usePostgres) {
      const statements = (commits - idleCommitsPerSecond * (WARMUP_SECONDS + SECONDS + 1.5)) / total;
      console.log(
        `PostgreSQL transactions (statements) per request ≈ ${statements.toFixed(2)}; the worker stored ${evaluationsDuring} evaluations meanwhile (schedule minute ${WORKER_MINUTE_MS} ms)`,
      );
    }
    console.log(
      `${usePostgres ? `PostgreSQL ${((pgCpu / requests) * 1000).toFixed(2)} ms CPU per request (every postgres process on the machine); ` : ""}this load generator ${((clientCpu / requests) * 1000).toFixed(2)} ms CPU per request (${((clientCpu / measuredSeconds) * 100).toFixed(0)} % of a core)`,
    );
    const met = p99 <= GOAL.p99 && errors === 0 && RATE >= GOAL.rate;
    console.log(
      `goal (${usePostgres ? "PostgreSQL" : "PGlite"}): p99 ≤ ${GOAL.p99} ms at ${GOAL.rate}/s, no errors — p99 ${(p99 / GOAL.p99).toFixed(2)}× the goal at ${RATE}/s: ${met ? "met" : "NOT met"}`,
    );
    console.log(`load average at end ${loadAverage()}`);
  } finally {
    await stop();
    agent.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
