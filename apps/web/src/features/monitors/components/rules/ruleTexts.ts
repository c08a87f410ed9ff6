// Wording of the Alert Rules tab beyond the spec's messages (those are in contracts RULE_MESSAGES).
// What each rule means follows design/monitoring.md "Alert rules".

export const RULE_TITLES = {
  Consecutive: "Consecutive",
  ExceedanceRuns: "Exceedance Runs",
  ExceedanceTime: "Exceedance Time",
} as const;

export const RULE_FIELD_LABELS = {
  consecutiveBreaches: "Consecutive Breaches",
  breaches: "Breaches",
  runs: "Runs",
  minutes: "Time (min)",
} as const;

export const RULE_TEXTS = {
  /** Rules combine with OR; NO_DATA is neither a breach nor a break of a streak. */
  intro:
    "Each rule that is switched on can raise an alert: any one of them firing is enough. Evaluations without data count neither as a breach nor as a break in a streak.",
  consecutive: (n: number | null) =>
    n == null || n < 1
      ? "Alerts when the set number of evaluations in a row all breach."
      : n === 1
        ? "Alerts when an evaluation breaches."
        : `Alerts when ${n} evaluations in a row all breach.`,
  runs: (breaches: number | null, runs: number | null) =>
    breaches == null || runs == null || breaches < 1 || runs < 1
      ? "Alerts when at least the set number of breaches occur within the last set number of evaluations (runs)."
      : `Alerts when at least ${breaches} of the last ${runs} evaluations breach.`,
  time: (breaches: number | null, seconds: number | null) =>
    breaches == null || seconds == null || breaches < 1 || seconds < 60
      ? "Alerts when at least the set number of evaluations breach within the set time."
      : `Alerts when at least ${breaches} ${breaches === 1 ? "evaluation breaches" : "evaluations breach"} within ${formatMinutes(seconds)} min.`,
} as const;

/** Seconds shown as minutes (the rule stores seconds, the input shows minutes). */
export const formatMinutes = (seconds: number) => String(Math.round((seconds / 60) * 100) / 100);
