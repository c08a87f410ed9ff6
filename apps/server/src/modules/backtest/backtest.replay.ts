/**
 * The backtest's replay, pure (issue #18 §1): a monitor's slots over a period, each evaluated the
 * way the worker evaluates it — the window is the newest sample_size records at or before the slot
 * (the worker reads the newest ones at its slot), the evaluation is evaluateMonitor with
 * monitorEvaluationSettings (the worker's), the previous evaluation's newest record time drives
 * the "nothing new" check and CAP's points judged once, and the alert rules (alerts.rules.ts firingRule)
 * and lifecycle (alerts.lifecycle.ts alertStep) move an in-memory alert as applyEvaluation moves the stored one.
 *
 * The records come once, oldest first, all at once (replayMonitor) or chunk by chunk as they are
 * read (createReplay, issue 31 §4); each slot's window is a slice of them (two indexes move
 * forward), so the cost is the evaluations, not the reading.
 */
import type { TStoredMonitorFilter } from "@linewatch/contracts";
import type { AlertThreshold } from "@linewatch/stats";
import { type AlertStep, alertStep, type OpenAlert } from "../alerts/alerts.lifecycle.js";
import {
  type AlertRule,
  type EvaluationPoint,
  type FiringRule,
  firingRule,
  isCounted,
  runsNeeded,
  secondsNeeded,
} from "../alerts/alerts.rules.js";
import {
  type EvaluationResult,
  evaluateMonitor,
  monitorEvaluationSettings,
  type Window,
  type WindowRecord,
} from "../evaluation/evaluate.js";

export type ReplayMonitor = {
  type: Parameters<typeof monitorEvaluationSettings>[0]["type"];
  alertThreshold: AlertThreshold;
  filter: TStoredMonitorFilter;
  /** Minutes between slots. */
  frequency: number;
  rules: readonly AlertRule[];
};

export type ReplaySlot = { slot: Date; result: EvaluationResult; alert: AlertStep["kind"] };

export type ReplayAlert = {
  openedAt: Date;
  resolvedAt: Date | null;
  lastSeenAt: Date;
  rule: FiringRule;
  count: number;
  score: number | null;
  threshold: number | null;
};

/**
 * The slots of a period (from, to]: every `frequency` minutes back from `to` (a saved monitor's
 * grid when the caller aligns `to` to it), oldest first.
 */
export function slotsOf(from: Date, to: Date, frequencyMinutes: number): Date[] {
  const step = frequencyMinutes * 60_000;
  if (!(step > 0)) throw new Error("frequency must be positive");
  const n = Math.max(0, Math.ceil((to.getTime() - from.getTime()) / step));
  const out: Date[] = [];
  for (let k = n - 1; k >= 0; k--) {
    const t = to.getTime() - k * step;
    if (t > from.getTime()) out.push(new Date(t));
  }
  return out;
}

/**
 * Replays `monitor` at `slots` (ascending) over `window.records` (oldest first: the window before
 * the first slot and every later record). Starts with no previous evaluation and no open alert.
 * The one-read form of createReplay: every record given at once.
 */
export function replayMonitor(
  monitor: ReplayMonitor,
  window: Window,
  slots: readonly Date[],
  /** Told after each slot: how many are done and the slot just evaluated (the backtest's progress). */
  onSlot?: (done: number, slot: Date) => void,
): { slots: ReplaySlot[]; alerts: ReplayAlert[] } {
  const replay = createReplay(monitor, window, slots, onSlot);
  replay.push(window.records);
  return replay.finish();
}

/** Records dropped from the front of the replay's buffer once this many are behind every window. */
const DROP_AT = 4_096;

/**
 * The replay fed as the records arrive (issue 31 §4: a month is read in time-ordered chunks):
 * `push` takes the next records, oldest first, continuing the ones before (the window before the
 * first slot first); `finish` says there are no more and gives the result. A slot is evaluated as
 * soon as a record after it has arrived (records of one time may span two chunks), so the result is
 * exactly replayMonitor's over all the records at once. Only the records a later window can still
 * reach are kept: at most sample_size before the next slot, plus the chunk being consumed.
 * `window` gives the signals, references and limits (its records are not read).
 */
