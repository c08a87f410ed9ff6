import { z } from "zod";
import { zString } from "./common.js";
import { ZAlertThreshold, ZEvaluationState, ZMonitorType } from "./domain.js";
import { ZCycle, ZEvaluationDetails, ZLevelSupportLimit } from "./evaluation-details.js";
import {
  QUERY_BOUNDS,
  recordsRange,
  round4,
  trainingSplitLowerBound,
  ZStoredMonitorFilter,
  ZTaskDetails,
} from "./monitors.js";

// The period and training split of the monitor forms' Data Filters tab (requirements.md monitor-forms §2,
// §3 "Internal query", §4 "Query correction", §5, §9), and the preview it asks for. Pure rules
// the web form and the server share.

// ── Period (requirements.md monitor-forms §2 "Data Filters tab", §3 "Internal query", §4 "Query correction") ───────────

export const PERIOD_MODES = ["Time", "Duration", "Records"] as const;
export const ZPeriodMode = z.enum(PERIOD_MODES);
export type TPeriodMode = z.infer<typeof ZPeriodMode>;

/**
 * The period of the Data Filters tab. Times are epoch milliseconds (shown in the plant's time
 * zone), durations milliseconds (entered in minutes), records a count.
 */
export type TMonitorQuery = {
  start_mode: TPeriodMode;
  end_mode: TPeriodMode;
  start_time: number | null;
  end_time: number | null;
  start_records: number | null;
  end_records: number | null;
  start_duration: number | null;
  end_duration: number | null;
};

export const QUERY_MESSAGES = {
  invalidStart: "Invalid Start Time",
  invalidEnd: "Invalid End Time",
  startAfterEnd: "Start time must be less than end time",
  /** The preview used up its computing budget (STATS_REQUEST_CPU_MS) and was stopped. */
  previewTooLong: (seconds: number) =>
    `The preview needed more than its ${seconds} s of computing and was stopped: choose fewer records or fewer signals`,
  compatible: "MVD monitor compatible",
  incompatible: "MVD monitor incompatible",
  /** Saving needs a rolling window: the newest N records (Period Start in Records). */
  incompatibleSave: "Set Period Start to Records to save this monitor",
  /** requirements.md monitor-forms §2: the result select with no result classifications. */
  resultNotConfigured: "Not Configured",
  /** requirements.md monitor-forms §2, in three parts around the 'Configure now' link. */
  resultAssociationWarning: {
    before: "One or many signal(s) lack result association. This may impact the query. Click ",
    link: "Configure now",
    after: " to create associations",
  },
  recordsWhole: "Records must be a whole number",
  durationWhole: "Duration must be a whole number of minutes",
} as const;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Durations are clamped to 60,000 – 180,000,000 ms (1 min – 50 h). */
export const clampDuration = (ms: number) =>
  clamp(Math.round(ms), QUERY_BOUNDS.minDurationMs, QUERY_BOUNDS.maxDurationMs);

/** Records are clamped to the records range (50 – max(50, MVD_QUERY_MAX_RECORD_COUNT)). */
export const clampRecords = (n: number, maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount) => {
  const r = recordsRange(maxRecordCount);
  return clamp(Math.round(n), r.min, r.max);
};

/** The default period: the newest 150 records up to now (a monitor-compatible window). */
export function defaultMonitorQuery(
  now: number,
  maxRecordCount: number = QUERY_BOUNDS.defaultMaxRecordCount,
): TMonitorQuery {
  return {
    start_mode: "Records",
    end_mode: "Time",
    start_time: now - QUERY_BOUNDS.minTimeDifferenceMs,
    end_time: now,
    start_records: Math.min(QUERY_BOUNDS.defaultRecords, maxRecordCount),
    end_records: null,
    start_duration: null,
    end_duration: null,
  };
}

/** The clock and this installation's MVD_QUERY_MAX_RECORD_COUNT, which the period rules read. */
export type TMonitorQueryOptions = { now: number; maxRecordCount?: number };

