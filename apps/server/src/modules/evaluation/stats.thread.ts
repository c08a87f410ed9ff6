/**
 * A statistics thread's task handler (stats-pool.ts runs it through piscina): runs one task of
 * stats.tasks.ts and talks to the pool on the task's own MessagePort — first which OS thread it
 * is (so the pool can read its CPU time from /proc and stop it past its budget), then the task's
 * progress, at most every PROGRESS_MS and always at the end. A task may answer with a promise (a
 * replay fed its records as they are read): the thread waits for it, costing no CPU time meanwhile.
 */
import { readlinkSync } from "node:fs";
import type { MessagePort } from "node:worker_threads";
import { type StatsProgress, type StatsTaskName, type StatsTasks, statsTasks } from "./stats.tasks.js";

/** Progress is posted at most this often (ms): often enough for a bar, rare enough to cost nothing. */
const PROGRESS_MS = 250;

export type StatsThreadMessage =
  | { type: "started"; tid: number | null }
  | ({ type: "progress" } & StatsProgress);

export type StatsThreadTask<K extends StatsTaskName = StatsTaskName> = {
  task: K;
  args: StatsTasks[K]["args"];
  port: MessagePort;
};

/** This thread's id in the kernel (Linux: /proc/thread-self → "<pid>/task/<tid>"); null elsewhere. */
function kernelThreadId(): number | null {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) ? tid : null;
  } catch {
    return null;
  }
}
const tid = kernelThreadId();

export default function runStatsTask<K extends StatsTaskName>({ task, args, port }: StatsThreadTask<K>) {
  const post = (m: StatsThreadMessage) => port.postMessage(m);
  post({ type: "started", tid });
  let last = 0;
  const progress = (p: StatsProgress) => {
    const t = performance.now();
    if (p.done < p.total && t - last < PROGRESS_MS) return;
    last = t;
    post({ type: "progress", ...p });
  };
  let result: StatsTasks[K]["result"] | Promise<StatsTasks[K]["result"]>;
  try {
    const run = statsTasks[task] as (
      a: StatsTasks[K]["args"],
      p: typeof progress,
    ) => StatsTasks[K]["result"] | Promise<StatsTasks[K]["result"]>;
    result = run(args, progress);
  } catch (err) {
    port.close();
    throw err;
  }
  // A task fed as it runs (a backtest's replay, its records arriving as they are read) answers
  // later: its port stays open for its progress until then.
  if (result instanceof Promise) return result.finally(() => port.close());
  port.close();
  return result;
}
