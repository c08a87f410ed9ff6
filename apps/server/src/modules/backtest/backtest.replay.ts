/**
 * The backtest's replay, pure (issue #18 §1): a monitor's slots over a period, each evaluated the
 * way the worker evaluates it — the window is the newest sample_size records at or before the slot
 * (the worker reads the newest ones at its slot), the evaluation is evaluateMonitor with
 * monitorEvaluationSettings (the worker's), the previous evaluation's newest record time drives
 * the "nothing new" check and CAP's points judged once, and the alert rules (alerts.rules.ts firingRule)
 * and lifecycle (alerts.lifecycle.ts alertStep) move an in-memory alert as applyEvaluation moves the stored one.
 *
 * The records come once, oldest first; each slot's window is a slice of them (two indexes move
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
 */
export function replayMonitor(
  monitor: ReplayMonitor,
  window: Window,
  slots: readonly Date[],
  /** Told after each slot: how many are done and the slot just evaluated (the backtest's progress). */
  onSlot?: (done: number, slot: Date) => void,
): { slots: ReplaySlot[]; alerts: ReplayAlert[] } {
  const { records } = window;
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
  let end = 0;
  for (const slot of slots) {
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
  if (open) {
    const { cleanStreak: _, ...still } = open;
    alerts.push(still);
  }
  return { slots: out, alerts };
}
