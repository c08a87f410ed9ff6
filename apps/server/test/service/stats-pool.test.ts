// The statistics threads (issue #27 §1, modules/evaluation/stats-pool.ts): a task computed on a
// thread gives exactly what the event loop gave; a replay reports its progress; a task past its
// CPU-time budget or whose caller gave up is stopped (its thread ended) and the pool goes on;
// waiting costs no budget.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { replayMonitor, slotsOf } from "../../src/modules/backtest/backtest.replay.js";
import { capabilityView } from "../../src/modules/capability/capability.fns.js";
import {
  type EvaluationSettings,
  evaluateMonitor,
  type Window,
  type WindowRecord,
} from "../../src/modules/evaluation/evaluate.js";
import type { StatsProgress } from "../../src/modules/evaluation/stats.tasks.js";
import {
  createStatsPool,
  StatsBudgetError,
  StatsCancelledError,
} from "../../src/modules/evaluation/stats-pool.js";
import { packWindow, unpackWindow } from "../../src/modules/evaluation/window.pack.js";

const T0 = Date.UTC(2026, 10, 20, 6);
const MINUTE = 60_000;

/** A seeded window: `n` records a minute apart of `p` signals, the newest `shiftFrom` on shifted by 2. */
function windowOf(
  p: number,
  n: number,
  opts: { shiftFrom?: number; limits?: Window["limits"] } = {},
): Window {
  let seed = 12345;
  const uniform = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const signals = Array.from({ length: p }, (_, j) => ({
    id: `00000000-0000-4000-8000-${String(j).padStart(12, "0")}`,
    name: `S${j}`,
    stationId: "st",
    singleSide: null,
  }));
  const records: WindowRecord[] = Array.from({ length: n }, (_, i) => ({
    ts: new Date(T0 + i * MINUTE),
    partId: `P${i}`,
    modelNumber: i % 3 === 0 ? "M-1" : null,
    values: Array.from({ length: p }, () => 10 + normal() + (i >= (opts.shiftFrom ?? n) ? 2 : 0)),
  }));
  // A missing value, as a record without the signal gives.
  (records[7] as WindowRecord).values[0] = Number.NaN;
  return { signals, references: [], records, ...(opts.limits ? { limits: opts.limits } : {}) };
}

const settings = (type: EvaluationSettings["type"], n: number): EvaluationSettings => ({
  type,
  alertThreshold: "medium",
  sampleSize: n,
  evaluationRatio: 0.2,
  previousLastRecordTs: null,
});

const pool = createStatsPool({ threads: 2 });
afterAll(() => pool.close());
// The first task starts a thread (seconds from the sources on a busy machine): not inside a test's time.
beforeAll(() => pool.ready());

describe("a packed window", () => {
  it("unpacks to the window it was, missing values and model numbers kept", async () => {
    const w = windowOf(3, 40, { limits: { "*": { lsl: "7", lcl: null, ucl: null, usl: "13" } } });
    const back = unpackWindow((await packWindow(w)).packed);
    expect(back).toEqual(w);
  });

  it("packs a large window a slice at a time, answering the event loop between slices", async () => {
    // 1,200 records × 500 values: three slices of 250,000 values.
    const w = windowOf(500, 1_200);
    // Turns of the event loop (its check phase) that ran before the packing finished.
    let turns = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const { packed } = await packWindow(w);
    done = true;
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(unpackWindow(packed)).toEqual(w);
  });
});

