// npm run bench:engine — evaluations per minute sustained by the monitor worker on the demo data:
// 2,000 active monitors (svd / mvd / cap, windows of 150 to 3,000 records, alert rules on as in
// production), evaluated by one worker process and then by two (PostgreSQL when DATABASE_URL is
// set; PGlite otherwise, one worker in this process, and no two-worker run). Two cases, the
// realistic one first:
//   realistic — the monitors' slots spread over the minute before the phase (every one due, none
//               sharing a slot) and one monitor per claim (WORKER_BATCH_SIZE 1): no batch shares a
//               window query, as when monitors are created at different times;
//   shared    — every monitor due at one slot, claimed BENCH_BATCH_SIZE (16) at a time by line, so
//               a batch's monitors share queries: the best case.
// Each phase prints evaluations/min and CPU per evaluation (worker and PostgreSQL). Targets (issue
// "Speed a person feels"): ≥ 2,000 evaluations/min with one worker in the realistic case; two
// workers spend no more CPU per evaluation than one (within 10 %) and evaluate every due slot once.
// BENCH_CASES=realistic,shared (default both), BENCH_MONITORS, BENCH_BATCH_SIZE, BENCH_PHASE_S,
// BENCH_WARMUP (default 1: an unmeasured one-worker phase first), BENCH_WORKER_NODE_FLAGS,
// BENCH_ROUNDS (PostgreSQL, default 5: pairs of one- and two-worker phases, the order alternating;
// a phase is about 12 s, and one pair's CPU ratio ranged 0.88–1.30 on a quiet machine, so the goal
// is judged on the median pair), BENCH_WARM_PROCESSES (default 1: each phase's processes evaluate
// every monitor once, unmeasured, before the measured pass).
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  canonicalMonitorFilterJson,
  EVALUATION_STATES,
  parseStoredMonitorFilter,
  ratioOf,
  type TMonitorType,
  type TStoredMonitorFilter,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "../src/db/client.js";
import { monitors } from "../src/db/schema/index.js";
import { seedDemoIfEmpty } from "../src/modules/demo/demo.seed.js";
import { evaluateMonitor } from "../src/modules/evaluation/evaluate.js";
import { loadWindow, loadWindows } from "../src/modules/evaluation/window.read.js";
import { createOnEvaluated } from "../src/worker/alerts/apply.js";
import { previousLastRecordTs } from "../src/worker/schedule/schedule.js";
import { startWorker } from "../src/worker/worker.js";
import { openBenchDatabase } from "./bench-db.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const MONITORS = Number(process.env.BENCH_MONITORS ?? 2_000);
const TARGET = 2_000; // evaluations/min, one worker, realistic case
const CASES = (process.env.BENCH_CASES ?? "realistic,shared").split(",").map((c) => c.trim());
const BATCH_SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 16);
/** BENCH_WARMUP=0: no unmeasured phase before each case's measured ones (PostgreSQL only). */
const WARMUP = process.env.BENCH_WARMUP !== "0";
/** A phase ends when every due slot is evaluated or after this long. */
const PHASE_MS = Number(process.env.BENCH_PHASE_S ?? 90) * 1000;
/** Pairs of one- and two-worker phases a case runs (PostgreSQL); the goal is judged on the median. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** BENCH_WARM_PROCESSES=0: measure each phase's worker processes from their start (cold). */
const WARM_PROCESSES = process.env.BENCH_WARM_PROCESSES !== "0";
const SAMPLE_SIZES = [150, 250, 500, 750, 1_000, 1_500, 2_000, 3_000];
const THRESHOLDS = ["low", "medium", "high"] as const;
const ENCRYPTION_KEY = randomBytes(32).toString("base64");
const NEVER = new Date("2100-01-01T00:00:00Z");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => Math.round(n).toLocaleString("en");
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

type MeasurementSignal = {
  id: string;
  lineId: string;
  plantId: string;
  customerId: string;
  stationId: string;
  hasLimits: boolean;
};