/**
 * Query correction (requirements.md monitor-forms §4): a side whose mode changed gets its default (Duration 1 h, Records
 * 150, Time derived from the other end ∓ the default duration, or now); when one side is Records
 * or Duration the other is limited to Time; values are clamped into bounds and not in the
 * future; Duration sides take their time from the other end, Records sides sit the minimum time
 * difference from it.
 */
export function correctMonitorQuery(
  prev: TMonitorQuery,
  next: TMonitorQuery,
  opts: TMonitorQueryOptions,
): TMonitorQuery {
  const max = opts.maxRecordCount ?? QUERY_BOUNDS.defaultMaxRecordCount;
  const q: TMonitorQuery = { ...next };
  const D = QUERY_BOUNDS.defaultDurationMs;
  const startChanged = prev.start_mode !== q.start_mode;
  const endChanged = prev.end_mode !== q.end_mode;

  // The other side is limited to Time when one side counts records or a duration.
  if (q.start_mode !== "Time" && q.end_mode !== "Time") {
    if (startChanged && !endChanged) q.end_mode = "Time";
    else q.start_mode = "Time";
  }

  const defaultsFor = (side: "start" | "end") => {
    const mode = side === "start" ? q.start_mode : q.end_mode;
    if (mode === "Duration") q[`${side}_duration`] = D;
    else if (mode === "Records") q[`${side}_records`] = Math.min(QUERY_BOUNDS.defaultRecords, max);
    else {
      const other = side === "start" ? q.end_time : q.start_time;
      if (side === "start") q.start_time = other != null ? other - D : opts.now - D;
      else q.end_time = other != null && q.start_mode === "Time" ? Math.min(opts.now, other + D) : opts.now;
    }
  };
  if (q.start_mode !== prev.start_mode) defaultsFor("start");
  if (q.end_mode !== prev.end_mode) defaultsFor("end");

  // Clamp counts and durations; keep the unused ones empty.
  q.start_records =
    q.start_mode === "Records" ? clampRecords(q.start_records ?? QUERY_BOUNDS.defaultRecords, max) : null;
  q.end_records =
    q.end_mode === "Records" ? clampRecords(q.end_records ?? QUERY_BOUNDS.defaultRecords, max) : null;
  q.start_duration = q.start_mode === "Duration" ? clampDuration(q.start_duration ?? D) : null;
  q.end_duration = q.end_mode === "Duration" ? clampDuration(q.end_duration ?? D) : null;

  // Times never lie in the future; derived sides follow the Time side.
  const notFuture = (t: number | null) => (t == null || !Number.isFinite(t) ? t : Math.min(t, opts.now));
  if (q.start_mode === "Time") q.start_time = notFuture(q.start_time);
  if (q.end_mode === "Time") q.end_time = notFuture(q.end_time);
  const gap = QUERY_BOUNDS.minTimeDifferenceMs;
  if (q.start_mode === "Duration" && q.end_time != null) q.start_time = q.end_time - (q.start_duration ?? D);
  if (q.start_mode === "Records" && q.end_time != null) q.start_time = q.end_time - gap;
  if (q.end_mode === "Duration" && q.start_time != null)
    q.end_time = Math.min(opts.now, q.start_time + (q.end_duration ?? D));
  if (q.end_mode === "Records" && q.start_time != null) q.end_time = Math.min(opts.now, q.start_time + gap);
  return q;
}

export type TQueryErrors = Partial<
  Record<
    "start_time" | "end_time" | "start_records" | "end_records" | "start_duration" | "end_duration",
    string
  >
>;