describe("the statistics on a thread", () => {
  it("evaluate gives what the event loop gives, for SVD, MVD and CAP", async () => {
    const limits = { "*": { lsl: "6", lcl: null, ucl: null, usl: "14" } };
    const cases: [EvaluationSettings, Window][] = [
      [settings("svd", 150), windowOf(1, 150, { shiftFrom: 120 })],
      [settings("mvd", 300), windowOf(12, 300, { shiftFrom: 240 })],
      [settings("cap", 200), windowOf(1, 200, { limits })],
    ];
    for (const [s, w] of cases) {
      const here = evaluateMonitor(s, w);
      const { packed, transfer } = await packWindow(w);
      const there = await pool.run("evaluate", { settings: s, window: packed }, transfer, {
        cpuBudgetMs: 60_000,
      });
      expect(there).toEqual(here);
      expect(here.score).not.toBeNull();
    }
  });

  it("capability gives what the event loop gives", async () => {
    const w = windowOf(1, 500, { limits: { "*": { lsl: "6", lcl: "7", ucl: "13", usl: "14" } } });
    const period = { from: new Date(T0), to: new Date(T0 + 500 * MINUTE), isTruncated: false };
    const { packed, transfer } = await packWindow(w);
    const there = await pool.run("capability", { window: packed, period }, transfer, { cpuBudgetMs: 60_000 });
    expect(there).toEqual(capabilityView(w, period));
  });

  it("a replay gives the event loop's slots and alerts and reports its progress up to the last slot", async () => {
    const w = windowOf(2, 900, { shiftFrom: 700 });
    const monitor = {
      type: "mvd" as const,
      alertThreshold: "medium" as const,
      filter: {
        signal_uuids: w.signals.map((s) => s.id),
        signal_group_uuids: [],
        part_attributes: [],
        sample_size: 100,
        pass_fail_filter: [],
        evaluation_ratio: 0.25,
        part_numbers: [],
        part_groups: [],
      },
      frequency: 10,
      rules: [],
    };
    const slots = slotsOf(new Date(T0 + 100 * MINUTE), new Date(T0 + 900 * MINUTE), 10);
    const here = replayMonitor(monitor, w, slots);
    const seen: StatsProgress[] = [];
    const { packed, transfer } = await packWindow(w);
    const there = await pool.run(
      "replay",
      { monitor, window: packed, slots: slots.map((d) => d.getTime()) },
      transfer,
      { cpuBudgetMs: 60_000, onProgress: (p) => seen.push(p) },
    );
    expect(there.alerts).toEqual(here.alerts);
    expect(there.slots).toEqual(
      here.slots.map(({ result, alert }) => ({
        state: result.state,
        score: result.score,
        threshold: result.threshold,
        reason: result.reason,
        alert,
      })),
    );
    expect(here.alerts.length).toBeGreaterThan(0);
    // The first report before any slot, the last at the last slot; never backwards.
    expect(seen[0]).toEqual({ done: 0, total: slots.length, at: null });
    expect(seen.at(-1)).toEqual({ done: slots.length, total: slots.length, at: slots.at(-1)?.getTime() });
    for (let i = 1; i < seen.length; i++)
      expect((seen[i] as StatsProgress).done).toBeGreaterThanOrEqual((seen[i - 1] as StatsProgress).done);
  });
});

describe("budget and cancellation", () => {
  const STARTED = 0;
  const RELEASE = 1;
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const testPool = createStatsPool({
    threads: 1,
    threadFile: new URL("../helpers/stats-test.thread.js", import.meta.url),
    workerData: { flags },
  });
  afterAll(() => testPool.close());
  let empty: Awaited<ReturnType<typeof packWindow>>;
  beforeAll(async () => {
    empty = await packWindow({ signals: [], references: [], records: [] });
  });
  const hold = (opts: Parameters<typeof testPool.run>[3]) =>
    testPool.run("evaluate", { settings: settings("svd", 50), window: empty.packed }, [], opts);
  const spin = (opts: Parameters<typeof testPool.run>[3]) =>
    testPool.run("replay", { monitor: {} as never, window: empty.packed, slots: [] }, [], opts);
  /** The test thread answers a capability task with its arguments. */
  const echo = async () =>
    (await testPool.run(
      "capability",
      { window: empty.packed, period: { from: new Date(T0), to: new Date(T0), isTruncated: false } },
      [],
      { cpuBudgetMs: 60_000 },
    )) as unknown as { period: { from: Date; to: Date } };
  const started = () => Atomics.load(flags, STARTED);

  it("a task past its CPU budget is stopped; the pool answers the next one", async () => {
    await expect(spin({ cpuBudgetMs: 300 })).rejects.toBeInstanceOf(StatsBudgetError);
    expect((await echo()).period.from).toEqual(new Date(T0));
  });

  it("a task waiting without computing is not stopped by its budget", async () => {
    Atomics.store(flags, RELEASE, 0);
    const before = started();
    const running = hold({ cpuBudgetMs: 200 });
    await vi.waitFor(() => expect(started()).toBe(before + 1), { timeout: 30_000 });
    // Ten budgets of wall time pass while the thread sleeps: a wall-clock budget would have stopped it.
    const t = Date.now();
    await vi.waitFor(() => expect(Date.now() - t).toBeGreaterThan(2_000), { timeout: 30_000, interval: 100 });
    Atomics.store(flags, RELEASE, 1);
    Atomics.notify(flags, RELEASE);
    expect((await running).reason).toBe("held by the test thread");
  });

  it("a caller that gives up stops its running task, and a queued task never starts", async () => {
    const before = started();
    const running = new AbortController();
    const spinning = spin({ cpuBudgetMs: 600_000, signal: running.signal });
    await vi.waitFor(() => expect(started()).toBe(before + 1), { timeout: 30_000 });
    // The pool has one thread: these two wait behind the spinning task.
    const queued = new AbortController();
    const dropped = testPool.run(
      "capability",
      { window: empty.packed, period: { from: new Date(T0), to: new Date(T0), isTruncated: false } },
      [],
      { cpuBudgetMs: 60_000, signal: queued.signal },
    );
    const waiting = echo();
    queued.abort();
    await expect(dropped).rejects.toBeInstanceOf(StatsCancelledError);
    running.abort();
    await expect(spinning).rejects.toBeInstanceOf(StatsCancelledError);
    // The spinning thread was ended (it would never have let the next task in) and another started
    // for the task queued behind it; the dropped task never started.
    expect((await waiting).period.to).toEqual(new Date(T0));
    expect(started()).toBe(before + 2);
  });
});