/** 2,000 monitors over the demo's measurement signals with records; all parked until the run. */
async function createMonitors(database: Database) {
  const { db } = database;
  const signalsWithRecords = rowsOf<{
    id: string;
    line_id: string;
    plant_id: string;
    customer_id: string;
    station_id: string;
    has_limits: boolean;
  }>(
    await db.execute(sql`
      select s.id, s.line_id, l.plant_id, s.customer_id, s.station_id,
        (s.upper_limit_signal_id is not null or s.lower_limit_signal_id is not null
          or exists (select 1 from spc_limits sl where sl.signal_id = s.id)) as has_limits
      from signals s join lines l on l.id = s.line_id join customers c on c.id = s.customer_id
      where c.is_demo and s.entity_type = 'MEASUREMENT' and s.storage = 'num'
        and exists (select 1 from part_records pr where pr.station_id = s.station_id)
      order by l.name, s.station_id, s.name`),
  );
  const all: MeasurementSignal[] = signalsWithRecords.map((r) => ({
    id: r.id,
    lineId: r.line_id,
    plantId: r.plant_id,
    customerId: r.customer_id,
    stationId: r.station_id,
    hasLimits: Boolean(r.has_limits),
  }));
  const withLimits = all.filter((s) => s.hasLimits);
  const byStation = new Map<string, MeasurementSignal[]>();
  for (const s of all) byStation.set(s.stationId, [...(byStation.get(s.stationId) ?? []), s]);
  const mvdStations = [...byStation.values()].filter((list) => list.length >= 2);
  if (all.length === 0) throw new Error("the demo has no measurement signals with records");

  // The demo's own monitors would be evaluated too: park them, so exactly MONITORS are due.
  await db.execute(sql`update monitors set active = false`);

  const types: TMonitorType[] = ["svd", "mvd", "cap"].filter(
    (t) => (t !== "mvd" || mvdStations.length > 0) && (t !== "cap" || withLimits.length > 0),
  ) as TMonitorType[];
  const rows: (typeof monitors.$inferInsert)[] = [];
  for (let i = 0; i < MONITORS; i++) {
    const type = types[i % types.length] as TMonitorType;
    const k = Math.floor(i / types.length);
    let signals: MeasurementSignal[];
    if (type === "svd") signals = [all[k % all.length] as MeasurementSignal];
    else if (type === "cap") signals = [withLimits[k % withLimits.length] as MeasurementSignal];
    else {
      const station = mvdStations[k % mvdStations.length] as MeasurementSignal[];
      const p = Math.min(station.length, 2 + (k % 3)); // 2–4 measurements of one station
      const start = Math.floor(k / mvdStations.length) % station.length;
      signals = Array.from(
        { length: p },
        (_, j) => station[(start + j) % station.length] as MeasurementSignal,
      );
    }
    const first = signals[0] as MeasurementSignal;
    const filter: TStoredMonitorFilter = {
      signal_uuids: signals.map((s) => s.id),
      signal_group_uuids: [],
      part_attributes: [],
      sample_size: SAMPLE_SIZES[(i * 7 + k) % SAMPLE_SIZES.length] as number,
      pass_fail_filter: [],
      evaluation_ratio: 0.2,
      part_numbers: [],
      part_groups: [],
      ...(type === "cap" ? { op_count: "ALL" as const } : {}),
    };
    rows.push({
      customerId: first.customerId,
      plantId: first.plantId,
      lineId: first.lineId,
      name: `Bench ${type} ${i}`,
      type,
      active: true,
      frequency: 5,
      alertThreshold: THRESHOLDS[i % THRESHOLDS.length],
      filter,
      filterMd5: createHash("md5").update(canonicalMonitorFilterJson(type, filter)).digest("hex"),
      nextRunAt: NEVER,
    });
  }
  for (let i = 0; i < rows.length; i += 250) await db.insert(monitors).values(rows.slice(i, i + 250));
  return rows;
}

type Runner = { pid?: number; stop: () => Promise<void> };