/** Query validation (requirements.md monitor-forms §5 "Query", "Period"). */
export function monitorQueryErrors(q: TMonitorQuery, opts: TMonitorQueryOptions): TQueryErrors {
  const errors: TQueryErrors = {};
  const validTime = (t: number | null) => t != null && Number.isFinite(t) && t <= opts.now + 1000;
  if (q.start_mode === "Time" && !validTime(q.start_time)) errors.start_time = QUERY_MESSAGES.invalidStart;
  if (q.end_mode === "Time" && !validTime(q.end_time)) errors.end_time = QUERY_MESSAGES.invalidEnd;
  const whole = (n: number | null) => n != null && Number.isInteger(n) && n >= 0;
  if (q.start_mode === "Records" && !whole(q.start_records))
    errors.start_records = QUERY_MESSAGES.recordsWhole;
  if (q.end_mode === "Records" && !whole(q.end_records)) errors.end_records = QUERY_MESSAGES.recordsWhole;
  if (q.start_mode === "Duration" && !whole(q.start_duration))
    errors.start_duration = QUERY_MESSAGES.durationWhole;
  if (q.end_mode === "Duration" && !whole(q.end_duration)) errors.end_duration = QUERY_MESSAGES.durationWhole;
  if (
    !errors.start_time &&
    !errors.end_time &&
    q.start_time != null &&
    q.end_time != null &&
    q.end_time - q.start_time < QUERY_BOUNDS.minTimeDifferenceMs
  ) {
    errors.start_time = QUERY_MESSAGES.startAfterEnd;
  }
  return errors;
}

/** A monitor evaluates a rolling window of the newest records: compatible when Start is Records. */
export const isMonitorCompatible = (q: TMonitorQuery) => q.start_mode === "Records";

/** The record count the training-split bounds are computed from (3000 when none is set). */
export const recordCountOf = (q: TMonitorQuery) =>
  q.start_mode === "Records" && q.start_records
    ? q.start_records
    : q.end_mode === "Records" && q.end_records
      ? q.end_records
      : QUERY_BOUNDS.defaultRecordCountForSplit;

/** The window a preview reads for a period (see ZPreviewPeriod). */
export function previewPeriodOf(q: TMonitorQuery): TPreviewPeriod {
  // An unreadable time (NaN) reads as "none": callers check monitorQueryErrors first.
  const iso = (t: number | null) => (t == null || !Number.isFinite(t) ? null : new Date(t).toISOString());
  if (q.start_mode === "Records")
    return { from: null, to: iso(q.end_time), records: q.start_records, anchor: "end" };
  if (q.end_mode === "Records")
    return { from: iso(q.start_time), to: null, records: q.end_records, anchor: "start" };
  return { from: iso(q.start_time), to: iso(q.end_time), records: null, anchor: "end" };
}

/**
 * A preview's period: `records` newest records up to `to` (anchor end), `records` oldest from
 * `from` (anchor start), or every record between `from` and `to` (records null; at most
 * MVD_QUERY_MAX_RECORD_COUNT, the newest).
 */
export const ZPreviewPeriod = z.strictObject({
  from: z.iso.datetime({ offset: true }).nullable(),
  to: z.iso.datetime({ offset: true }).nullable(),
  records: z.number().int().min(1).nullable(),
  anchor: z.enum(["start", "end"]),
});
export type TPreviewPeriod = z.infer<typeof ZPreviewPeriod>;

// ── Training split (requirements.md monitor-forms §2, §5 "Training split", §9) ─────────────────────────────────────────

/** Evaluation-ratio bounds for a record count: lower 25 / records (4 places), upper 0.5. */
export function trainingSplitBounds(recordCount: number) {
  return { min: trainingSplitLowerBound(recordCount), max: QUERY_BOUNDS.maxTrainingSplit };
}

/** Clamp an evaluation ratio into its bounds, rounded to 4 places (requirements.md monitor-forms §9). */
export function clampEvaluationRatio(ratio: number, recordCount: number) {
  const b = trainingSplitBounds(recordCount);
  return round4(clamp(ratio, b.min, b.max));
}

/** Sample and evaluation percentages of a ratio, 2 decimals in the control (requirements.md monitor-forms §5). */
export function splitPercentages(ratio: number) {
  const evaluation = Math.round(ratio * 100 * 100) / 100;
  return { evaluation, sample: Math.round((100 - evaluation) * 100) / 100 };
}

/** The control's text input → ratio, or null when it is not a number (alert icon, not committed). */
export function parseSplitPercentage(text: string): number | null {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Number(t) / 100;
}

// ── Calls the Data Filters tab makes beyond the monitors API ─────────────────────────────────

