import { z } from "zod";
import { ZId } from "./common.js";

// ── Alert rules (design/monitoring.md "Alert rules"; spec monitor-forms §2, §3, §5, §9) ────────

export const ALERT_RULE_TYPES = ["Consecutive", "ExceedanceRuns", "ExceedanceTime"] as const;
export type TAlertRuleType = (typeof ALERT_RULE_TYPES)[number];

/** What an alert records as its rule when no rule is enabled and the breach itself fired. */
export const ALERT_RULE_ANY_BREACH = "breach";

/** Bounds of the rule inputs (spec monitor-forms §5, §9): counts 1 to 999, time 60 s to 1 day. */
export const ALERT_RULE_BOUNDS = {
  countMin: 1,
  countMax: 999,
  secondsMin: 60,
  secondsMax: 86_400,
} as const;

/** Form defaults of a new monitor's rules, all switched off (spec monitor-forms §3, §9). */
export const ALERT_RULE_DEFAULTS = {
  breachesForRuns: 7,
  runs: 15,
  breachesForTime: 7,
  seconds: 900,
  consecutiveBreaches: 1,
} as const;

/** An open alert resolves by itself after this many evaluations in a row without a breach. */
export const ALERT_AUTO_RESOLVE_CLEAN_EVALUATIONS = 3;

export const ALERT_RULE_MESSAGES = {
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
  /**
   * k breaches one evaluation apart span (k − 1) × frequency minutes; when that is longer than the
   * window the rule can never fire (design: k × frequency × 60 > T + frequency × 60).
   */
  timeRuleNeverFires: (breaches: number, frequencyMinutes: number, seconds: number) =>
    `This rule can never fire: ${breaches} breaches at one evaluation every ${frequencyMinutes} min span ${
      (breaches - 1) * frequencyMinutes
    } min, longer than its ${seconds / 60} min window`,
} as const;

/** A rule as stored (monitor_rules): only the fields of its type are read. */
export type TAlertRuleValues = {
  type: TAlertRuleType;
  active: boolean;
  runs: number | null;
  breaches: number | null;
  seconds: number | null;
};

export type TAlertRuleError = { field: "runs" | "breaches" | "seconds"; message: string };

function countErrors(
  field: "runs" | "breaches",
  value: number | null,
  m: { required: string; min: string; max: string },
): TAlertRuleError[] {
  if (value == null || !Number.isFinite(value)) return [{ field, message: m.required }];
  if (!Number.isInteger(value) || value < ALERT_RULE_BOUNDS.countMin) return [{ field, message: m.min }];
  if (value > ALERT_RULE_BOUNDS.countMax) return [{ field, message: m.max }];
  return [];
}

/**
 * The validation errors of one rule; enforced only for enabled rules (spec monitor-forms §5).
 * Consecutive keeps its count in `breaches`.
 */
export function alertRuleErrors(rule: TAlertRuleValues): TAlertRuleError[] {
  if (!rule.active) return [];
  const M = ALERT_RULE_MESSAGES;
  const breaches =
    rule.type === "Consecutive"
      ? countErrors("breaches", rule.breaches, {
          required: M.breachesRequired,
          min: M.consecutiveMin,
          max: M.consecutiveMax,
        })
      : countErrors("breaches", rule.breaches, {
          required: M.breachesRequired,
          min: M.breachesMin,
          max: M.breachesMax,
        });
  if (rule.type === "Consecutive") return breaches;
  if (rule.type === "ExceedanceRuns") {
    const runs = countErrors("runs", rule.runs, { required: M.runsRequired, min: M.runsMin, max: M.runsMax });
    const errors = [...breaches, ...runs];
    if (errors.length === 0 && (rule.breaches as number) > (rule.runs as number)) {
      errors.push({ field: "breaches", message: M.breachesExceedRuns });
    }
    return errors;
  }
  const s = rule.seconds;
  const time: TAlertRuleError[] =
    s == null || !Number.isFinite(s)
      ? [{ field: "seconds", message: M.timeRequired }]
      : !Number.isInteger(s) || s < ALERT_RULE_BOUNDS.secondsMin
        ? [{ field: "seconds", message: M.timeMin }]
        : s > ALERT_RULE_BOUNDS.secondsMax
          ? [{ field: "seconds", message: M.timeMax }]
          : [];
  return [...breaches, ...time];
}

/**
 * The warning of a time rule that can never fire at the monitor's frequency, or null
 * (design/monitoring.md "Alert rules": warn when k × frequency × 60 > T + frequency × 60).
 */
export function alertRuleNeverFiresWarning(rule: TAlertRuleValues, frequencyMinutes: number): string | null {
  if (rule.type !== "ExceedanceTime" || rule.breaches == null || rule.seconds == null) return null;
  const k = rule.breaches;
  const T = rule.seconds;
  const f = frequencyMinutes * 60;
  return k * f > T + f ? ALERT_RULE_MESSAGES.timeRuleNeverFires(k, frequencyMinutes, T) : null;
}