/** A process's CPU seconds so far (utime + stime, or stime alone) from /proc; 0 once it is gone. */
function processCpuSeconds(pid: string, systemOnly = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((systemOnly ? 0 : Number(f[11])) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the PostgreSQL backends of the bench database (Linux /proc, when PostgreSQL runs
 * on this machine) since the tracker began, backend by backend: one that ends meanwhile (a pool
 * closing an idle connection) keeps what it had used at its last reading, and one that starts
 * meanwhile counts from 0. `read()` often (the phase's poll does, every 500 ms) so a short-lived
 * backend is seen. The bench's own connections (its polls, the lock sampler) count too: a few
 * hundredths of a millisecond an evaluation, alike in every phase.
 */
function postgresCpuTracker(dbName: string) {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const read = (initial: boolean) => {
    try {
      for (const pid of readdirSync("/proc")) {
        if (!/^[0-9]+$/.test(pid)) continue;
        try {
          if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dbName)) continue;
        } catch {
          continue;
        }
        const t = processCpuSeconds(pid);
        if (t === 0 && last.has(pid)) continue; // gone between the two reads
        if (!first.has(pid)) first.set(pid, initial ? t : 0);
        last.set(pid, t);
      }
    } catch {}
  };
  read(true);
  return {
    read: () => read(false),
    total: () => [...last].reduce((a, [pid, t]) => a + t - (first.get(pid) ?? 0), 0),
  };
}

/** CPU seconds used so far by the given processes, and by PostgreSQL's backends since `pg` began. */
function cpuSeconds(
  pids: number[],
  pg?: ReturnType<typeof postgresCpuTracker>,
): { workers: number; workersSystem: number; postgres: number } {
  pg?.read();
  return {
    workers: pids.reduce((a, p) => a + processCpuSeconds(String(p)), 0),
    workersSystem: pids.reduce((a, p) => a + processCpuSeconds(String(p), true), 0),
    postgres: pg?.total() ?? 0,
  };
}

function startWorkerProcess(id: string, url: string, batchSize: number): Promise<Runner> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: each worker process writes a V8 CPU profile there when it stops.
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      // BENCH_WORKER_NODE_FLAGS: Node/V8 flags for the worker processes (e.g. --single-threaded-gc).
      ...(process.env.BENCH_WORKER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
      "--import",
      "tsx",
      path.join(root, "apps/server/src/main.ts"),
      "--role",
      "worker",
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        DEMO: "false",
        ENCRYPTION_KEY,
        // info: the bench waits for the worker's "started" line (the output is kept, printed on failure).
        LOG_LEVEL: "info",
        WORKER_ID: id,
        WORKER_POLL_MS: "50",
        WORKER_LEASE_MS: "120000",
        WORKER_BATCH_SIZE: String(batchSize),
        // Two worker processes on one host: no health endpoints, or the second finds 9464 taken.
        HEALTH_PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${id} did not start: ${out}`)), 180_000);
    child.stdout?.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes(`worker ${id} started`)) {
        clearTimeout(timer);
        resolve({
          pid: child.pid,
          stop: async () => {
            if (child.exitCode == null) child.kill("SIGTERM");
            await exited;
            if (process.env.BENCH_DEBUG) console.log(out);
          },
        });
      }
    });
    child.stderr?.on("data", (b: Buffer) => (out += b.toString()));
    child.once("exit", (code) => reject(new Error(`worker ${id} exited ${code}: ${out}`)));
  });
}

type Phase = {
  /**
   * PostgreSQL: pg_stat_activity sampled every 50 ms during the phase — the bench database's
   * active client backends seen, and how many of them were waiting on a lock (a row, tuple or
   * transaction lock: a worker held up by another's claim or write).
   */
  locks?: { samples: number; active: number; waiting: number };
  perMinute: number;
  wallPerMinute: number;
  evaluated: number;
  seconds: number;
  complete: boolean;
  /**
   * CPU ms per evaluation of the worker processes and of the PostgreSQL backends (when read), in
   * the steady state (after the first 10 % of evaluations); `cpuWhole` over the whole phase.
   */
  cpu?: { worker: number; postgres: number };
  cpuWhole?: { worker: number; postgres: number };
  /** 1-minute load average when the phase ended. */
  load: number;
};

/**
 * Makes every bench monitor due — at one fresh slot, or (spread) each at its own slot over the
 * minute before now, in an order unrelated to their lines — lets the runners work, measures from
 * the table.
 */
async function runPhase(
  database: Database,
  runners: Runner[],
  label: string,
  spread: boolean,
  dbName?: string,
  /** Leave the runners running after the phase (a warming phase before a measured one). */
  keepRunning = false,
): Promise<Phase> {
  const { db } = database;
  const pids = runners.map((r) => r.pid).filter((p): p is number => p != null);
  const pg = dbName ? postgresCpuTracker(dbName) : undefined;
  const cpu0 = pids.length ? cpuSeconds(pids, pg) : undefined;
  const self0 = process.cpuUsage();
  const started = Date.now();
  const startedAt = new Date(started);
  const slot = new Date(started - (spread ? 60_000 : 0));
  const lastSlot = new Date(started);
  if (spread) {
    await db.execute(sql`update monitors m set next_run_at = ${slot}::timestamptz
        + (s.k * 60000.0 / ${MONITORS}) * interval '1 millisecond', lease_owner = null, lease_until = null
      from (select id, row_number() over (order by md5(id::text)) - 1 as k from monitors where active) s
      where m.id = s.id`);
  } else {
    await db.execute(sql`update monitors set next_run_at = ${slot}, lease_owner = null, lease_until = null
      where active`);
  }
  // This phase's evaluations: slots in its range, stored after it began (earlier phases' are older).
  const ofPhase = sql`slot between ${slot} and ${lastSlot} and evaluated_at >= ${startedAt}`;
  const done = async () =>
    rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from evaluations where ${ofPhase}`),
    )[0]?.n ?? 0;
  // Steady state: CPU from the poll that first sees 10 % evaluated to the end, as the rate is
  // taken after the first 10 %. Each worker process starts cold (V8 compiles the evaluation code
  // as it first runs, its PostgreSQL backend fills its caches), and two workers pay that twice
  // for half the evaluations each; a worker runs for days, so the steady state is its real cost.
  let sampling = !!dbName;
  const locks = { samples: 0, active: 0, waiting: 0 };
  const sampler = (async () => {
    while (sampling) {
      const [row] = rowsOf<{ active: number; waiting: number }>(
        await db.execute(sql`select count(*) filter (where state = 'active')::int as active,
            count(*) filter (where state = 'active' and wait_event_type = 'Lock')::int as waiting
          from pg_stat_activity
          where datname = ${dbName ?? ""} and backend_type = 'client backend' and pid <> pg_backend_pid()`),
      );
      locks.samples++;
      locks.active += row?.active ?? 0;
      locks.waiting += row?.waiting ?? 0;
      await sleep(50);
    }
  })().catch((err: unknown) => {
    sampling = false;
    console.log(`    lock sampler stopped: ${err instanceof Error ? err.message : String(err)}`);
  });
  let n = 0;
  let warm: { n: number; cpu: ReturnType<typeof cpuSeconds> } | undefined;
  try {
    for (;;) {
      n = await done();
      if (process.env.BENCH_DEBUG) console.log(`  ${label}: ${n} evaluated`);
      pg?.read();
      if (!warm && pids.length && n >= MONITORS * 0.1) warm = { n, cpu: cpuSeconds(pids, pg) };
      if (n >= MONITORS || Date.now() - started > PHASE_MS) break;
      await sleep(500);
    }
  } finally {
    sampling = false;
  }
  const cpu1 = pids.length ? cpuSeconds(pids, pg) : undefined;
  await sampler;
  const nEnd = n;
  const cpuWallS = (Date.now() - started) / 1000;
  const self = process.cpuUsage(self0);
  if (!keepRunning) await Promise.all(runners.map((r) => r.stop()));
  const times = rowsOf<{ t: number }>(
    await db.execute(sql`select extract(epoch from evaluated_at)::float8 * 1000 as t
      from evaluations where ${ofPhase} order by evaluated_at`),
  ).map((r) => Number(r.t));
  const evaluated = times.length;
  const from = Math.floor(evaluated * 0.1);
  const t0 = times[from] ?? 0;
  const t1 = times[evaluated - 1] ?? 0;
  const perMinute = t1 > t0 ? ((evaluated - 1 - from) / (t1 - t0)) * 60_000 : 0;
  const wallPerMinute = (evaluated / Math.max(1, t1 - started)) * 60_000;
  const states = rowsOf<{ state: string; n: number }>(
    await db.execute(sql`select state, count(*)::int as n from evaluations where ${ofPhase}
      group by state order by state`),
  );
  const byState = Object.fromEntries(states.map((s) => [s.state, s.n]));
  const share = (s: string) => `${s} ${(((byState[s] ?? 0) / Math.max(1, evaluated)) * 100).toFixed(1)} %`;
  console.log(
    `  ${label}: ${evaluated} of ${MONITORS} evaluated in ${((t1 - started) / 1000).toFixed(1)} s; ` +
      EVALUATION_STATES.map(share).join(", "),
  );
  const perEval = (sec: number) => `${((sec / Math.max(1, evaluated)) * 1000).toFixed(1)} ms`;
  let cpu: Phase["cpu"];
  let cpuWhole: Phase["cpu"];
  if (cpu0 && cpu1) {
    const w = cpu1.workers - cpu0.workers;
    const p = cpu1.postgres - cpu0.postgres;
    cpuWhole = { worker: (w / Math.max(1, evaluated)) * 1000, postgres: (p / Math.max(1, evaluated)) * 1000 };
    console.log(
      `    CPU per evaluation, whole phase: worker process${pids.length > 1 ? "es" : ""} ${perEval(w)}, ` +
        `PostgreSQL backends ${p > 0 ? perEval(p) : "not readable"}; ` +
        `${((w + p) / cpuWallS).toFixed(2)} of ${availableParallelism()} cores busy with the bench`,
    );
    cpu = cpuWhole;
    if (warm && nEnd > warm.n) {
      const k = nEnd - warm.n;
      const ws = cpu1.workers - warm.cpu.workers;
      const ps = cpu1.postgres - warm.cpu.postgres;
      const system = ((cpu1.workersSystem - warm.cpu.workersSystem) / k) * 1000;
      cpu = { worker: (ws / k) * 1000, postgres: (ps / k) * 1000 };
      console.log(
        `    CPU per evaluation, steady state (the last ${k} evaluations, after the first ${warm.n}): ` +
          `worker ${cpu.worker.toFixed(1)} ms (${system.toFixed(1)} of it in the kernel), ` +
          `PostgreSQL ${ps > 0 ? `${cpu.postgres.toFixed(1)} ms` : "not readable"}`,
      );
    }
  } else {
    const c = (self.user + self.system) / 1e6;
    console.log(
      `    CPU per evaluation: this process (worker + PGlite) ${perEval(c)}; ${(c / cpuWallS).toFixed(2)} cores busy`,
    );
  }
  if ((byState.ERROR ?? 0) > 0) {
    const reasons = rowsOf<{ reason: string; n: number }>(
      await db.execute(sql`select coalesce(reason, '?') as reason, count(*)::int as n from evaluations
        where ${ofPhase} and state = 'ERROR' group by 1 order by 2 desc limit 5`),
    );
    for (const r of reasons) console.log(`    ERROR ×${r.n}: ${r.reason}`);
  }
  if ((byState.NO_DATA ?? 0) > 0) {
    const reasons = rowsOf<{ reason: string; n: number }>(
      await db.execute(sql`select regexp_replace(coalesce(reason, '?'), '[0-9TZ:.-]{6,}', '…', 'g') as reason,
        count(*)::int as n from evaluations where ${ofPhase} and state = 'NO_DATA'
        group by 1 order by 2 desc limit 3`),
    );
    for (const r of reasons) console.log(`    NO_DATA ×${r.n}: ${r.reason}`);
  }
  if (dbName) {
    console.log(
      `    lock waits: ${locks.waiting} of ${locks.active} active backends seen in ${locks.samples} samples of pg_stat_activity (${(
        (100 * locks.waiting) / Math.max(1, locks.active)
      ).toFixed(1)} %)`,
    );
  }
  const load = loadavg()[0] ?? 0;
  console.log(`    load average ${load.toFixed(2)} when the phase ended`);
  return {
    perMinute,
    wallPerMinute,
    evaluated,
    seconds: (t1 - started) / 1000,
    complete: evaluated >= MONITORS,
    ...(cpu ? { cpu } : {}),
    ...(cpuWhole ? { cpuWhole } : {}),
    ...(dbName ? { locks } : {}),
    load,
  };
}