/** GET /api/monitors/form-bounds: this installation's MVD_QUERY_MAX_RECORD_COUNT. */
export const ZMonitorFormBounds = z.object({ maxRecordCount: z.number().int().min(0) });
export type TMonitorFormBounds = z.infer<typeof ZMonitorFormBounds>;

/** The filter keys a preview reads (as stored in monitors.filter). */
/** The stored filter's keys (ZStoredMonitorFilter): a preview sends the filter the monitor would store. */
const STORED_FILTER_KEYS = Object.fromEntries(
  Object.keys(ZStoredMonitorFilter.shape).map((k) => [k, true]),
) as {
  [K in keyof typeof ZStoredMonitorFilter.shape]: true;
};

/**
 * A preview's filter: the stored filter's fields, validated as a task's details validate them
 * (ZTaskDetails), except that a form still being filled in may preview any sample size and
 * ratio the window can split (the form's own checks say what saving needs).
 */
export const ZPreviewFilter = ZTaskDetails.pick(STORED_FILTER_KEYS).extend({
  sample_size: z.number().int().min(1),
  evaluation_ratio: z.number().min(0).max(1),
});

/**
 * POST /api/monitors/preview: a monitor's settings as the form holds them. Without `period` the
 * window is the newest sample_size records now (what the saved monitor evaluates); with it, the
 * period of the Data Filters tab.
 */
export const ZMonitorPreviewBody = z.strictObject({
  type: ZMonitorType,
  line_id: z.uuid(),
  alert_threshold: ZAlertThreshold.default("medium"),
  use_excluded_part_ids: z.boolean().default(false),
  use_excluded_model_numbers: z.boolean().default(false),
  filter: ZPreviewFilter,
  period: ZPreviewPeriod.optional(),
});
export type TMonitorPreviewBody = z.input<typeof ZMonitorPreviewBody>;

/**
 * Whether the monitor's own sample size holds its alert threshold for the dependence the
 * previewed records show (issue 29): measured on the whole preview (a period's records are more
 * than one window). Absent when there are too few records to measure.
 */
export const ZPreviewLevelSupport = z.object({
  holds: z.boolean(),
  /** Records the dependence was measured on. */
  measured_records: z.number().int(),
  /** The monitor's training records at its sample size and ratio. */
  training_records: z.number().int(),
  /** The monitor's training records / VIF. */
  effective_sample_size: z.number(),
  /** The smallest sample size (same ratio) that holds; null when none up to 100,000 does. */
  minimum_sample_size: z.number().int().nullable(),
  /** The measured long-run variance inflation (1: independent). */
  vif: z.number(),
  /** The AR order the records chose (0: independent). */
  ar_order: z.number().int(),
  /**
   * What the window falls short in when it does not hold: the dependence's estimate, MVD's
   * covariance, or (CAP) too few training records for the heavy or skewed tails its control rules
   * judge points by; null when it holds.
   */
  limited_by: ZLevelSupportLimit.nullable().optional(),
  /** A cycle the records carry beside their autocorrelation (its period and share of the variance); null when none. */
  cycle: ZCycle.nullable().optional(),
});
export type TPreviewLevelSupport = z.infer<typeof ZPreviewLevelSupport>;

export const ZMonitorPreview = z.object({
  window_size: z.number().int(),
  training_size: z.number().int(),
  evaluation_size: z.number().int(),
  from: zString().nullable(),
  to: zString().nullable(),
  training_from: zString().nullable(),
  evaluation_from: zString().nullable(),
  evaluation: z.object({
    state: ZEvaluationState,
    reason: zString().nullable(),
    score: z.number().nullable(),
    threshold: z.number().nullable(),
    training_size: z.number().int().nullable(),
    evaluation_size: z.number().int().nullable(),
    /** Normalised by parseEvaluationDetails; null when there are none or they do not fit. */
    details: ZEvaluationDetails.nullable(),
  }),
  level_support: ZPreviewLevelSupport.nullable().optional(),
});
export type TMonitorPreview = z.infer<typeof ZMonitorPreview>;
