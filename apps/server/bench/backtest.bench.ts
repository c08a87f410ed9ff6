// npm run bench:backtest — the backtest's promise (issue #18 §1): 7 days at a 5-minute frequency
// (2,016 evaluations) of an MVD monitor with 10 signals and sample_size 150 answers in under 3 s.
// Seeds one line with 10 measurements and a record every 30 s for the 7 days and the window before
// them (PGlite in a temporary folder; a fresh PostgreSQL database when DATABASE_URL is set), then
// times the backtest service end to end (catalog, the two record reads, 2,016 evaluations, alert
// rules) BENCH_RUNS times (default 5) and prints the median against the goal, with where the time
// went (reading against replaying) and the load average at start and end.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { storedFilterOf, ZTaskDetails } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { partRecords, signals, stations } from "../src/db/schema/index.js";
import type { AuthContext } from "../src/modules/auth/auth.service.js";
import { replayMonitor, slotsOf } from "../src/modules/backtest/backtest.replay.js";
import { createBacktestService } from "../src/modules/backtest/backtest.service.js";
import { createStatsPool, STATS_BUDGET_DEFAULTS } from "../src/modules/evaluation/stats-pool.js";
import { openRecordSpan } from "../src/modules/evaluation/window.read.js";
import { createCustomer, createLine, createPlant } from "../test/factories.js";
import { readRecordSpan } from "../test/helpers/record-span.js";
import { openBenchDatabase } from "./bench-db.js";

