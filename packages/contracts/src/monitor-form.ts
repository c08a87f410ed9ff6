import { md5 } from "js-md5";
import { z } from "zod";
import { zString } from "./common.js";
import { type TAlertThreshold, ZAlertThreshold, ZEvaluationState, ZMonitorType } from "./domain.js";
import {
  DEFAULT_MONITOR_RULES,
  RULE_BOUNDS,
  RULE_DEFAULTS,
  RULE_MESSAGES,
  type TMonitorRule,
} from "./monitor-rules.js";
import {
  canonicalMonitorFilterJson,
  MONITOR_BOUNDS,
  MONITOR_MESSAGES,
  QUERY_BOUNDS,
  recordsRange,
  round4,
  signalSelectionError,
  type TMonitor,
  type TStoredMonitorFilter,
  trainingSplitLowerBound,
  ZMonitorName,
  ZPassFail,
} from "./monitors.js";

// The MVD and SVD monitor forms (spec monitor-forms §2–§5, §8, §9): their values, the pure rules
// that correct and validate them, and the mapping to the server's task and rules. The web form
// and the server share these, so a form and the API can never disagree on a bound or a message.

// ── Period (spec §2 "Data Filters tab", §3 "Internal query", §4 "Query correction") ───────────

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
  compatible: "MVD monitor compatible",
  incompatible: "MVD monitor incompatible",
  /** Saving needs a rolling window: the newest N records (Period Start in Records). */
  incompatibleSave: "Set Period Start to Records to save this monitor",
  /** spec §2: the result select with no result classifications. */
  resultNotConfigured: "Not Configured",
  /** spec §2, in three parts around the 'Configure now' link. */
  resultAssociationWarning: {
    before: "One or many signal(s) lack result association. This may impact the query. Click ",
    link: "Configure now",
    after: " to create associations",
  },
  recordsWhole: "Records must be a whole number",
  durationWhole: "Duration must be a whole number of minutes",
} as const;

/** Timings of the form (spec §9 "Timing"); snackbars and drawers are in ui.ts. */
export const MONITOR_FORM_TIMINGS = {
  frequencyClampMs: 900,
  periodInputMs: 700,
  trainingSplitSliderMs: 400,
  trainingSplitInputMs: 900,
  nameDebounceMs: 500,
  /** The query preview asks again this long after the filters stop changing (not in the spec). */
  previewMs: 500,
} as const;