export function createReplay(
  monitor: ReplayMonitor,
  window: Omit<Window, "records">,
  slots: readonly Date[],
  onSlot?: (done: number, slot: Date) => void,
) {
  const sampleSize = monitor.filter.sample_size;
  // The rules look back at most this many counted evaluations: the runs the count rules need, and
  // every slot of the time rule's window (slots are one frequency apart).
  const keep = Math.max(
    runsNeeded(monitor.rules),
    Math.floor(secondsNeeded(monitor.rules) / (monitor.frequency * 60)) + 1,
  );
  const history: EvaluationPoint[] = [];
  const out: ReplaySlot[] = [];
  const alerts: ReplayAlert[] = [];
  let open: (ReplayAlert & { cleanStreak: number }) | null = null;
  let previousLastRecordTs: Date | null = null;
  /** The records kept, oldest first; `end`: how many of them are at or before the last slot evaluated. */
  let records: WindowRecord[] = [];
  let end = 0;
  let next = 0;
  let isFinished = false;

  function evaluateSlot(slot: Date) {
    const t = slot.getTime();
    while (end < records.length && (records[end]?.ts.getTime() ?? Number.POSITIVE_INFINITY) <= t) end++;
    const result = evaluateMonitor(monitorEvaluationSettings(monitor, previousLastRecordTs), {
      ...window,
      records: records.slice(Math.max(0, end - sampleSize), end),
    });
    if (result.lastRecordTs) previousLastRecordTs = result.lastRecordTs;

    let rule: FiringRule | null = null;
    const point = { state: result.state, evaluatedAt: slot };
    if (isCounted(point)) {
      history.push(point);
      if (history.length > keep) history.splice(0, history.length - keep);
      if (result.state === "BREACH") rule = firingRule(monitor.rules, history);
    }
    const step = alertStep(open as OpenAlert, result.state, rule);
    switch (step.kind) {
      case "opened":
        open = {
          openedAt: slot,
          resolvedAt: null,
          lastSeenAt: slot,
          rule: step.rule,
          count: 1,
          score: result.score,
          threshold: result.threshold,
          cleanStreak: 0,
        };
        break;
      case "fired":
        if (open) {
          open.count += 1;
          open.lastSeenAt = slot;
          open.score = result.score;
          open.threshold = result.threshold;
          open.cleanStreak = 0;
        }
        break;
      case "clean":
        if (open) open.cleanStreak = step.cleanStreak;
        break;
      case "auto-resolved":
        if (open) {
          open.resolvedAt = slot;
          const { cleanStreak: _, ...closed } = open;
          alerts.push(closed);
          open = null;
        }
        break;
      case "none":
        break;
    }
    out.push({ slot, result, alert: step.kind });
    onSlot?.(out.length, slot);
  }

  /** Evaluates the slots every record of which has arrived (all of them once finished). */
  function evaluateReady() {
    const lastTs = records.length ? (records[records.length - 1] as WindowRecord).ts.getTime() : null;
    while (next < slots.length) {
      const slot = slots[next] as Date;
      // A record at the slot's own time may still come in the next chunk: wait for a later one.
      if (!isFinished && (lastTs === null || lastTs <= slot.getTime())) break;
      evaluateSlot(slot);
      next++;
    }
    // Records no later window reaches (windows only move forward) go, a block at a time.
    const behind = end - sampleSize;
    if (behind >= DROP_AT) {
      records = records.slice(behind);
      end -= behind;
    }
  }

  return {
    /** The next records, oldest first. */
    push(chunk: readonly WindowRecord[]) {
      if (isFinished) throw new Error("the replay is finished");
      for (const r of chunk) records.push(r);
      evaluateReady();
    },
    /** No more records: the remaining slots are evaluated and the result given. */
    finish(): { slots: ReplaySlot[]; alerts: ReplayAlert[] } {
      isFinished = true;
      evaluateReady();
      if (open) {
        const { cleanStreak: _, ...still } = open;
        alerts.push(still);
        open = null;
      }
      return { slots: out, alerts };
    },
  };
}
