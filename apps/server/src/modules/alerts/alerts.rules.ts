// Pure alert-rule evaluation (docs/monitoring.md "Alert rules"): given a monitor's rules and its
// evaluation history, does the newest evaluation fire?
import {
  ALERT_RULE_ANY_BREACH,
  alertRuleErrors,
  alertRuleNeverFiresWarning,
  RULE_TYPES,
  type TAlertRuleValues,
  type TEvaluationState,
  type TRuleType,
} from "@linewatch/contracts";

export type EvaluationPoint = { state: TEvaluationState; evaluatedAt: Date };
export type AlertRule = TAlertRuleValues;
/** What fired: the first enabled rule (Consecutive, ExceedanceRuns, ExceedanceTime order), or "breach". */
export type FiringRule = TRuleType | typeof ALERT_RULE_ANY_BREACH;

export { alertRuleErrors as ruleErrors, alertRuleNeverFiresWarning as ruleNeverFiresWarning };

/** The order in which enabled rules are asked (the first that holds is what fired). */
const RULE_ORDER: readonly TRuleType[] = RULE_TYPES;

/**
 * Whether an evaluation takes part in runs and streaks. NO_DATA counts as neither breach nor
 * break of a streak (design), so it is skipped. ERROR is skipped the same way: a failed evaluation
 * says nothing about the process, and must neither fire nor break a breach streak.
 */
export const isCounted = (e: { state: TEvaluationState }) => e.state === "OK" || e.state === "BREACH";

const isBreach = (e: { state: TEvaluationState }) => e.state === "BREACH";

/** How many counted evaluations (newest last) each rule needs to look back; for loading history. */
export function runsNeeded(rules: readonly AlertRule[]): number {
  let n = 1;
  for (const r of rules) {
    if (!r.active) continue;
    if (r.type === "Consecutive") n = Math.max(n, r.breaches ?? 1);
    if (r.type === "ExceedanceRuns") n = Math.max(n, r.runs ?? 1);
  }
  return n;
}

/** Seconds of history the time rule needs (0 without an enabled time rule). */
export function secondsNeeded(rules: readonly AlertRule[]): number {
  let s = 0;
  for (const r of rules) if (r.active && r.type === "ExceedanceTime") s = Math.max(s, r.seconds ?? 0);
  return s;
}

/**
 * Whether one enabled rule holds at the newest counted evaluation of `counted` (NO_DATA and ERROR
 * already removed, newest last). An invalid rule (see ruleErrors) never holds.
 */
export function ruleHolds(rule: AlertRule, counted: readonly EvaluationPoint[]): boolean {
  if (alertRuleErrors(rule).length > 0) return false;
  const newest = counted.at(-1);
  if (!newest || !isBreach(newest)) return false;
  const k = rule.breaches as number;
  switch (rule.type) {
    // Consecutive(N): the last N counted evaluations all breached.
    case "Consecutive":
      return counted.length >= k && counted.slice(-k).every(isBreach);
    // ExceedanceRuns(k of n): at least k of the last n counted evaluations breached; fewer than n
    // so far still fire once k of them breached.
    case "ExceedanceRuns":
      return counted.slice(-(rule.runs as number)).filter(isBreach).length >= k;
    // ExceedanceTime(k in T s): at least k breaches in [newest − T, newest]. The window is closed
    // at its start so that k evaluations one frequency apart fit exactly when
    // (k − 1) × frequency × 60 = T, matching the design's never-fires bound.
    case "ExceedanceTime": {
      const from = newest.evaluatedAt.getTime() - (rule.seconds as number) * 1000;
      return counted.filter((e) => isBreach(e) && e.evaluatedAt.getTime() >= from).length >= k;
    }
  }
}

/**
 * The rule that makes the newest evaluation of `history` (newest last) fire, or null.
 * Only a BREACH can fire. Enabled rules combine with OR; with none enabled every breach fires.
 */
export function firingRule(
  rules: readonly AlertRule[],
  history: readonly EvaluationPoint[],
): FiringRule | null {
  const newest = history.at(-1);
  if (!newest || !isBreach(newest)) return null;
  const enabled = rules.filter((r) => r.active);
  if (enabled.length === 0) return ALERT_RULE_ANY_BREACH;
  const counted = history.filter(isCounted);
  for (const type of RULE_ORDER) {
    for (const rule of enabled) if (rule.type === type && ruleHolds(rule, counted)) return type;
  }
  return null;
}
