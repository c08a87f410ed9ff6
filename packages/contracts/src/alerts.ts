import { z } from "zod";
import { ZId, zString } from "./common.js";
import { ZAlertEventKind, ZAlertKind, ZAlertState, ZEvaluationState, ZMonitorType } from "./domain.js";
import { ZEvaluationDetails } from "./evaluation-details.js";

// ── Alerts API ─────────────────────────────────────────────────────────────────────────────────

export const ALERT_COMMENT_MAX = 1000;
export const ALERT_CAUSE_MAX = 200;
/** The cause a user picks, explicitly, when none is known: Resolve needs a cause. */
export const ALERT_NO_CAUSE = "No cause given";
/** Evaluations returned with one alert for its chart: the newest ones up to its resolution. */
export const ALERT_EVALUATIONS_MAX = 200;

/** The rule of a no-data alert, and what its list row and messages say. */
export const NO_DATA_RULE = "no_data";
export const NO_DATA_ALERT_TEXTS = {
  title: "No data",
  /** hoursSince: since the last record; threshold: the line's No Data Alert hours. */
  summary: (hoursSince: number, threshold: number) =>
    `No records for ${Math.floor(hoursSince)} h (No Data Alert after ${threshold} h)`,
} as const;

export const ALERT_MESSAGES = {
  notFound: "Alert not found",
  alreadyResolved: "This alert is already resolved",
  alreadyAcknowledged: "This alert is already acknowledged",
  commentRequired: "Comment is required",
  commentTooLong: `Comment must be at most ${ALERT_COMMENT_MAX} characters`,
  causeTooLong: `Cause must be at most ${ALERT_CAUSE_MAX} characters`,
  causeRequired: `Pick or describe a cause, or choose '${ALERT_NO_CAUSE}'`,
  evaluationNotFound: "Evaluation not found",
  valuesNotForMvd: "An MVD evaluation keeps its worst rows in its details; its values are not served",
  acknowledged: "Alert acknowledged",
  commented: "Comment added",
  resolved: "Alert resolved",
} as const;

export const ZAlertMonitor = z.object({
  id: ZId,
  name: zString(),
  type: ZMonitorType,
});

/** One alert as the line's alert list shows it. */
export const ZAlert = z.object({
  id: ZId,
  lineId: ZId,
  /** A monitor's alert, or the line's no-data alert (no monitor: Settings → Line Management's No Data Alert). */
  kind: ZAlertKind,
  state: ZAlertState,
  monitor: ZAlertMonitor.nullable(),
  openedAt: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }),
  count: z.number().int(),
  /** The rule that fired first: a rule type, or "breach" when no rule was enabled. */
  rule: zString(),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  /** Score against threshold in the monitor type's words, with units (evaluationSummary). */
  summary: zString().nullable(),
  resolvedAt: z.iso.datetime({ offset: true }).nullable(),
  cause: zString().nullable(),
});
export type TAlert = z.infer<typeof ZAlert>;
export const ZAlertList = z.array(ZAlert);

export const ZAlertEvent = z.object({
  id: ZId,
  kind: ZAlertEventKind,
  at: z.iso.datetime({ offset: true }),
  /** Null for the worker's own events (OPENED, FIRED, AUTO_RESOLVED) or a deleted user. */
  userId: ZId.nullable(),
  userEmail: zString().nullable(),
  comment: zString().nullable(),
  cause: zString().nullable(),
  evaluationId: ZId.nullable(),
});
export type TAlertEvent = z.infer<typeof ZAlertEvent>;

export const ZAlertEvaluation = z.object({
  id: ZId,
  slot: z.iso.datetime({ offset: true }),
  evaluatedAt: z.iso.datetime({ offset: true }),
  state: ZEvaluationState,
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  /** Normalised by parseEvaluationDetails (older stored shapes read as today's); null when they do not fit. */
  details: ZEvaluationDetails.nullable(),
});
export type TAlertEvaluation = z.infer<typeof ZAlertEvaluation>;

export const ZAlertNotificationAttempt = z.object({
  at: z.iso.datetime({ offset: true }),
  httpStatus: z.number().int().nullable(),
  error: zString().nullable(),
  durationMs: z.number().int().nullable(),
});

