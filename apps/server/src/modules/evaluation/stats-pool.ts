/**
 * The statistics threads (issue #27 §1): previews, backtests, capability views and the worker's
 * evaluations run their statistics here, never on the event loop that answers requests, renews
 * leases and acknowledges MQTT messages. A pool of piscina threads, STATS_THREADS of them (default
 * one a core), each at a lower priority than the process's other threads (nice +10: Linux gives
 * each thread its own); one thread is kept (from the sources a new one takes seconds before its
 * first task), the others stop after a minute idle.
 *
 * Every task has a CPU-time budget: the pool reads the thread's own CPU time from
 * /proc/self/task/<tid>/stat every METER_MS while the task runs, and past the budget stops the
 * thread (piscina terminates it and starts another when needed) and rejects with
 * StatsBudgetError. Where /proc is not there, the budget is wall time from the task's start.
 * A caller's AbortSignal (a request whose client went away) stops a running task the same way and
 * drops a queued one: StatsCancelledError.
 *
 * Windows cross packed (window.pack.ts): their numbers are transferred, not copied.
 */
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { MessageChannel, type Transferable } from "node:worker_threads";
import { Piscina } from "piscina";
import type { StatsProgress, StatsTaskName, StatsTasks } from "./stats.tasks.js";
import type { StatsThreadMessage, StatsThreadTask } from "./stats.thread.js";

/** How often a running task's CPU time is read (ms). */
const METER_MS = 100;
/** Linux's clock ticks a second for /proc's utime and stime (USER_HZ, 100 on every Linux port). */
const TICKS_PER_SECOND = 100;
/** A thread idle this long is stopped (ms); the next task starts one again (about a second from sources). */
const IDLE_TIMEOUT_MS = 60_000;
/** The ready task computes nothing; its budget only bounds a thread that hangs loading. */
const READY_CPU_MS = 60_000;
/** Nice increment of statistics threads: they yield the core to the event loop. */
const NICE_INCREMENT = 10;

/** The CPU-time budgets' defaults (ms); the settings STATS_REQUEST_CPU_MS, BACKTEST_CPU_MS, EVALUATION_CPU_MS. */
export const STATS_BUDGET_DEFAULTS = {
  /** A preview or a capability view: far above the largest window's cost (10,000 × 1,000 MVD ≈ 10 s). */
  requestCpuMs: 30_000,
  /** A backtest: a 30-day replay of a 5-minute monitor is 8,640 evaluations. */
  backtestCpuMs: 300_000,
  /** One monitor's evaluation in the worker. */
  evaluationCpuMs: 300_000,
} as const;

