// The alert lifecycle of one evaluation, pure (docs/monitoring.md "Alerts"): what the monitor's
// open alert does given the evaluation's state and the rule that fired. The worker's
// applyEvaluation writes the step to the database; the backtest (issue #18) replays it in memory.
import { ALERT_AUTO_RESOLVE_CLEAN_EVALUATIONS, type TEvaluationState } from "@linewatch/contracts";
import type { FiringRule } from "./alerts.rules.js";

/** The monitor's open alert (OPEN or ACKNOWLEDGED), or null. */
export type OpenAlert = { cleanStreak: number } | null;

export type AlertStep =
  /** No alert was open and a rule fired: a new alert opens. */
  | { kind: "opened"; rule: FiringRule }
  /** A rule fired while an alert was open: count + 1, last seen, score, clean streak 0. */
  | { kind: "fired"; rule: FiringRule }
  /** The 3rd evaluation in a row without a breach: the open alert resolves itself. */
  | { kind: "auto-resolved"; cleanStreak: number }
  /** The open alert's clean streak moves (a breach that did not fire resets it to 0). */
  | { kind: "clean"; cleanStreak: number }
  | { kind: "none" };

/**
 * - BREACH: fires (`rule` not null) → opens an alert, or counts on the open one; a breach that does
 *   not fire resets the open alert's clean streak.
 * - OK adds one to the open alert's clean streak; the 3rd in a row resolves it.
 * - NO_DATA and ERROR neither count towards nor reset the clean streak: no data is no evidence
 *   that the process recovered, nor that it still breaches.
 */
export function alertStep(open: OpenAlert, state: TEvaluationState, rule: FiringRule | null): AlertStep {
  if (state === "BREACH") {
    if (rule) return open ? { kind: "fired", rule } : { kind: "opened", rule };
    return open ? { kind: "clean", cleanStreak: 0 } : { kind: "none" };
  }
  if (state !== "OK" || !open) return { kind: "none" };
  const cleanStreak = open.cleanStreak + 1;
  return cleanStreak < ALERT_AUTO_RESOLVE_CLEAN_EVALUATIONS
    ? { kind: "clean", cleanStreak }
    : { kind: "auto-resolved", cleanStreak };
}

/** What the no-data rule reads of a line. */
export type NoDataLine = {
  active: boolean;
  /** No Data Alert hours; 0 or null: off. */
  thresholdHours: number | null;
  lastIngestedTime: Date | null;
};

const HOUR_MS = 3_600_000;

export type NoDataStep =
  /** Past its hours without an open no-data alert: one opens, scored in hours since the last record. */
  | { kind: "opened"; score: number; threshold: number }
  /** Records again within its hours, its hours turned off, or the line deactivated. */
  | { kind: "auto-resolved" }
  /** Still silent: the open alert's hours since the last record, seen now. */
  | { kind: "still-silent"; score: number | null }
  | { kind: "none" };

/**
 * A line's no-data alert at `now` (Line Management's No Data Alert hours): an active line whose
 * last record plus its hours has passed gets one; it resolves itself once records arrive again, or
 * when the hours are turned off (0) or the line deactivated. A line that never had a record raises
 * none and keeps an open one open.
 */
export function noDataStep(line: NoDataLine, open: boolean, now: Date): NoDataStep {
  const hours = line.thresholdHours ?? 0;
  const last = line.lastIngestedTime;
  const silentHours = last === null ? null : (now.getTime() - last.getTime()) / HOUR_MS;
  const overdue = silentHours !== null && silentHours > hours;
  if (!open) {
    return line.active && hours > 0 && overdue
      ? { kind: "opened", score: silentHours as number, threshold: hours }
      : { kind: "none" };
  }
  if (!line.active || hours <= 0 || (silentHours !== null && !overdue)) return { kind: "auto-resolved" };
  return { kind: "still-silent", score: silentHours };
}
