/**
 * The statistics a statistics thread runs (stats-pool.ts, stats.thread.ts): the pure functions of
 * the worker, the preview, the backtest and the capability view, taking packed windows
 * (window.pack.ts) and giving back only what their callers use, so little crosses back.
 */
import type { MessagePort } from "node:worker_threads";
import type { TBacktestSlot, TCapabilityView, TCycle } from "@linewatch/contracts";
import type { MeasuredLevelSupport } from "@linewatch/stats";
import {
  createReplay,
  type ReplayAlert,
  type ReplayMonitor,
  type ReplaySlot,
} from "../backtest/backtest.replay.js";
import { capabilityView } from "../capability/capability.fns.js";
import {
  cycleOf,
  type EvaluationResult,
  type EvaluationSettings,
  evaluateMonitor,
  windowLevelSupport,
} from "./evaluate.js";
import { type PackedRecords, type PackedWindow, unpackRecords, unpackWindow } from "./window.pack.js";

export type StatsTasks = {
  /** Answers once the thread has loaded the statistics: StatsPool.ready. */
  ready: { args: Record<string, never>; result: true };
  evaluate: { args: { settings: EvaluationSettings; window: PackedWindow }; result: EvaluationResult };
  /**
   * The monitor form's preview: the evaluation, and whether the monitor's own sample size holds
   * its level for the dependence the whole previewed window shows (windowLevelSupport).
   */
  preview: {
    args: { settings: EvaluationSettings; window: PackedWindow; monitorSampleSize: number };
    result: { evaluation: EvaluationResult; levelSupport: PreviewLevelSupport | null };
  };
  /**
   * A backtest's replay over `window`'s records; with `feed`, the later records arrive on it as
   * they are read (ReplayFeedMessage) and the replay ends at its "end".
   */
  replay: {
    args: { monitor: ReplayMonitor; window: PackedWindow; slots: number[]; feed?: MessagePort };
    result: { slots: Omit<TBacktestSlot, "slot">[]; alerts: ReplayAlert[] };
  };
  capability: {
    args: { window: PackedWindow; period: { from: Date; to: Date; isTruncated: boolean } };
    result: TCapabilityView;
  };
};
export type StatsTaskName = keyof StatsTasks;

/** What crosses back of a replay: the slot times are the caller's own, only what the evaluation gave. */
function replayResult(replay: {
  slots: ReplaySlot[];
  alerts: ReplayAlert[];
}): StatsTasks["replay"]["result"] {
  return {
    slots: replay.slots.map(({ result, alert }) => ({
      state: result.state,
      score: result.score,
      threshold: result.threshold,
      reason: result.reason,
      alert,
    })),
    alerts: replay.alerts,
  };
}

/** What crosses back of a MeasuredLevelSupport: no arrays. */
export type PreviewLevelSupport = Omit<MeasuredLevelSupport, "dependence" | "heavyTails"> & {
  vif: number;
  arOrder: number;
  cycle: TCycle | null;
};

/**
 * A replay's feed (issue 31 §4), from the backtest to the thread: the next records, oldest first;
 * "end" when there are no more; "fail" when they could not be read (the task then fails and the
 * backtest reports its own error). The thread answers each chunk with "taken" once it has replayed
 * the slots that chunk completes: the backtest keeps only a few chunks unanswered.
 */
export type ReplayFeedMessage =
  | { type: "records"; records: PackedRecords }
  | { type: "end" }
  | { type: "fail" };
export type ReplayFeedAnswer = { type: "taken" };

/** Progress of a long task: units done of total, and where it is (a slot's epoch ms). */
export type StatsProgress = { done: number; total: number; at: number | null };

export const statsTasks: {
  [K in StatsTaskName]: (
    args: StatsTasks[K]["args"],
    progress: (p: StatsProgress) => void,
  ) => StatsTasks[K]["result"] | Promise<StatsTasks[K]["result"]>;
} = {
  ready: () => true,

  evaluate: ({ settings, window }) => evaluateMonitor(settings, unpackWindow(window)),

  preview: ({ settings, window, monitorSampleSize }) => {
    const unpacked = unpackWindow(window);
    // A CAP monitor's control rules judge single points by the signal's tail: heavy tails count too.
    // An SVD monitor's heavy tails and its threshold's floor are judged at its own level.
    const measured = windowLevelSupport(unpacked, monitorSampleSize, settings.evaluationRatio, {
      controlTails: settings.type === "cap",
      ...(settings.type === "svd" ? { svdLevel: settings.alertThreshold } : {}),
    });
    let levelSupport: PreviewLevelSupport | null = null;
    if (measured) {
      const { dependence, heavyTails: _heavyTails, ...rest } = measured;
      levelSupport = {
        ...rest,
        vif: dependence.uncappedVif,
        arOrder: dependence.order,
        cycle: cycleOf(dependence),
      };
    }
    return { evaluation: evaluateMonitor(settings, unpacked), levelSupport };
  },

  replay: ({ monitor, window, slots, feed }, progress) => {
    const total = slots.length;
    progress({ done: 0, total, at: null });
    const unpacked = unpackWindow(window);
    const replay = createReplay(
      monitor,
      unpacked,
      slots.map((ms) => new Date(ms)),
      (done, slot) => progress({ done, total, at: slot.getTime() }),
    );
    replay.push(unpacked.records);
    if (!feed) return replayResult(replay.finish());
    return new Promise((resolve, reject) => {
      let isSettled = false;
      const settle = (f: () => void) => {
        if (isSettled) return;
        isSettled = true;
        feed.close();
        f();
      };
      feed.on("message", (m: ReplayFeedMessage) => {
        if (isSettled) return;
        try {
          if (m.type === "records") {
            replay.push(unpackRecords(m.records));
            feed.postMessage({ type: "taken" } satisfies ReplayFeedAnswer);
          } else if (m.type === "end") {
            const result = replayResult(replay.finish());
            settle(() => resolve(result));
          } else settle(() => reject(new Error("the backtest's records could not be read")));
        } catch (err) {
          settle(() => reject(err));
        }
      });
      feed.on("close", () => settle(() => reject(new Error("the backtest's feed closed before its end"))));
    });
  },

  capability: ({ window, period }) => capabilityView(unpackWindow(window), period),
};