export class StatsBudgetError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the statistics needed more than their ${Math.round(budgetMs / 1000)} s of computing`);
    this.name = "StatsBudgetError";
  }
}

export class StatsCancelledError extends Error {
  constructor() {
    super("the statistics were cancelled");
    this.name = "StatsCancelledError";
  }
}

export type StatsRunOptions = {
  /** CPU time the task may use (ms). */
  cpuBudgetMs: number;
  /** Aborted: the task stops (StatsCancelledError). */
  signal?: AbortSignal;
  onProgress?: (p: StatsProgress) => void;
};

export type StatsPoolOptions = {
  /** Threads at most (STATS_THREADS); default one a core. */
  threads?: number;
  /** The thread's script; tests give one of their own. */
  threadFile?: URL;
  /** Given to each thread (piscina's workerData): a test thread's shared flags. */
  workerData?: unknown;
  /**
   * Start every thread at once and keep them (the worker's pool, busy all day); otherwise one is
   * kept and the others start when tasks queue and end after a minute idle.
   */
  keepAll?: boolean;
};

export type StatsPool = {
  run<K extends StatsTaskName>(
    task: K,
    args: StatsTasks[K]["args"],
    transfer: readonly Transferable[],
    opts: StatsRunOptions,
  ): Promise<StatsTasks[K]["result"]>;
  /**
   * Resolves once the kept threads have loaded the statistics (seconds under tsx, from the
   * sources): the worker claims no monitor before, so its first evaluations do not spend their
   * slot starting threads.
   */
  ready(): Promise<void>;
  /** Threads running now. */
  readonly threads: number;
  close(): Promise<void>;
};

const entry = new URL("./stats.thread-entry.js", import.meta.url);

/** CPU time (ms) of a thread of this process, from /proc; null when it cannot be read. */
async function threadCpuMs(tid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

export function createStatsPool(opts: StatsPoolOptions = {}): StatsPool {
  const maxThreads = Math.max(1, opts.threads ?? availableParallelism());
  const minThreads = opts.keepAll ? maxThreads : 1;
  const piscina = new Piscina({
    filename: fileURLToPath(opts.threadFile ?? entry),
    // Never 0: piscina starts a thread again after one is ended (a task past its budget, or
    // cancelled) only to keep minThreads, so with none kept the tasks queued behind it would wait
    // for the next task to arrive.
    minThreads,
    maxThreads,
    idleTimeout: IDLE_TIMEOUT_MS,
    niceIncrement: NICE_INCREMENT,
    // The task's answer comes back on piscina's port; a sleeping thread wakes by message, not by
    // spinning on Atomics.
    atomics: "disabled",
    workerData: opts.workerData,
  });

  const pool: StatsPool = {
    get threads() {
      return piscina.threads.length;
    },

    async run(task, args, transfer, { cpuBudgetMs, signal, onProgress }) {
      if (signal?.aborted) throw new StatsCancelledError();
      const { port1, port2 } = new MessageChannel();
      const stop = new AbortController();
      let overBudget = false;
      const overrun = () => {
        overBudget = true;
        stop.abort();
      };
      const cancel = () => stop.abort();
      signal?.addEventListener("abort", cancel, { once: true });
      let meter: NodeJS.Timeout | undefined;

      let finished = false;
      // The thread closes its end when the task returns, after its last progress; that progress
      // travels on this port, the result on piscina's, so the result can arrive first (seen under
      // load: the bar stopped at 63 of 80). The port's close comes after every message on it.
      const drained = new Promise<void>((resolve) => port1.once("close", () => resolve()));
      port1.on("message", (m: StatsThreadMessage) => {
        if (m.type === "progress") {
          onProgress?.({ done: m.done, total: m.total, at: m.at });
          return;
        }
        // started: the budget counts from here (queueing costs the task nothing).
        if (finished) return;
        const { tid } = m;
        const t0 = Date.now();
        if (tid == null) {
          meter = setTimeout(overrun, cpuBudgetMs);
          return;
        }
        let base: number | null = null;
        let reading = false;
        const measure = async () => {
          if (reading || finished) return;
          reading = true;
          const ms = await threadCpuMs(tid);
          reading = false;
          if (ms == null) {
            // Unreadable (/proc gone?): wall time from the start instead.
            if (Date.now() - t0 > cpuBudgetMs) overrun();
            return;
          }
          base ??= ms;
          if (ms - base > cpuBudgetMs) overrun();
        };
        void measure();
        meter = setInterval(measure, METER_MS);
        meter.unref();
      });

      try {
        const message: StatsThreadTask = { task, args, port: port2 } as StatsThreadTask;
        const result = await piscina.run(message, {
          transferList: [port2, ...transfer] as never,
          signal: stop.signal,
        });
        await drained;
        return result;
      } catch (err) {
        if (overBudget) throw new StatsBudgetError(cpuBudgetMs);
        if (signal?.aborted) throw new StatsCancelledError();
        throw err;
      } finally {
        finished = true;
        clearInterval(meter);
        clearTimeout(meter);
        signal?.removeEventListener("abort", cancel);
        port1.close();
      }
    },

    async ready() {
      // Piscina gives each of the kept threads, started together, one of these.
      await Promise.all(
        Array.from({ length: minThreads }, () => pool.run("ready", {}, [], { cpuBudgetMs: READY_CPU_MS })),
      );
    },

    close: () => piscina.destroy(),
  };
  return pool;
}

let shared: StatsPool | undefined;
/**
 * The process's pool for callers given none (scripts, tests): one a core, created when first
 * asked for. Its idle threads do not keep the process alive.
 */
export function defaultStatsPool(): StatsPool {
  shared ??= createStatsPool();
  return shared;
}
