import { RULE_BOUNDS, RULE_DEFAULTS, RULE_MESSAGES, type TMonitorRule } from "./monitor-rules.js";

// The alert rules editor's values (requirements.md monitor-forms §3 "Alert rule" form values, §5, §9): what
// the monitor form's Alert Rules tab and any other editor of a monitor's rules hold, their
// validation, and the mapping to and from the rules API.

export type TRuleFormValues = {
  consecutiveEnabled: boolean;
  consecutiveBreaches: number | null;
  runsEnabled: boolean;
  runs: number | null;
  breachesForRuns: number | null;
  timeEnabled: boolean;
  breachesForTime: number | null;
  /** Stored in seconds; the input shows minutes (seconds / 60). */
  seconds: number | null;
};

export const DEFAULT_RULE_FORM: TRuleFormValues = {
  consecutiveEnabled: false,
  consecutiveBreaches: RULE_DEFAULTS.consecutiveBreaches,
  runsEnabled: false,
  runs: RULE_DEFAULTS.runs,
  breachesForRuns: RULE_DEFAULTS.breachesForRuns,
  timeEnabled: false,
  breachesForTime: RULE_DEFAULTS.breachesForTime,
  seconds: RULE_DEFAULTS.seconds,
};

/** Digits-only whole-number input: anything else is dropped; empty is null. */
export function parseRuleInput(text: string): number | null {
  const digits = text.replace(/\D/g, "");
  return digits === "" ? null : Number(digits);
}

/** Rules as the server stores them → form values (missing rules take the defaults, off). */
export function ruleFormFromRules(rules: TMonitorRule[]): TRuleFormValues {
  const f = { ...DEFAULT_RULE_FORM };
  for (const r of rules) {
    if (r.type === "Consecutive") {
      f.consecutiveEnabled = r.active;
      f.consecutiveBreaches = r.details.breaches ?? RULE_DEFAULTS.consecutiveBreaches;
    } else if (r.type === "ExceedanceRuns") {
      f.runsEnabled = r.active;
      f.runs = r.details.runs ?? RULE_DEFAULTS.runs;
      f.breachesForRuns = r.details.breaches ?? RULE_DEFAULTS.breachesForRuns;
    } else {
      f.timeEnabled = r.active;
      f.breachesForTime = r.details.breaches ?? RULE_DEFAULTS.breachesForTime;
      f.seconds = r.details.seconds ?? RULE_DEFAULTS.seconds;
    }
  }
  return f;
}

/** Form values → the PATCH body of /api/notifications/monitor-rules/{monitorId}. */
export function rulesFromRuleForm(f: TRuleFormValues): TMonitorRule[] {
  return [
    {
      active: f.consecutiveEnabled,
      type: "Consecutive",
      details: { runs: null, breaches: f.consecutiveBreaches, seconds: null },
    },
    {
      active: f.runsEnabled,
      type: "ExceedanceRuns",
      details: { runs: f.runs, breaches: f.breachesForRuns, seconds: null },
    },
    {
      active: f.timeEnabled,
      type: "ExceedanceTime",
      details: { runs: null, breaches: f.breachesForTime, seconds: f.seconds },
    },
  ];
}

export type TRuleFormErrors = Partial<
  Record<"consecutiveBreaches" | "runs" | "breachesForRuns" | "breachesForTime" | "seconds", string>
>;

function countError(v: number | null, m: { required: string; min: string; max: string }) {
  if (v == null || !Number.isFinite(v)) return m.required;
  if (!Number.isInteger(v) || v < RULE_BOUNDS.minCount) return m.min;
  if (v > RULE_BOUNDS.maxCount) return m.max;
  return undefined;
}

/** Rule errors, only for enabled rules (requirements.md monitor-forms §5 "Alert rules"), plus breaches ≤ runs. */
export function ruleFormErrors(f: TRuleFormValues): TRuleFormErrors {
  const M = RULE_MESSAGES;
  const e: TRuleFormErrors = {};
  const breaches = { required: M.breachesRequired, min: M.breachesMin, max: M.breachesMax };
  if (f.consecutiveEnabled)
    e.consecutiveBreaches = countError(f.consecutiveBreaches, {
      required: M.breachesRequired,
      min: M.consecutiveMin,
      max: M.consecutiveMax,
    });
  if (f.runsEnabled) {
    e.runs = countError(f.runs, { required: M.runsRequired, min: M.runsMin, max: M.runsMax });
    e.breachesForRuns = countError(f.breachesForRuns, breaches);
    if (!e.runs && !e.breachesForRuns && (f.breachesForRuns as number) > (f.runs as number))
      e.breachesForRuns = M.breachesExceedRuns;
  }
  if (f.timeEnabled) {
    e.breachesForTime = countError(f.breachesForTime, breaches);
    const s = f.seconds;
    e.seconds =
      s == null || !Number.isFinite(s)
        ? M.timeRequired
        : s < RULE_BOUNDS.minSeconds
          ? M.timeMin
          : s > RULE_BOUNDS.maxSeconds
            ? M.timeMax
            : undefined;
  }
  for (const k of Object.keys(e) as (keyof TRuleFormErrors)[]) if (e[k] === undefined) delete e[k];
  return e;
}

// ── The Alert Rules tab's wording beyond the spec's messages (those are RULE_MESSAGES) ─────────
// What each rule means follows docs/monitoring.md "Alert rules".

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