/** Layout constants of the form (spec §9 "Layout"); drawers and grid rows are in ui.ts. */
export const MONITOR_FORM_LAYOUT = {
  notesRows: 5,
  signalPickerMinHeight: 570,
  resultMenuMaxHeight: 177,
  resultMenuWidth: 250,
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

type QueryOptions = { now: number; maxRecordCount?: number };

/**
 * Query correction (spec §4): a side whose mode changed gets its default (Duration 1 h, Records
 * 150, Time derived from the other end ∓ the default duration, or now); when one side is Records
 * or Duration the other is limited to Time; values are clamped into bounds and not in the
 * future; Duration sides take their time from the other end, Records sides sit the minimum time
 * difference from it.
 */
export function correctMonitorQuery(
  prev: TMonitorQuery,
  next: TMonitorQuery,
  opts: QueryOptions,
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

/** Query validation (spec §5 "Query", "Period"). */
export function monitorQueryErrors(q: TMonitorQuery, opts: QueryOptions): TQueryErrors {
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

// ── Training split (spec §2, §5 "Training split", §9) ─────────────────────────────────────────

/** Evaluation-ratio bounds for a record count: lower 25 / records (4 places), upper 0.5. */
export function trainingSplitBounds(recordCount: number) {
  return { min: trainingSplitLowerBound(recordCount), max: QUERY_BOUNDS.maxTrainingSplit };
}

/** Clamp an evaluation ratio into its bounds, rounded to 4 places (spec §9). */
export function clampEvaluationRatio(ratio: number, recordCount: number) {
  const b = trainingSplitBounds(recordCount);
  return round4(clamp(ratio, b.min, b.max));
}

/** Sample and evaluation percentages of a ratio, 2 decimals in the control (spec §5). */
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

// ── Frequency (spec §4 "Frequency input") ────────────────────────────────────────────────────

/** Clamp typed minutes into the frequency bounds; an unreadable value becomes the minimum. */
export function clampFrequency(raw: string | number | null | undefined): number {
  const n = typeof raw === "number" ? raw : Number(String(raw ?? "").trim());
  if (raw === "" || raw == null || !Number.isFinite(n)) return MONITOR_BOUNDS.minFrequency;
  return clamp(Math.round(n), MONITOR_BOUNDS.minFrequency, MONITOR_BOUNDS.maxFrequency);
}

// ── Alert rules form (spec §3 "Alert rule" form values, §5, §9) ──────────────────────────────

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

/** Rule errors, only for enabled rules (spec §5 "Alert rules"), plus breaches ≤ runs. */
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

// ── Form values ──────────────────────────────────────────────────────────────────────────────

export const FORM_MODES = ["CREATE", "EDIT", "VIEW"] as const;
export type TFormMode = (typeof FORM_MODES)[number];
export type TFormMonitorType = "mvd" | "svd";
export const FORM_TABS = ["signals", "filters", "rules"] as const;
export type TFormTab = (typeof FORM_TABS)[number];
/** Data Filters is the default tab (spec §2). */
export const DEFAULT_FORM_TAB: TFormTab = "filters";

export type TPartAttributeSelection = { attributeUuid: string; selectedAttributeValues: string[] };

export type TMonitorFormValues = {
  monitor_uuid: string | null;
  monitor_name: string;
  monitor_type: TFormMonitorType;
  active: boolean;
  frequency: number;
  notes: string;
  alert_threshold: TAlertThreshold;
  line_uuid: string;
  signal_uuids: string[];
  signal_group_uuids: string[];
  query: TMonitorQuery;
  /** The split saved and shown: the user's chosen split clamped into the record count's bounds. */
  evaluation_ratio: number;
  /**
   * The split the user chose, kept while a record count's bounds clamp it (Records 50 lifts the
   * split to 50 %; back at 150 the chosen 20 % returns). Never saved; unset until a clamp differs.
   */
  chosen_evaluation_ratio?: number | null;
  part_numbers: string[];
  part_attributes: TPartAttributeSelection[];
  pass_fail_filter: ("pass" | "fail")[];
  rules: TRuleFormValues;
  /** md5 of the filter the monitor was saved with; reset when the filter no longer matches. */
  monitor_filter_md5: string | null;
};

export function newMonitorForm(
  type: TFormMonitorType,
  lineUuid: string,
  opts: QueryOptions & { name?: string },
): TMonitorFormValues {
  return {
    monitor_uuid: null,
    monitor_name: opts.name ?? "",
    monitor_type: type,
    active: true,
    frequency: MONITOR_BOUNDS.defaultFrequency,
    notes: "",
    alert_threshold: MONITOR_BOUNDS.defaultAlertThreshold,
    line_uuid: lineUuid,
    signal_uuids: [],
    signal_group_uuids: [],
    query: defaultMonitorQuery(opts.now, opts.maxRecordCount),
    evaluation_ratio: QUERY_BOUNDS.defaultTrainingSplit,
    part_numbers: [],
    part_attributes: [],
    pass_fail_filter: [],
    rules: { ...DEFAULT_RULE_FORM },
    monitor_filter_md5: null,
  };
}

/** A stored monitor and its rules → form values (Period: its newest sample_size records up to now). */
export function monitorToForm(m: TMonitor, rules: TMonitorRule[], opts: QueryOptions): TMonitorFormValues {
  const f = m.monitor_filter;
  return {
    monitor_uuid: m.monitor_uuid,
    monitor_name: m.monitor_name,
    monitor_type: m.monitor_type === "svd" ? "svd" : "mvd",
    active: m.active,
    frequency: m.frequency,
    notes: m.notes,
    alert_threshold: f.alert_threshold,
    line_uuid: f.line_uuid,
    signal_uuids: [...f.signal_uuids],
    signal_group_uuids: [...f.signal_group_uuids],
    query: { ...defaultMonitorQuery(opts.now, opts.maxRecordCount), start_records: f.sample_size },
    evaluation_ratio: f.evaluation_ratio,
    part_numbers: [...f.part_numbers],
    part_attributes: f.part_attributes.map((a) => ({
      ...a,
      selectedAttributeValues: [...a.selectedAttributeValues],
    })),
    pass_fail_filter: [...f.pass_fail_filter],
    rules: ruleFormFromRules(rules.length ? rules : DEFAULT_MONITOR_RULES),
    monitor_filter_md5: m.monitor_filter_md5 ?? null,
  };
}

/** The stored filter the form's values describe (part groups are not offered by the form). */
export function storedFilterOfForm(v: TMonitorFormValues, partGroups: string[] = []): TStoredMonitorFilter {
  return {
    signal_uuids: v.signal_uuids,
    signal_group_uuids: v.signal_group_uuids,
    part_attributes: v.part_attributes.map((a) => ({
      attribute_uuid: a.attributeUuid,
      selected_attribute_values: a.selectedAttributeValues,
    })),
    sample_size: v.query.start_records ?? QUERY_BOUNDS.defaultRecords,
    pass_fail_filter: v.pass_fail_filter,
    evaluation_ratio: round4(v.evaluation_ratio),
    part_numbers: v.part_numbers,
    part_groups: partGroups,
  };
}

/** md5 of a monitor's canonical filter (the server's duplicate key; the same function there). */
export const monitorFilterMd5 = (type: "mvd" | "svd" | "cap", filter: TStoredMonitorFilter) =>
  md5(canonicalMonitorFilterJson(type, filter));

/**
 * spec §4: a stored filter md5 that no longer matches the recomputed one is reset — monitor name,
 * uuid and md5 become empty (the values no longer describe the saved monitor).
 */
export function reconcileFilterMd5(v: TMonitorFormValues): TMonitorFormValues {
  if (!v.monitor_filter_md5) return v;
  const now = monitorFilterMd5(v.monitor_type, storedFilterOfForm(v));
  if (now === v.monitor_filter_md5) return v;
  return { ...v, monitor_name: "", monitor_uuid: null, monitor_filter_md5: null };
}

/** Form values → the task body the server takes (create without uuid, update with it). */
export function formToMonitor(
  v: TMonitorFormValues,
  ctx: { cust_uuid: string; plant_uuid: string },
): Omit<TMonitor, "monitor_uuid"> & { monitor_uuid?: string } {
  const f = storedFilterOfForm(v);
  return {
    ...(v.monitor_uuid ? { monitor_uuid: v.monitor_uuid } : {}),
    monitor_name: v.monitor_name,
    monitor_type: v.monitor_type,
    active: v.active,
    frequency: v.frequency,
    notes: v.notes,
    use_excluded_part_ids: false,
    use_excluded_model_numbers: false,
    monitor_filter: {
      cust_uuid: ctx.cust_uuid,
      plant_uuid: ctx.plant_uuid,
      line_uuid: v.line_uuid,
      signal_uuids: f.signal_uuids,
      signal_group_uuids: f.signal_group_uuids,
      part_groups: [],
      part_numbers: f.part_numbers,
      part_attributes: v.part_attributes,
      pass_fail_filter: f.pass_fail_filter,
      evaluation_ratio: f.evaluation_ratio,
      sample_size: f.sample_size,
      alert_threshold: v.alert_threshold,
    },
  };
}

// ── Validation (spec §5) ─────────────────────────────────────────────────────────────────────

export type TFormError = { path: string; tab: TFormTab | null; message: string };

/**
 * Every validation error of the form, with the tab it belongs to (the confirm dialog lists them
 * as the validation summary). `partAttributeIds` are the line's attributes, when loaded.
 */
export function monitorFormErrors(
  v: TMonitorFormValues,
  opts: QueryOptions & { partAttributeIds?: Set<string> },
): TFormError[] {
  const out: TFormError[] = [];
  const add = (path: string, tab: TFormTab | null, message: string) => out.push({ path, tab, message });
  const name = ZMonitorName.safeParse(v.monitor_name);
  if (!name.success)
    add("monitor_name", null, name.error.issues[0]?.message ?? MONITOR_MESSAGES.nameRequired);
  if (!Number.isInteger(v.frequency) || v.frequency < MONITOR_BOUNDS.minFrequency)
    add("frequency", null, MONITOR_MESSAGES.frequencyMin);
  else if (v.frequency > MONITOR_BOUNDS.maxFrequency) add("frequency", null, MONITOR_MESSAGES.frequencyMax);
  if (v.notes.length > MONITOR_BOUNDS.notesMaxLength) add("notes", null, MONITOR_MESSAGES.notesMax);
  if (!ZAlertThreshold.safeParse(v.alert_threshold).success)
    add("alert_threshold", null, "Alert threshold is required");

  const signals = signalSelectionError(v.monitor_type, v.signal_uuids.length, v.signal_group_uuids.length);
  if (signals) add("signal_uuids", "signals", signals);

  for (const [k, m] of Object.entries(monitorQueryErrors(v.query, opts))) add(`query.${k}`, "filters", m);
  if (!isMonitorCompatible(v.query)) add("query.start_mode", "filters", QUERY_MESSAGES.incompatibleSave);
  const b = trainingSplitBounds(recordCountOf(v.query));
  if (v.evaluation_ratio < b.min)
    add("evaluation_ratio", "filters", MONITOR_MESSAGES.evaluationRatioMin(b.min));
  else if (v.evaluation_ratio > b.max)
    add("evaluation_ratio", "filters", MONITOR_MESSAGES.evaluationRatioMax(b.max));
  v.part_attributes.forEach((a, i) => {
    if (a.attributeUuid === "" || a.selectedAttributeValues.length === 0)
      add(`part_attributes.${i}`, "filters", MONITOR_MESSAGES.partAttributeRequired);
  });
  if (
    opts.partAttributeIds &&
    v.part_attributes.some((a) => a.attributeUuid && !opts.partAttributeIds?.has(a.attributeUuid))
  )
    add("part_attributes", "filters", MONITOR_MESSAGES.partAttributesNotFound);
  for (const p of v.pass_fail_filter)
    if (!ZPassFail.safeParse(p).success) add("pass_fail_filter", "filters", "Invalid result");

  for (const [k, m] of Object.entries(ruleFormErrors(v.rules))) add(`rules.${k}`, "rules", m);
  return out;
}

/** The errors of one field path (first message), for helper texts. */
export const errorAt = (errors: TFormError[], path: string) => errors.find((e) => e.path === path)?.message;

// ── Calls the form makes beyond the monitors API ─────────────────────────────────────────────

/** GET /api/monitors/form-bounds: this installation's MVD_QUERY_MAX_RECORD_COUNT. */
export const ZMonitorFormBounds = z.object({ maxRecordCount: z.number().int().min(0) });
export type TMonitorFormBounds = z.infer<typeof ZMonitorFormBounds>;

/** The filter keys a preview reads (as stored in monitors.filter). */
export const ZPreviewFilter = z.object({
  signal_uuids: z.array(z.uuid()).max(1000),
  signal_group_uuids: z.array(z.uuid()).max(200).default([]),
  part_attributes: z
    .array(
      z.object({
        attribute_uuid: zString().max(100),
        selected_attribute_values: z.array(zString().max(500)).max(1000),
      }),
    )
    .max(200)
    .default([]),
  sample_size: z.number().int().min(1),
  pass_fail_filter: z.array(ZPassFail).max(2).default([]),
  evaluation_ratio: z.number().min(0).max(1),
  part_numbers: z.array(zString().max(200)).max(1000).default([]),
  part_groups: z.array(zString().max(200)).max(1000).default([]),
  op_count: z.enum(["ALL", "FIRST", "LAST"]).optional(),
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
    details: z.record(zString(), z.unknown()).nullable(),
  }),
});
export type TMonitorPreview = z.infer<typeof ZMonitorPreview>;