// ── Alerts API ─────────────────────────────────────────────────────────────────────────────────

export const ALERT_STATES = ["OPEN", "ACKNOWLEDGED", "RESOLVED"] as const;
export const ZAlertState = z.enum(ALERT_STATES);
export type TAlertState = z.infer<typeof ZAlertState>;

export const ALERT_EVENT_KINDS = [
  "OPENED",
  "FIRED",
  "ACKNOWLEDGED",
  "COMMENTED",
  "RESOLVED",
  "AUTO_RESOLVED",
] as const;
export const ZAlertEventKind = z.enum(ALERT_EVENT_KINDS);

export const ALERT_COMMENT_MAX = 1000;
export const ALERT_CAUSE_MAX = 200;
/** Evaluations returned with one alert for its chart: the newest ones up to its resolution. */
export const ALERT_EVALUATIONS_MAX = 200;

export const ALERT_MESSAGES = {
  notFound: "Alert not found",
  alreadyResolved: "This alert is already resolved",
  alreadyAcknowledged: "This alert is already acknowledged",
  commentRequired: "Comment is required",
  commentTooLong: `Comment must be at most ${ALERT_COMMENT_MAX} characters`,
  causeTooLong: `Cause must be at most ${ALERT_CAUSE_MAX} characters`,
} as const;

export const ZAlertMonitor = z.object({
  id: ZId,
  name: z.string(),
  type: z.enum(["mvd", "svd", "cap"]),
});

/** One alert as the line's alert list shows it. */
export const ZAlert = z.object({
  id: ZId,
  lineId: ZId,
  state: ZAlertState,
  monitor: ZAlertMonitor,
  openedAt: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }),
  count: z.number().int(),
  /** The rule that fired first: a rule type, or "breach" when no rule was enabled. */
  rule: z.string(),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  resolvedAt: z.iso.datetime({ offset: true }).nullable(),
  cause: z.string().nullable(),
});
export type TAlert = z.infer<typeof ZAlert>;
export const ZAlertList = z.array(ZAlert);

export const ZAlertEvent = z.object({
  id: ZId,
  kind: ZAlertEventKind,
  at: z.iso.datetime({ offset: true }),
  /** Null for the worker's own events (OPENED, FIRED, AUTO_RESOLVED) or a deleted user. */
  userId: ZId.nullable(),
  userEmail: z.string().nullable(),
  comment: z.string().nullable(),
  cause: z.string().nullable(),
  evaluationId: ZId.nullable(),
});
export type TAlertEvent = z.infer<typeof ZAlertEvent>;

export const ZAlertEvaluation = z.object({
  id: ZId,
  slot: z.iso.datetime({ offset: true }),
  evaluatedAt: z.iso.datetime({ offset: true }),
  state: z.enum(["OK", "BREACH", "NO_DATA", "ERROR"]),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  details: z.unknown().nullable(),
});
export type TAlertEvaluation = z.infer<typeof ZAlertEvaluation>;

export const ZAlertNotificationAttempt = z.object({
  at: z.iso.datetime({ offset: true }),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});

/** One outbox row of the alert (one per channel) with its delivery attempts, oldest first. */
export const ZAlertNotification = z.object({
  channel: z.enum(["teams", "etq"]),
  state: z.enum(["PENDING", "DELIVERED", "FAILED"]),
  deliveredAt: z.iso.datetime({ offset: true }).nullable(),
  lastError: z.string().nullable(),
  attempts: z.array(ZAlertNotificationAttempt),
});
export type TAlertNotification = z.infer<typeof ZAlertNotification>;

/** GET /api/alerts/{alertId}: events oldest first, evaluations oldest first (for the chart). */
export const ZAlertDetail = ZAlert.extend({
  events: z.array(ZAlertEvent),
  evaluations: z.array(ZAlertEvaluation),
  notifications: z.array(ZAlertNotification),
});
export type TAlertDetail = z.infer<typeof ZAlertDetail>;

export const ZAlertParams = z.strictObject({ alertId: ZId });

export const ZAlertCommentBody = z.strictObject({
  comment: z
    .string()
    .trim()
    .min(1, ALERT_MESSAGES.commentRequired)
    .max(ALERT_COMMENT_MAX, ALERT_MESSAGES.commentTooLong),
});
export type TAlertCommentBody = z.infer<typeof ZAlertCommentBody>;

/** Resolve by hand, optionally with a cause (one of the offered failure modes or free text). */
export const ZAlertResolveBody = z.strictObject({
  cause: z.string().trim().max(ALERT_CAUSE_MAX, ALERT_MESSAGES.causeTooLong).optional(),
  comment: z.string().trim().max(ALERT_COMMENT_MAX, ALERT_MESSAGES.commentTooLong).optional(),
});
export type TAlertResolveBody = z.infer<typeof ZAlertResolveBody>;

/** GET /api/alerts/{alertId}/causes: failure modes offered as causes, sorted. */
export const ZAlertCauses = z.object({ causes: z.array(z.string()) });
export type TAlertCauses = z.infer<typeof ZAlertCauses>;