const GOAL_MS = 3_000;
const DAYS = 7;
const FREQUENCY = 5; // minutes
const SIGNALS = 10;
const SAMPLE_SIZE = 150;
const RECORD_EVERY_MS = 30_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MINUTE = 60_000;

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function main() {
  const loadAtStart = load();
  const bench = await openBenchDatabase();
  const db = bench.database.db;
  try {
    const customer = await createCustomer(db);
    const plant = await createPlant(db, customer.id);
    const line = await createLine(db, customer.id, plant.id);
    const [station] = await db
      .insert(stations)
      .values({ customerId: customer.id, lineId: line.id, name: "OP10", nextNumSlot: SIGNALS })
      .returning();
    if (!station) throw new Error("no station");
    const signalRows = await db
      .insert(signals)
      .values(
        Array.from({ length: SIGNALS }, (_, slot) => ({
          customerId: customer.id,
          lineId: line.id,
          stationId: station.id,
          name: `Signal ${slot + 1}`,
          entityType: "MEASUREMENT" as const,
          storage: "num" as const,
          slot,
        })),
      )
      .returning({ id: signals.id });

    // The period ends on a slot; records run from one window (and a margin) before it.
    const to = new Date(Math.floor(Date.now() / (FREQUENCY * MINUTE)) * FREQUENCY * MINUTE);
    const from = new Date(to.getTime() - DAYS * 24 * 60 * MINUTE);
    const first = from.getTime() - (SAMPLE_SIZE + 50) * RECORD_EVERY_MS;
    const count = Math.floor((to.getTime() - first) / RECORD_EVERY_MS);
    // Correlated signals with a slow drift and, on day 4, a shift of one signal for 2 hours.
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    const seedStart = performance.now();
    for (let i = 0; i < count; i += 2_000) {
      const rows = [];
      for (let j = i; j < Math.min(count, i + 2_000); j++) {
        const ts = first + j * RECORD_EVERY_MS;
        const common = gauss();
        const shifted =
          ts > from.getTime() + 4 * 24 * 60 * MINUTE &&
          ts < from.getTime() + 4 * 24 * 60 * MINUTE + 2 * 60 * MINUTE;
        rows.push({
          stationId: station.id,
          ts: new Date(ts),
          partId: `P-${j}`,
          modelNumber: "M-1",
          numValues: Array.from(
            { length: SIGNALS },
            (_, k) => 10 + k + 0.6 * common + 0.8 * gauss() + (shifted && k === 3 ? 1.5 : 0),
          ),
        });
      }
      await db.insert(partRecords).values(rows);
    }
    console.log(
      `backtest bench on ${bench.label}: ${count} records seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const details = ZTaskDetails.parse({
      cust_uuid: customer.id,
      plant_uuid: plant.id,
      line_uuid: line.id,
      signal_uuids: signalRows.map((s) => s.id),
      sample_size: SAMPLE_SIZE,
      evaluation_ratio: 0.25,
    });
    const task = {
      task_name: "Backtest bench",
      task_type: "mvd" as const,
      active: true,
      frequency: FREQUENCY,
      notes: "",
      task_details: details,
    };
    const stats = createStatsPool({ threads: 1 });
    const service = createBacktestService({
      db,
      maxRecordCount: 10_000,
      stats,
      cpuBudgetMs: STATS_BUDGET_DEFAULTS.backtestCpuMs,
    });
    const ctx = { customerId: customer.id } as AuthContext;
    const period = { from: from.toISOString(), to: to.toISOString() };

    // Where the time goes: the two record reads, then the replay (evaluations and alert rules).
    const query = {
      customerId: customer.id,
      lineId: line.id,
      type: "mvd" as const,
      filter: storedFilterOf(details),
    };
    const t0 = performance.now();
    const span = await readRecordSpan(db, query, { from, to, before: SAMPLE_SIZE });
    const t1 = performance.now();
    replayMonitor(
      { type: "mvd", alertThreshold: "medium", filter: query.filter, frequency: FREQUENCY, rules: [] },
      span.window,
      slotsOf(from, to, FREQUENCY),
    );
    const t2 = performance.now();
    console.log(
      `  read ${span.window.records.length} records in ${(t1 - t0).toFixed(0)} ms; replay of 2,016 slots in ${(t2 - t1).toFixed(0)} ms`,
    );

    const times: number[] = [];
    let summary = "";
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      const b = await service.backtest(ctx, { task, period });
      times.push(performance.now() - start);
      summary = `${b.summary.evaluations} evaluations, ${b.summary.breaches} breaches, ${b.summary.alerts_opened} alerts, ${b.records} records`;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] as number;
    console.log(`  ${summary}`);
    console.log(
      `  backtest, 7 days at 5 min, MVD 10 signals, sample_size 150: median ${median.toFixed(0)} ms of ${RUNS} runs (${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
    );
    console.log(
      `  goal < ${GOAL_MS} ms: ratio ${(median / GOAL_MS).toFixed(2)} — ${median < GOAL_MS ? "met" : "NOT met"}`,
    );
    console.log(`  load average at start ${loadAtStart}, at end ${load()}`);
    await stats.close();
  } finally {
    await bench.database.close();
    await bench.drop();
  }
}

// BENCH_CASE=month — issue 31 §4: a month (31 days) of a 6-station line, 720,000 records in all
// (120,000 parts, each recorded at the 6 stations in turn, one every 22.3 s), backtested every
// 5 minutes (8,928 evaluations, sample_size 150) by two MVD monitors: 10 signals over the 6
// stations (5 at OP10, one at each other: each OP10 record is joined to the part's record at the
// 5 others, so every record of the line is read) and OP10's own 5 signals; goal ≤ 3 s. Each
// prints the read alone (the pages taken as they come, nothing replayed) and the backtest's
// median of BENCH_RUNS. Then the capability view of one OP10 signal over the month (120,000
// records: past CAPABILITY_BOUNDS.maxRecords, so sampled); goal ≤ 1 s. The month's partitions
// are created before the records are written (as housekeeping would); PostgreSQL is ANALYZEd
// after the load. The load average is printed at start and end: the machine is shared.
const MONTH = {
  days: 31,
  stations: 6,
  records: 720_000,
  goalMs: 3_000,
  capabilityGoalMs: 1_000,
} as const;

async function month() {
  const { createPartitions, monthStart, PART_RECORDS_PARTITIONING } = await import("../src/db/partitions.js");
  const { createServices } = await import("../src/services.js");
  const loadAtStart = load();
  // Holds the process open: the embedded database's background lane (the pages of a large read)
  // rests on an unreferenced timer between pages, and a script with nothing else pending would
  // exit there (code 13) — a server always has its listening socket.
  const alive = setInterval(() => {}, 1_000);
  const bench = await openBenchDatabase();
  const db = bench.database.db;
  try {
    const customer = await createCustomer(db);
    const plant = await createPlant(db, customer.id);
    const line = await createLine(db, customer.id, plant.id);
    const stationRows = await db
      .insert(stations)
      .values(
        Array.from({ length: MONTH.stations }, (_, s) => ({
          customerId: customer.id,
          lineId: line.id,
          name: `OP${(s + 1) * 10}`,
          nextNumSlot: s === 0 ? 5 : 1,
        })),
      )
      .returning({ id: stations.id });
    // Signals 1–5 at OP10, 6–10 one at each other station.
    const placement = Array.from({ length: SIGNALS }, (_, k) =>
      k < 5 ? { station: 0, slot: k } : { station: k - 4, slot: 0 },
    );
    const signalRows = await db
      .insert(signals)
      .values(
        placement.map(({ station, slot }, k) => ({
          customerId: customer.id,
          lineId: line.id,
          stationId: stationRows[station]?.id as string,
          name: `Signal ${k + 1}`,
          entityType: "MEASUREMENT" as const,
          storage: "num" as const,
          slot,
        })),
      )
      .returning({ id: signals.id });

    const to = new Date(Math.floor(Date.now() / (FREQUENCY * MINUTE)) * FREQUENCY * MINUTE);
    const from = new Date(to.getTime() - MONTH.days * 24 * 60 * MINUTE);
    const parts = MONTH.records / MONTH.stations;
    const every = (to.getTime() - from.getTime()) / parts; // ms between parts
    // The window before the period: sample_size parts (and a margin) before `from`.
    const first = from.getTime() - (SAMPLE_SIZE + 50) * every;
    const total = Math.floor((to.getTime() - first) / every);
    await createPartitions(db, PART_RECORDS_PARTITIONING).ensureMonths(
      monthStart(new Date(first)),
      monthStart(to, 1),
    );
    let seed = 4242;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    const seedStart = performance.now();
    const BATCH = 1_000; // parts a statement: 6,000 rows
    for (let i = 0; i < total; i += BATCH) {
      const rows = [];
      for (let j = i; j < Math.min(total, i + BATCH); j++) {
        const ts = Math.round(first + j * every);
        const common = gauss();
        const shifted =
          ts > from.getTime() + 20 * 24 * 60 * MINUTE &&
          ts < from.getTime() + 20 * 24 * 60 * MINUTE + 3 * 60 * MINUTE;
        for (let s = 0; s < MONTH.stations; s++) {
          const width = s === 0 ? 5 : 1;
          rows.push({
            stationId: stationRows[s]?.id as string,
            // A part reaches the next station 2 s later.
            ts: new Date(ts + s * 2_000),
            partId: `P-${j}`,
            modelNumber: j % 3 ? "M-1" : "M-2",
            numValues: Array.from(
              { length: width },
              (_, k) => 10 + k + s + 0.6 * common + 0.8 * gauss() + (shifted && s === 2 ? 1.5 : 0),
            ),
          });
        }
      }
      await db.insert(partRecords).values(rows);
    }
    console.log(
      `backtest bench (month) on ${bench.label}: ${total * MONTH.stations} records (${total} parts × ${MONTH.stations} stations) seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    if (bench.url) {
      // As autovacuum would after a bulk load: the planner's statistics of the new rows.
      await db.execute(sql`analyze part_records`);
    }

    const stats = createStatsPool({ threads: 1 });
    // The statistics thread loaded before anything is timed (seconds from the sources).
    await stats.ready();
    const services = createServices({ db, publicUrl: "http://localhost:8080", stats: { pool: stats } });
    const ctx = { customerId: customer.id } as AuthContext;
    const period = { from: from.toISOString(), to: to.toISOString() };
    // Two monitors: the 10 signals over the 6 stations (each OP10 record joined to the part's record
    // at the 5 others: every record of the line is read), and OP10's own 5 signals.
    const monitorsOf = [
      { name: "MVD 10 signals over the 6 stations", signals: signalRows },
      { name: "MVD 5 signals of OP10", signals: signalRows.slice(0, 5) },
    ];
    for (const m of monitorsOf) {
      const details = ZTaskDetails.parse({
        cust_uuid: customer.id,
        plant_uuid: plant.id,
        line_uuid: line.id,
        signal_uuids: m.signals.map((s) => s.id),
        sample_size: SAMPLE_SIZE,
        evaluation_ratio: 0.25,
      });
      const task = {
        task_name: "Backtest bench, a month",
        task_type: "mvd" as const,
        active: true,
        frequency: FREQUENCY,
        notes: "",
        task_details: details,
      };
      // The read alone: the period's pages taken as they come, nothing replayed.
      const r0 = performance.now();
      const span = await openRecordSpan(
        db,
        { customerId: customer.id, lineId: line.id, type: "mvd", filter: storedFilterOf(details) },
        { from, to, before: SAMPLE_SIZE },
      );
      let read = span.window.records.length;
      let pages = 0;
      for await (const page of span.chunks) {
        read += page.length;
        pages++;
      }
      const readMs = performance.now() - r0;
      const times: number[] = [];
      let summary = "";
      for (let r = 0; r < RUNS; r++) {
        // The JavaScript heap's growth over the run (the reader's side; the replay thread has its own).
        const heap0 = process.memoryUsage().heapUsed;
        let heap = heap0;
        const meter = setInterval(() => {
          heap = Math.max(heap, process.memoryUsage().heapUsed);
        }, 50);
        const start = performance.now();
        const b = await services.backtest.backtest(ctx, { task, period });
        times.push(performance.now() - start);
        clearInterval(meter);
        summary = `${b.summary.evaluations} evaluations, ${b.summary.breaches} breaches, ${b.summary.alerts_opened} alerts, ${b.records} records; heap at most ${((heap - heap0) / 2 ** 20).toFixed(0)} MiB above its start`;
      }
      const median = [...times].sort((x, y) => x - y)[Math.floor(times.length / 2)] as number;
      console.log(`  ${m.name}: ${summary}`);
      console.log(
        `    the read alone: ${read} records in ${pages} pages, ${readMs.toFixed(0)} ms (${load()})`,
      );
      console.log(
        `    backtest, ${MONTH.days} days at 5 min, sample_size 150: median ${median.toFixed(0)} ms of ${RUNS} runs (${times.map((t) => t.toFixed(0)).join(", ")} ms); goal ≤ ${MONTH.goalMs} ms: ratio ${(median / MONTH.goalMs).toFixed(2)} — ${median <= MONTH.goalMs ? "met" : "NOT met"}`,
      );
    }

    // The capability view of Signal 1 (OP10) over the month.
    const signalId = signalRows[0]?.id as string;
    const capTimes: number[] = [];
    let capSummary = "";
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      const v = await services.capability.view(ctx, line.id, signalId, period);
      capTimes.push(performance.now() - start);
      capSummary = `${v.recordCount} records, truncated ${v.isTruncated}, ${v.points.length} points drawn`;
    }
    const capMedian = [...capTimes].sort((a, b) => a - b)[Math.floor(capTimes.length / 2)] as number;
    console.log(`  capability view over the month: ${capSummary}`);
    console.log(
      `  capability view: median ${capMedian.toFixed(0)} ms of ${RUNS} runs (${capTimes.map((t) => t.toFixed(0)).join(", ")} ms); goal ≤ ${MONTH.capabilityGoalMs} ms: ratio ${(capMedian / MONTH.capabilityGoalMs).toFixed(2)} — ${capMedian <= MONTH.capabilityGoalMs ? "met" : "NOT met"}`,
    );
    console.log(`  load average at start ${loadAtStart}, at end ${load()} (2 cores)`);
    await stats.close();
  } finally {
    await bench.database.close();
    // BENCH_KEEP=1: the seeded database stays, for a look at its plans.
    if (process.env.BENCH_KEEP) console.log(`  kept ${bench.label}`);
    else await bench.drop();
    clearInterval(alive);
  }
}

if (process.env.BENCH_CASE === "month") await month();
else await main();
