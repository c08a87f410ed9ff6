import { z } from "zod";
import { type TRuleType, ZRuleType } from "./domain.js";
import { RULE_TYPES } from "./domain-values.js";

// A monitor's alert rules (docs/monitoring.md "Alert rules"; requirements.md monitor-forms §3, §5, §9;
// requirements.md settings §3 "Monitor rule"): their types, bounds, defaults and wording, the API's validation
// and the worker's check of a stored rule. The one source for the forms, the API and the worker.

/** What an alert records as its rule when no rule is enabled and the breach itself fired. */
export const ALERT_RULE_ANY_BREACH = "breach";

/** An open alert resolves by itself after this many evaluations in a row without a breach. */
export const ALERT_AUTO_RESOLVE_CLEAN_EVALUATIONS = 3;

/** Form defaults of a new monitor's rules, all switched off (requirements.md monitor-forms §3, §9). */
export const RULE_DEFAULTS = {
  breachesForRuns: 7,
  runs: 15,
  breachesForTime: 7,
  seconds: 900,
  consecutiveBreaches: 1,
} as const;

/** Bounds of the rule inputs (requirements.md monitor-forms §5, §9): counts 1 to 999, time 60 s to 1 day. */
export const RULE_BOUNDS = { minCount: 1, maxCount: 999, minSeconds: 60, maxSeconds: 86_400 } as const;

export const RULE_MESSAGES = {
  noRules: "No rules set: all breaches will trigger an alert",
  runsMin: "Runs must be 1 or higher",
  runsRequired: "Runs field is required",
  runsMax: "Runs must be 999 or less",
  breachesMin: "Breaches must be 1 or higher",
  breachesRequired: "Breaches field is required",
  breachesMax: "Breaches must be 999 or less",
  timeMin: "Time must be 1 min or more",
  timeMax: "Time must be 1440 min (one day) or less",
  timeRequired: "Time field is required",
  consecutiveMin: "Consecutive Breaches must be 1 or higher",
  consecutiveMax: "Consecutive Breaches must be 999 or less",
  breachesExceedRuns: "Breaches must not exceed runs",
  runsWhole: "Runs must be a whole number",
  breachesWhole: "Breaches must be a whole number",
  timeWhole: "Time must be a whole number",
  duplicateType: "Each rule type may appear only once",
  /**
   * k breaches one evaluation apart span (k − 1) × frequency minutes; when that is longer than the
   * window the rule can never fire (design: k × frequency × 60 > T + frequency × 60).
   */
  timeRuleNeverFires: (breaches: number, frequencyMinutes: number, seconds: number) =>
    `This rule can never fire: ${breaches} breaches at one evaluation every ${frequencyMinutes} min span ${
      (breaches - 1) * frequencyMinutes
    } min, longer than its ${seconds / 60} min window`,
} as const;

// ── Checks ───────────────────────────────────────────────────────────────────────────────────

type RuleField = "runs" | "breaches" | "seconds";

/** A rule as stored (monitor_rules): only the fields of its type are read. */
export type TAlertRuleValues = {
  type: TRuleType;
  active: boolean;
  runs: number | null;
  breaches: number | null;
  seconds: number | null;
};

export type TRuleError = { field: RuleField; message: string };

type FieldCheck = {
  field: RuleField;
  min: number;
  max: number;
  required: string;
  low: string;
  high: string;
  whole: string;
};

const M = RULE_MESSAGES;
const B = RULE_BOUNDS;
const breachesCheck: FieldCheck = {
  field: "breaches",
  min: B.minCount,
  max: B.maxCount,
  required: M.breachesRequired,
  low: M.breachesMin,
  high: M.breachesMax,
  whole: M.breachesWhole,
};

/** The fields each rule type checks, in the order their errors are reported. Consecutive keeps its count in `breaches`. */
const RULE_CHECKS: Record<TRuleType, FieldCheck[]> = {
  Consecutive: [{ ...breachesCheck, low: M.consecutiveMin, high: M.consecutiveMax }],
  ExceedanceRuns: [
    breachesCheck,
    {
      field: "runs",
      min: B.minCount,
      max: B.maxCount,
      required: M.runsRequired,
      low: M.runsMin,
      high: M.runsMax,
      whole: M.runsWhole,
    },
  ],
  ExceedanceTime: [
    breachesCheck,
    {
      field: "seconds",
      min: B.minSeconds,
      max: B.maxSeconds,
      required: M.timeRequired,
      low: M.timeMin,
      high: M.timeMax,
      whole: M.timeWhole,
    },
  ],
};

