import { z } from "zod";
import { ZId, ZIsoDateTime, zString } from "./common.js";
import { ZEvaluationState, ZRuleType } from "./domain.js";
import { ALERT_RULE_ANY_BREACH, ZMonitorRuleList } from "./monitor-rules.js";
import { createTaskSchemas, QUERY_BOUNDS } from "./monitors.js";

// Backtest (issue #18 §1): what a monitor would have done over a past period — the worker's
// window, evaluation, alert rules and alert opening / auto-resolving replayed at each slot of the
// period, stored nowhere.

export const BACKTEST_BOUNDS = {
  /** A period without `from` covers this many days before its end. */
  defaultDays: 7,
  /** The periods a saved monitor's page offers (days). */
  pageDays: [7, 14, 30],
  // A calendar month of 31 days (issue 31 §4).
  maxDays: 31,
  /**
   * The most records one backtest reads (the period's records plus one window). They are read and
   * replayed a page at a time (issue 31 §4), so this bounds the time a backtest may read for, not
   * its memory: over 31 days it is about 33,600 parts an hour, far above the 5,000 an hour a
   * station may write.
   */
  maxRecords: 25_000_000,
} as const;

/** "25,000,000"; "about 33,600 an hour over 31 days" (a whole number of hundreds). */
const grouped = (n: number) => n.toLocaleString("en-US");
const perHourOver = (max: number, days: number) => grouped(Math.floor(max / (days * 24) / 100) * 100);

export const BACKTEST_MESSAGES = {
  monitorOrTask: "Give either a monitor's settings (task) or a saved monitor's id (monitor_uuid)",
  periodTooLong: `A backtest period is at most ${BACKTEST_BOUNDS.maxDays} days`,
  periodOrder: "The backtest period must start before it ends",
  /** The backtest used up its computing budget (BACKTEST_CPU_MS) and was stopped. */
  tooLong: (seconds: number) =>
    `The backtest needed more than its ${seconds} s of computing and was stopped: choose a shorter period or fewer signals`,
  tooManyRecords: (max: number) =>
    `The backtest period holds more than ${grouped(max)} records (about ${perHourOver(max, BACKTEST_BOUNDS.maxDays)} parts an hour over ${BACKTEST_BOUNDS.maxDays} days): choose a shorter period`,
  /** The Backtest panel's summary (issue #18 §1). */
  summary: (alerts: number, days: number, breaches: number, evaluations: number) =>
    `would have opened ${alerts} ${alerts === 1 ? "alert" : "alerts"} in the last ${days} ${
      days === 1 ? "day" : "days"
    } (${breaches} breaching evaluations of ${evaluations})`,
} as const;

/** The Backtest panel of the monitor form (issue #18 §1): its words beyond the summary. */
export const BACKTEST_TEXTS = {
  title: "Backtest",
  loading: "Running the backtest",
  updating: "Updating the backtest",
  loadError: (message: string) => `Backtest could not be run: ${message}`,
  blocked: {
    signals: "Select signals to backtest",
    rules: "Correct the alert rules to backtest",
  },
  score: "Score",
  threshold: "Threshold",
  breach: "Breaching evaluation",
  chartLabel: "Score against threshold over the backtest period; would-be alerts shaded",
  period: "Backtest period",
  days: (n: number) => `${n} days`,
  overlay: "Shaded red: would-be alerts. Outlined blue: the alerts this monitor raised.",
  alertsHeading: "Would-be alerts",
  alertSpan: (opened: string, resolved: string | null) =>
    resolved ? `${opened} to ${resolved}` : `${opened}, still open at the end`,
  moreAlerts: (n: number) => `and ${n} more (shaded on the chart)`,
  /** The progress bar of a running backtest: the plant-local day its replay has reached. */
  progress: (day: string, done: number, total: number) =>
    `Backtest at ${day}: ${done} of ${total} evaluations`,
  progressLabel: "Backtest progress",
  reading: "Reading the period's records",
  cancel: "Cancel",
  cancelled: "Backtest cancelled.",
  runAgain: "Run again",
} as const;

/** The Backtest panel lists the first this many would-be alerts under its chart. */
export const BACKTEST_ALERT_LIST_MAX = 5;