/** One outbox row of the alert (one per channel) with its delivery attempts, oldest first. */
export const ZAlertNotification = z.object({
  channel: z.enum(["teams", "etq"]),
  state: z.enum(["PENDING", "DELIVERED", "FAILED"]),
  deliveredAt: z.iso.datetime({ offset: true }).nullable(),
  lastError: zString().nullable(),
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
  comment: zString()
    .trim()
    .min(1, ALERT_MESSAGES.commentRequired)
    .max(ALERT_COMMENT_MAX, ALERT_MESSAGES.commentTooLong),
});
export type TAlertCommentBody = z.infer<typeof ZAlertCommentBody>;

/**
 * Resolve by hand with a cause: one of the offered failure modes, free text, or ALERT_NO_CAUSE
 * chosen explicitly. The server holds the rule too, not only the dialog.
 */
export const ZAlertResolveBody = z.strictObject({
  cause: zString({ error: ALERT_MESSAGES.causeRequired })
    .trim()
    .min(1, ALERT_MESSAGES.causeRequired)
    .max(ALERT_CAUSE_MAX, ALERT_MESSAGES.causeTooLong),
  comment: zString().trim().max(ALERT_COMMENT_MAX, ALERT_MESSAGES.commentTooLong).optional(),
});
export type TAlertResolveBody = z.infer<typeof ZAlertResolveBody>;

/** GET /api/alerts/{alertId}/causes: failure modes offered as causes, sorted. */
export const ZAlertCauses = z.object({ causes: z.array(zString()) });
export type TAlertCauses = z.infer<typeof ZAlertCauses>;

// ── Values of one evaluation (the alert drawer's SVD and CAP charts) ─────────────────────────

export const ZAlertEvaluationParams = z.strictObject({ alertId: ZId, evaluationId: ZId });

/** What every values answer says about how the window was read again. */
const ZEvaluationWindow = z.object({
  evaluationId: ZId,
  signal: z.object({ id: ZId, name: zString(), unit: zString().nullable() }).nullable(),
  /** The evaluation's newest record: the window is the newest records up to it. */
  lastRecordTs: z.iso.datetime({ offset: true }).nullable(),
  /** Records read: the monitor's sample_size, at most MVD_QUERY_MAX_RECORD_COUNT. */
  windowSize: z.number().int(),
  trainingFrom: z.iso.datetime({ offset: true }).nullable(),
  evaluationFrom: z.iso.datetime({ offset: true }).nullable(),
  /** The monitor's settings changed after the evaluation: the values are read with the current ones. */
  isMonitorChanged: z.boolean(),
  /** The sizes read again equal the stored training and evaluation sizes. */
  isSameAsEvaluated: z.boolean(),
});

/** SVD: the signal's training and evaluation values, oldest first (missing values left out). */
export const ZSvdEvaluationValues = ZEvaluationWindow.extend({
  type: z.literal("svd"),
  training: z.array(z.number()),
  evaluation: z.array(z.number()),
});
export type TSvdEvaluationValues = z.infer<typeof ZSvdEvaluationValues>;

/** One record of a CAP evaluation set with the limits its formulas gave (null = none). */
export const ZCapEvaluationRecord = z.object({
  ts: z.iso.datetime({ offset: true }),
  partId: zString(),
  modelNumber: zString().nullable(),
  value: z.number().nullable(),
  lsl: z.number().nullable(),
  lcl: z.number().nullable(),
  ucl: z.number().nullable(),
  usl: z.number().nullable(),
});
export type TCapEvaluationRecord = z.infer<typeof ZCapEvaluationRecord>;

/** CAP: the evaluation records, oldest first; the limits and indices stored with the evaluation. */
export const ZCapEvaluationValues = ZEvaluationWindow.extend({
  type: z.literal("cap"),
  records: z.array(ZCapEvaluationRecord),
  limits: z.object({
    lsl: z.number().nullable(),
    usl: z.number().nullable(),
    lcl: z.array(z.number()),
    ucl: z.array(z.number()),
  }),
  indices: z.object({
    cp: z.number().nullable(),
    cpk: z.number().nullable(),
    pp: z.number().nullable(),
    ppk: z.number().nullable(),
    cpkTarget: z.number().nullable(),
  }),
});
export type TCapEvaluationValues = z.infer<typeof ZCapEvaluationValues>;

/** GET /api/alerts/{alertId}/evaluations/{evaluationId}/values */
export const ZEvaluationValues = z.discriminatedUnion("type", [ZSvdEvaluationValues, ZCapEvaluationValues]);
export type TEvaluationValues = z.infer<typeof ZEvaluationValues>;