/** The fields a rule type uses: the others are stored as null. */
export const RULE_FIELDS: Record<TRuleType, RuleField[]> = {
  Consecutive: ["breaches"],
  ExceedanceRuns: ["runs", "breaches"],
  ExceedanceTime: ["breaches", "seconds"],
};

/**
 * The validation errors of one rule; enforced only for enabled rules (requirements.md monitor-forms §5).
 * A value that is not a whole number counts as below its minimum, or with `whole` gets the
 * "must be a whole number" message (what the API answers).
 */
export function alertRuleErrors(rule: TAlertRuleValues, opts: { whole?: boolean } = {}): TRuleError[] {
  if (!rule.active) return [];
  const errors: TRuleError[] = [];
  for (const c of RULE_CHECKS[rule.type]) {
    const v = rule[c.field];
    const message =
      v == null || !Number.isFinite(v)
        ? c.required
        : !Number.isInteger(v) && opts.whole
          ? c.whole
          : !Number.isInteger(v) || v < c.min
            ? c.low
            : v > c.max
              ? c.high
              : null;
    if (message) errors.push({ field: c.field, message });
  }
  if (errors.length === 0 && rule.type === "ExceedanceRuns" && (rule.breaches ?? 0) > (rule.runs ?? 0))
    errors.push({ field: "breaches", message: M.breachesExceedRuns });
  return errors;
}

/**
 * The warning of a time rule that can never fire at the monitor's frequency, or null
 * (docs/monitoring.md "Alert rules": warn when k × frequency × 60 > T + frequency × 60).
 */
export function alertRuleNeverFiresWarning(rule: TAlertRuleValues, frequencyMinutes: number): string | null {
  if (rule.type !== "ExceedanceTime" || rule.breaches == null || rule.seconds == null) return null;
  const k = rule.breaches;
  const T = rule.seconds;
  const f = frequencyMinutes * 60;
  return k * f > T + f ? M.timeRuleNeverFires(k, frequencyMinutes, T) : null;
}

// ── API shapes (GET / PATCH /api/notifications/monitor-rules/…) ───────────────────────────────

const zCount = z.number().nullable().optional();
export const ZMonitorRuleDetails = z.strictObject({ runs: zCount, breaches: zCount, seconds: zCount });
export const ZMonitorRule = z.strictObject({
  active: z.boolean(),
  type: ZRuleType,
  details: ZMonitorRuleDetails,
});
export type TMonitorRule = z.infer<typeof ZMonitorRule>;

/** Bounds are enforced only for enabled rules (requirements.md monitor-forms §5 "Alert rules"). */
export const ZMonitorRuleList = z
  .array(ZMonitorRule)
  .max(RULE_TYPES.length)
  .superRefine((rules, ctx) => {
    const seen = new Set<TRuleType>();
    rules.forEach((r, i) => {
      if (seen.has(r.type)) ctx.addIssue({ code: "custom", path: [i, "type"], message: M.duplicateType });
      seen.add(r.type);
      const values: TAlertRuleValues = {
        type: r.type,
        active: r.active,
        runs: r.details.runs ?? null,
        breaches: r.details.breaches ?? null,
        seconds: r.details.seconds ?? null,
      };
      for (const e of alertRuleErrors(values, { whole: true }))
        ctx.addIssue({ code: "custom", path: [i, "details", e.field], message: e.message });
    });
  });

/** The three rules with the spec's defaults, all switched off (requirements.md monitor-forms §3). */
export const DEFAULT_MONITOR_RULES: TMonitorRule[] = [
  {
    active: false,
    type: "Consecutive",
    details: { runs: null, breaches: RULE_DEFAULTS.consecutiveBreaches, seconds: null },
  },
  {
    active: false,
    type: "ExceedanceRuns",
    details: { runs: RULE_DEFAULTS.runs, breaches: RULE_DEFAULTS.breachesForRuns, seconds: null },
  },
  {
    active: false,
    type: "ExceedanceTime",
    details: { runs: null, breaches: RULE_DEFAULTS.breachesForTime, seconds: RULE_DEFAULTS.seconds },
  },
];