/** The Backtest panel asks again this long after the settings stop changing (ms). */
export const BACKTEST_DEBOUNCE_MS = 800;

/**
 * The period replayed: (from, to]; without `to` it ends now, without `from` it starts `days`
 * (default 7) days before `to`.
 */
export const ZBacktestPeriod = z.strictObject({
  from: ZIsoDateTime.optional(),
  to: ZIsoDateTime.optional(),
  days: z.number().int().min(1).max(BACKTEST_BOUNDS.maxDays).optional(),
});
export type TBacktestPeriod = z.infer<typeof ZBacktestPeriod>;

/**
 * The body for a server's MVD_QUERY_MAX_RECORD_COUNT: a monitor's settings exactly as a create
 * takes them (`task`, with the form's `rules`; none = every breach fires) or a saved monitor
 * (`monitor_uuid`, its stored rules unless `rules` replaces them), and the period.
 */
export function createBacktestSchemas(maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount) {
  const { ZTaskCreateBody } = createTaskSchemas(maxRecordCount);
  const ZBacktestBody = z
    .strictObject({
      task: ZTaskCreateBody.optional(),
      monitor_uuid: ZId.optional(),
      rules: ZMonitorRuleList.optional(),
      period: ZBacktestPeriod.optional(),
    })
    .superRefine((b, ctx) => {
      if ((b.task == null) === (b.monitor_uuid == null))
        ctx.addIssue({ code: "custom", path: ["task"], message: BACKTEST_MESSAGES.monitorOrTask });
    });
  return { ZBacktestBody };
}
export const { ZBacktestBody } = createBacktestSchemas();
export type TBacktestBody = z.input<typeof ZBacktestBody>;

/** What the alert logic did at a slot (the worker's applyEvaluation outcome). */
export const BACKTEST_ALERT_STEPS = ["opened", "fired", "auto-resolved", "clean", "none"] as const;
export const ZBacktestAlertStep = z.enum(BACKTEST_ALERT_STEPS);

export const ZBacktestSlot = z.object({
  slot: ZIsoDateTime,
  state: ZEvaluationState,
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  reason: zString().nullable(),
  alert: ZBacktestAlertStep,
});
export type TBacktestSlot = z.infer<typeof ZBacktestSlot>;

export const ZBacktestAlert = z.object({
  opened_at: ZIsoDateTime,
  /** null: still open at the period's end. */
  resolved_at: ZIsoDateTime.nullable(),
  last_seen_at: ZIsoDateTime,
  rule: z.union([ZRuleType, z.literal(ALERT_RULE_ANY_BREACH)]),
  count: z.number().int(),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
});
export type TBacktestAlert = z.infer<typeof ZBacktestAlert>;

export const ZBacktest = z.object({
  from: ZIsoDateTime,
  to: ZIsoDateTime,
  frequency: z.number().int(),
  /** Records read: the period's plus the window before it. */
  records: z.number().int(),
  slots: z.array(ZBacktestSlot),
  alerts: z.array(ZBacktestAlert),
  summary: z.object({
    evaluations: z.number().int(),
    breaches: z.number().int(),
    alerts_opened: z.number().int(),
  }),
});
export type TBacktest = z.infer<typeof ZBacktest>;

/**
 * The streamed answer (`Accept: application/x-ndjson`): one JSON object a line. `progress` as the
 * replay moves (`at` is the slot it has reached), then either `result` (the same TBacktest the
 * plain JSON answer gives) or `error` (a failure after the stream began: its HTTP status had
 * already been sent as 200). Failures found before the replay starts (validation, not found)
 * answer with their status and a JSON message, as without the header; the period's records are
 * read while the replay runs (issue 31 §4), so "too many records" comes as an `error` line.
 */
export const BACKTEST_STREAM_TYPE = "application/x-ndjson";
export const ZBacktestStreamLine = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("progress"),
    done: z.number().int(),
    total: z.number().int(),
    /** The slot reached; null before the first. */
    at: ZIsoDateTime.nullable(),
  }),
  z.object({ type: z.literal("result"), backtest: ZBacktest }),
  z.object({ type: z.literal("error"), status: z.number().int(), message: zString() }),
]);
export type TBacktestStreamLine = z.infer<typeof ZBacktestStreamLine>;