/**
 * The next phase must do the same work: the "nothing new since the previous evaluation" rule would
 * turn every second evaluation into a cheap NO_DATA, so the previous slot's newest-record marks are
 * cleared (the evaluations themselves, alerts and rule streaks stay).
 */
async function forgetLastRecordTs(database: Database) {
  await database.db.execute(sql`update evaluations set last_record_ts = null`);
}

/**
 * Where the time goes: a sample of the monitors evaluated one at a time in this process, timed
 * per step (window query, previous-evaluation lookup, statistics); storing and alert rules are
 * the rest of a worker's evaluation.
 */
async function profile(database: Database, sample: number) {
  const { db } = database;
  const rows = rowsOf<{
    id: string;
    customer_id: string;
    line_id: string;
    type: "svd" | "mvd" | "cap";
    alert_threshold: "low" | "medium" | "high";
    filter: unknown;
  }>(
    await db.execute(sql`select id, customer_id, line_id, type, alert_threshold, filter from monitors
      where active order by id`),
  );
  const step = Math.max(1, Math.floor(rows.length / sample));
  const by = new Map<
    string,
    { n: number; window: number; previous: number; stats: number; records: number }
  >();
  for (let i = 0; i < rows.length; i += step) {
    const m = rows[i];
    if (!m) continue;
    const filter = parseStoredMonitorFilter(typeof m.filter === "string" ? JSON.parse(m.filter) : m.filter);
    const t0 = performance.now();
    const window = await loadWindow(db, {
      customerId: m.customer_id,
      lineId: m.line_id,
      type: m.type,
      filter,
    });
    const t1 = performance.now();
    await previousLastRecordTs(db, m.id);
    const t2 = performance.now();
    evaluateMonitor(
      {
        type: m.type,
        alertThreshold: m.alert_threshold,
        sampleSize: filter.sample_size,
        evaluationRatio: ratioOf(filter),
        previousLastRecordTs: null,
      },
      window,
    );
    const t3 = performance.now();
    const a = by.get(m.type) ?? { n: 0, window: 0, previous: 0, stats: 0, records: 0 };
    a.n++;
    a.window += t1 - t0;
    a.previous += t2 - t1;
    a.stats += t3 - t2;
    a.records += window.records.length;
    by.set(m.type, a);
  }
  for (const [type, a] of [...by].sort()) {
    const ms = (x: number) => `${(x / a.n).toFixed(1)} ms`;
    console.log(
      `  ${type}: window query ${ms(a.window)} (${Math.round(a.records / a.n)} records), previous evaluation ${ms(a.previous)}, statistics ${ms(a.stats)} — ${a.n} monitors`,
    );
  }
  // The worker's way: a claimed batch's windows together (the claims of one slot come by line).
  const queries = [...rows]
    .sort((a, b) => (a.line_id < b.line_id ? -1 : a.line_id > b.line_id ? 1 : 0))
    .map((m) => ({
      customerId: m.customer_id,
      lineId: m.line_id,
      type: m.type,
      filter: parseStoredMonitorFilter(typeof m.filter === "string" ? JSON.parse(m.filter) : m.filter),
    }));
  const t0 = performance.now();
  let records = 0;
  for (let i = 0; i < queries.length; i += BATCH_SIZE)
    for (const w of await loadWindows(db, queries.slice(i, i + BATCH_SIZE)))
      if (!(w instanceof Error)) records += w.records.length;
  console.log(
    `  all ${queries.length} windows as the worker loads them (batches of ${BATCH_SIZE}, monitors reading the same records share a query): ` +
      `${((performance.now() - t0) / queries.length).toFixed(1)} ms per monitor (${Math.round(records / queries.length)} records)`,
  );
}

async function main() {
  const { database, url, label, drop } = await openBenchDatabase(4);
  const dbName = url ? new URL(url).pathname.slice(1) : undefined;
  const { db } = database;
  try {
    console.log(`database:  ${label}`);
    console.log(
      `machine:   ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start (${url ? "PostgreSQL shares them when local" : "PGlite runs in this process"})`,
    );
    const s0 = Date.now();
    const seeded = await seedDemoIfEmpty(db);
    console.log(
      `demo data: ${seeded?.partRecords ?? 0} part records seeded in ${((Date.now() - s0) / 1000).toFixed(1)} s`,
    );
    const rows = await createMonitors(database);
    // A running installation has planner statistics (autovacuum analyzes after bulk inserts); a
    // freshly seeded database has none yet, and the window query then reads a station's every
    // record and sorts it instead of scanning the newest ones backwards (about 10× slower).
    // BENCH_ANALYZE=0 measures that state.
    const analyze = process.env.BENCH_ANALYZE !== "0";
    if (analyze) await db.execute(sql`analyze`);
    console.log(
      `planner:   ${analyze ? "statistics gathered (ANALYZE) after seeding" : "no ANALYZE after seeding (BENCH_ANALYZE=0)"}`,
    );
    const byType = new Map<string, number>();
    const bySize = new Map<number, number>();
    for (const r of rows) {
      byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
      const f = r.filter as TStoredMonitorFilter;
      bySize.set(f.sample_size, (bySize.get(f.sample_size) ?? 0) + 1);
    }
    console.log(
      `monitors:  ${rows.length} active, every 5 min, alert rules on — ${[...byType].map(([t, n]) => `${t} ${n}`).join(", ")}`,
    );
    console.log(
      `windows:   ${[...bySize]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(", ")} records (evaluation ratio 0.2)`,
    );
    console.log(
      `worker:    poll 50 ms, phase ≤ ${PHASE_MS / 1000} s; cases ${CASES.join(", ")}; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" / ")} before the first phase`,
    );
    console.log("");

    const results: { name: string; rounds: { one: Phase; two?: Phase }[] }[] = [];
    for (const name of CASES) {
      if (name !== "realistic" && name !== "shared") throw new Error(`unknown case ${name}`);
      const spread = name === "realistic";
      const batchSize = spread ? 1 : BATCH_SIZE;
      console.log(
        spread
          ? "realistic: slots spread over the minute, one monitor per claim"
          : `shared slot: every monitor due at one slot, ${BATCH_SIZE} a claim by line`,
      );
      if (url && WARMUP) {
        // Unmeasured: PostgreSQL reads the fresh tables into its buffers and autovacuum sees the
        // seeded rows once, so neither lands on the first measured phase only.
        await forgetLastRecordTs(database);
        await runPhase(
          database,
          [await startWorkerProcess("bench-warm", url, batchSize)],
          "warm-up (not compared)",
          spread,
          dbName,
        );
      }
      // A worker runs for days: each phase's processes first evaluate every monitor once,
      // unmeasured, so V8's compilation of the evaluation code (paid per process, so twice by two
      // workers) stays out of the comparison. BENCH_WARM_PROCESSES=0 measures cold processes.
      const measured = async (runners: Runner[], label: string) => {
        if (WARM_PROCESSES) {
          await forgetLastRecordTs(database);
          await runPhase(database, runners, `${label}, warming (not compared)`, spread, dbName, true);
        }
        await forgetLastRecordTs(database);
        return runPhase(database, runners, label, spread, dbName);
      };
      const runOne = async (round: string) => {
        if (url) {
          return measured(
            [await startWorkerProcess("bench-1", url, batchSize)],
            `one worker process${round}`,
          );
        }
        await forgetLastRecordTs(database);
        const w = startWorker({
          db,
          pollMs: 50,
          leaseMs: 120_000,
          batchSize,
          owner: "bench-1",
          onEvaluated: createOnEvaluated(),
        });
        return runPhase(database, [w], "one worker (in this process, PGlite)", spread);
      };
      const runTwo = async (round: string) => {
        const runners = await Promise.all([
          startWorkerProcess("bench-1", url as string, batchSize),
          startWorkerProcess("bench-2", url as string, batchSize),
        ]);
        return measured(runners, `two worker processes${round}`);
      };
      const rounds: { one: Phase; two?: Phase }[] = [];
      if (!url) {
        rounds.push({ one: await runOne("") });
      } else {
        for (let r = 0; r < ROUNDS; r++) {
          const round = ROUNDS > 1 ? ` (round ${r + 1} of ${ROUNDS})` : "";
          // The order alternates, so neither side always runs on the warmer tables.
          if (r % 2 === 0) {
            const one = await runOne(round);
            rounds.push({ one, two: await runTwo(round) });
          } else {
            const two = await runTwo(round);
            rounds.push({ one: await runOne(round), two });
          }
        }
      }
      results.push({ name, rounds });
      console.log("");
    }

    for (const { name, rounds } of results) {
      // The figures printed are one round's, the round whose CPU ratio is the median, so the ratio
      // printed is theirs; the rate against the target is the median of the one-worker phases.
      const twos = rounds.flatMap((r) => (r.two ? [r.two] : []));
      const ratioOf = (r: { one: Phase; two?: Phase }) =>
        r.one.cpu && r.two?.cpu
          ? (r.two.cpu.worker + r.two.cpu.postgres) / (r.one.cpu.worker + r.one.cpu.postgres)
          : undefined;
      const byRatio = rounds
        .map((r, index) => ({ r, index, ratio: ratioOf(r) }))
        .sort((a, b) => (a.ratio ?? 0) - (b.ratio ?? 0));
      const middle = byRatio[Math.floor((byRatio.length - 1) / 2)] as (typeof byRatio)[number];
      const { one, two } = middle.r;
      const medianRate = median(rounds.map((r) => r.one.perMinute));
      console.log(
        `${name === "realistic" ? "realistic (spread slots, one a claim)" : "shared slot (best case)"}${
          rounds.length > 1
            ? `, ${rounds.length} rounds; the figures are round ${middle.index + 1}'s, whose CPU ratio is the median`
            : ""
        }:`,
      );
      console.log(
        `  one worker:  ${fmt(one.perMinute)} evaluations/min sustained (after the first 10 %; ${fmt(one.wallPerMinute)}/min from the start)${
          one.cpu
            ? `, CPU ${one.cpu.worker.toFixed(1)} ms worker + ${one.cpu.postgres.toFixed(1)} ms PostgreSQL an evaluation (steady state)`
            : ""
        }`,
      );
      if (name === "realistic")
        console.log(
          `               ratio to target: ${(medianRate / TARGET).toFixed(2)} (the median one-worker rate, ${fmt(medianRate)}/min; target ${fmt(TARGET)}/min with one worker)`,
        );
      if (two) {
        console.log(
          `  two workers: ${fmt(two.perMinute)} evaluations/min sustained (${fmt(two.wallPerMinute)}/min from the start)${
            two.cpu
              ? `, CPU ${two.cpu.worker.toFixed(1)} ms workers + ${two.cpu.postgres.toFixed(1)} ms PostgreSQL an evaluation (steady state)`
              : ""
          }; every due slot evaluated once: ${twos.every((t) => t.complete) ? "yes" : "NO"}`,
        );
        console.log(
          `               speed-up ${(two.perMinute / one.perMinute).toFixed(2)}× (ratio to 2 × one worker ${(two.perMinute / (2 * one.perMinute)).toFixed(2)})`,
        );
        const ratios = rounds.flatMap((r) => {
          const x = ratioOf(r);
          return x === undefined ? [] : [x];
        });
        const wholes = rounds.flatMap((r) =>
          r.one.cpuWhole && r.two?.cpuWhole
            ? [
                (r.two.cpuWhole.worker + r.two.cpuWhole.postgres) /
                  (r.one.cpuWhole.worker + r.one.cpuWhole.postgres),
              ]
            : [],
        );
        if (ratios.length) {
          const ratio = median(ratios);
          console.log(
            `               CPU per evaluation, two workers against one, steady state: ${(middle.ratio ?? ratio).toFixed(2)} (goal ≤ 1.10: ${(middle.ratio ?? ratio) <= 1.1 ? "met" : "NOT met"})` +
              (ratios.length > 1
                ? `, the median of the rounds' ${ratios.map((x) => x.toFixed(2)).join(", ")}`
                : "") +
              (wholes.length ? `; whole phase, cold starts included: ${median(wholes).toFixed(2)}` : ""),
          );
        }
        if (one.cpu && one.cpu.postgres > 0) {
          // One worker spends w ms of its own CPU and p ms of PostgreSQL's an evaluation, so at its
          // rate it keeps (w + p) × rate cores busy; it also waits for each answer, so that is below
          // one core each. Two workers can at most fill the machine's cores.
          const { worker: w, postgres: p } = one.cpu;
          const cores = availableParallelism();
          const busy = ((w + p) * one.perMinute) / 60_000;
          const ceiling = Math.min(2, cores / busy);
          console.log(
            `               why: one worker with its PostgreSQL keeps ${busy.toFixed(2)} of ${cores} cores busy, so two can gain about ${ceiling.toFixed(2)}× at most, less what else runs (load average ${one.load.toFixed(2)} / ${two.load.toFixed(2)} after that round's phases)`,
          );
        }
        const lockShare = (phases: Phase[]) => {
          const active = phases.reduce((a, p) => a + (p.locks?.active ?? 0), 0);
          const waiting = phases.reduce((a, p) => a + (p.locks?.waiting ?? 0), 0);
          return `${((100 * waiting) / Math.max(1, active)).toFixed(1)} % (${waiting} of ${active})`;
        };
        console.log(
          `               lock waits, every round: one worker ${lockShare(rounds.map((r) => r.one))}, two workers ${lockShare(twos)} of the active backends seen in pg_stat_activity every 50 ms`,
        );
      } else {
        console.log(
          "  two workers: skipped — PGlite is one process's database; set DATABASE_URL to run two worker processes",
        );
      }
    }
    console.log("");
    console.log("profile (one evaluation at a time, in this process, per monitor type):");
    await profile(database, Number(process.env.BENCH_PROFILE_MONITORS ?? 150));
    if (results.some((c) => c.rounds.some((r) => !r.one.complete || (r.two && !r.two.complete))))
      console.log(`note: a phase stopped at ${PHASE_MS / 1000} s before every due slot was evaluated`);
  } finally {
    console.log(
      `load average at end ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" / ")}`,
    );
    await database.close();
    await drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
