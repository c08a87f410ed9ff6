import { md5 } from "js-md5";
import { type TAlertThreshold, ZAlertThreshold } from "./domain.js";
import {
  defaultMonitorQuery,
  isMonitorCompatible,
  monitorQueryErrors,
  QUERY_MESSAGES,
  recordCountOf,
  type TMonitorQuery,
  type TMonitorQueryOptions,
  trainingSplitBounds,
} from "./monitor-query.js";
import { DEFAULT_MONITOR_RULES, type TMonitorRule } from "./monitor-rules.js";
import {
  DEFAULT_RULE_FORM,
  ruleFormErrors,
  ruleFormFromRules,
  type TRuleFormValues,
} from "./monitor-rules-form.js";
import {
  canonicalMonitorFilterJson,
  MONITOR_BOUNDS,
  MONITOR_MESSAGES,
  QUERY_BOUNDS,
  round4,
  signalSelectionError,
  type TMonitor,
  type TStoredMonitorFilter,
  type TTaskCreateBody,
  toServerAlertThreshold,
  ZMonitorName,
  ZPassFail,
} from "./monitors.js";

// The MVD and SVD monitor forms (requirements.md monitor-forms §2–§5, §8, §9): their values, the pure rules
// that validate them, and the mapping to the server's task. The period lives in
// monitor-query.ts, the alert rules editor's values in monitor-rules-form.ts. The web form and
// the server share these, so a form and the API can never disagree on a bound or a message.

/** Timings of the form (requirements.md monitor-forms §9 "Timing"); snackbars and drawers are in ui.ts. */
export const MONITOR_FORM_TIMINGS = {
  frequencyClampMs: 900,
  periodInputMs: 700,
  trainingSplitSliderMs: 400,
  trainingSplitInputMs: 900,
  nameDebounceMs: 500,
  /** The query preview asks again this long after the filters stop changing (not in the spec). */
  previewMs: 500,
} as const;

/**
 * The form's own wording beyond the spec's messages (those are MONITOR_MESSAGES): tabs, overlays
 * (requirements.md monitor-forms §2 "Overlays"), buttons (requirements.md monitor-forms §2 "Footer") and dialogs, so a test reads what the UI shows.
 */
/**
 * What each alert threshold level means (docs/monitoring.md "Sensitivity"): the share of
 * evaluations of a stable process that breach, a promise the calibrated methods keep on the data
 * lines produce (autocorrelated, skewed, heavy-tailed), not only on independent normal values.
 */
export const ALERT_THRESHOLD_HELP: Record<TAlertThreshold, string> = {
  low: "Alerts most easily: about 1 in 20 evaluations of a stable process breaches (α 0.05), allowing for this signal's autocorrelation and shape.",
  medium:
    "Balanced (default): about 1 in 100 evaluations of a stable process breaches (α 0.01), allowing for this signal's autocorrelation and shape.",
  high: "Alerts least easily: about 1 in 1,000 evaluations of a stable process breaches (α 0.001), allowing for this signal's autocorrelation and shape.",
};

/** Each level's α (docs/monitoring.md "Sensitivity"), as packages/stats keeps them. */
export const ALERT_THRESHOLD_ALPHA: Record<TAlertThreshold, number> = {
  low: 0.05,
  medium: 0.01,
  high: 0.001,
};

/** The alert threshold control's option labels (requirements.md monitor-forms §2: Low, Medium, High). */
export const ALERT_THRESHOLD_LABELS: Record<TAlertThreshold, string> = {
  low: "Low",
  medium: "Medium",
  high: "High",
};

export const MONITOR_FORM_TEXTS = {
  formLabel: (type: TFormMonitorType) => `${type.toUpperCase()} monitor form`,
  tabs: { signals: "Signals", filters: "Data Filters", rules: "Alert Rules" } as Record<TFormTab, string>,
  tabsLabel: "Monitor configuration",
  loading: "...loading",
  saving: "...saving",
  retry: "Retry",
  staleFilterNotice:
    "This monitor's stored settings no longer match its filter: saving creates a new monitor.",
  deployOnCreate: "Deploy on create",
  save: "Save",
  /** The SVD form's Save in CREATE (requirements.md monitor-forms §2 "Footer"). */
  create: "Create",
  cancel: "Cancel",
  /** The SVD form's Cancel in VIEW (requirements.md monitor-forms §2 "Footer"). */
  close: "Close",
  edit: "Edit",
  ok: "OK",
  validationTitle: "Please correct the following",
  validationSummary: "Validation summary",
  goToTab: (tab: string) => `Go to ${tab}`,
  editExisting: "Edit existing monitor",
  discardTitle: "Discard your changes?",
  discard: "Discard",
  keepEditing: "Keep editing",
  discardText: "The changes to this monitor have not been saved.",
  duplicateNotLoaded: (duplicate: string) =>
    `${duplicate}: the existing monitor and its alert rules could not be loaded.`,
  saveResults: "Save results",
  // The monitor page around the form.
  pageTitle: (type: TFormMonitorType) => `${type.toUpperCase()} Monitor`,
  newPageTitle: (type: TFormMonitorType) => `New ${type.toUpperCase()} Monitor`,
  pageFallbackTitle: "Monitor",
  lineOverview: "Line overview",
  pickLine: "Pick a line first.",
  backToLines: "Back to the lines",
  capabilityNotice: (name: string) =>
    `${name} is a capability monitor: it is configured in Settings, SPC Alert.`,

  // ── The header (requirements.md monitor-forms §2 "Name row", "Frequency input", Notes, alert threshold) ─────────────
  name: { label: "Monitor name", default: "Default" },
  frequency: {
    label: "Frequency",
    inputLabel: "Frequency (minutes)",
    unit: "min",
    range: (min: number, max: number) => `${min} to ${max} minutes`,
  },
  notes: {
    label: "Notes",
    /** requirements.md monitor-forms §2: in EDIT a counter reads 'Max length: N characters'. */
    maxLength: (n: number) => `Max length: ${n} characters`,
  },
  threshold: {
    label: "Alert threshold",
    levels: ALERT_THRESHOLD_LABELS,
    help: ALERT_THRESHOLD_HELP,
  },

  // ── The Data Filters tab (requirements.md monitor-forms §2 "Data Filters tab", §5 "Period", "Training split") ─────────
  period: {
    title: "Period",
    timeZone: (timeZone: string) => `Time zone: ${timeZone}`,
    side: { start: "Start", end: "End" },
    time: (side: string) => `${side} time`,
    duration: (side: string) => `${side} duration (minutes)`,
    records: (side: string) => `${side} records`,
    /** The time a Duration reaches back to (start) or forward to (end). */
    from: (time: string) => `From ${time}`,
    until: (time: string) => `Until ${time}`,
    /** The date-time picker's label while its text is not a date. */
    invalidDate: "Error",
  },
  trainingSplit: {
    title: "Training Split",
    sample: (percent: number) => `Sample ${percent}%`,
    evaluation: (percent: number) => `Evaluation ${percent}%`,
    sliderLabel: "Evaluation percentage",
    inputLabel: "Evaluation %",
    min: (percent: string) => `Min ${percent}`,
    max: (percent: string) => `Max ${percent}`,
    notANumber: "Enter the evaluation percentage as a number",
    default: "Default",
  },
  records: "Records",
  modelNumbers: {
    label: "Model Numbers",
    all: "All model numbers",
    none: "No model numbers",
    selectLine: "Select a line first",
    challenge: "Challenge",
    challengeValue: (value: string) => `${value} (challenge)`,
    loadError: "Model numbers could not be loaded",
  },
  result: {
    label: "Result",
    pass: "Pass",
    fail: "Fail",
    loading: "Loading…",
    all: "All results",
    loadError: "Result associations could not be loaded",
  },
  partAttributes: {
    title: "Part Attributes",
    loading: "Loading part attributes",
    loadingText: "Loading part attributes…",
    loadError: "Part attributes could not be loaded",
    add: "Add part attribute",
    attribute: (n: number) => `Attribute ${n}`,
    values: (n: number) => `Values of attribute ${n}`,
    remove: (n: number) => `Remove part attribute ${n}`,
    unknown: "Unknown attribute",
  },
  preview: {
    title: "Query preview",
    loading: "Loading preview",
    updating: "Updating preview",
    loadError: (message: string) => `Preview could not be loaded: ${message}`,
    blocked: { signals: "Select signals to preview", period: "Correct the period to preview" },
    trainingRecords: "Training records",
    trainingFrom: "Training from",
    evaluationRecords: "Evaluation records",
    evaluationFrom: "Evaluation from",
    window: "Window",
    noRecords: "No records",
    adjustmentsLabel: "Threshold adjustments",
    adjustmentsIntro: "The threshold allows for the training records",
    noTime: "–",
    wouldReport: "The monitor would report now",
    /** The preview's level-support section (issue 29). */
    levelSupportLabel: "Autocorrelation and window size",
    /**
     * "measured on 2,000 records: neighbouring parts are alike (VIF 5.7); the 40 training records
     * are worth about 7 independent ones"; with a cycle found and no other dependence, "no
     * autocorrelation found besides the cycle" (the cycle's own line follows).
     */
    levelSupportMeasured: (records: number, vif: number, m: number, effective: number, hasCycle = false) =>
      vif < 1.05
        ? `measured on ${records} records: no autocorrelation found${hasCycle ? " besides the cycle" : ""}`
        : `measured on ${records} records: neighbouring parts are alike (VIF ${Number(vif.toPrecision(3))}); the ${m} training records are worth about ${Number(effective.toPrecision(2))} independent ones`,
    states: { OK: "OK", BREACH: "Breach", NO_DATA: "No data", ERROR: "Error" },
  },

  // ── The Signals tab (requirements.md monitor-forms §2 "Signals tab"); the signal tree's own words are the web's ──────
  signalsTab: {
    lineLabel: "Line",
    selectLine: "Select a line to see its stations and signals",
    searchPlaceholder: "Search for stations, signals or part attributes",
    searchLabel: "Search signals",
    noResults: "No results found",
    loadError: "Error loading signals",
    selectedItems: "Selected Items",
    noneSelected: "Nothing selected yet",
    svdHint: "Select one signal.",
    remove: (name: string) => `Remove ${name}`,
  },
} as const;

/** Layout constants of the form (requirements.md monitor-forms §9 "Layout"); drawers and grid rows are in ui.ts. */
export const MONITOR_FORM_LAYOUT = {
  notesRows: 5,
  signalPickerMinHeight: 570,
  resultMenuMaxHeight: 177,
  resultMenuWidth: 250,
} as const;

// ── Frequency (requirements.md monitor-forms §4 "Frequency input") ────────────────────────────────────────────────────

/** Clamp typed minutes into the frequency bounds; an unreadable value becomes the minimum. */
export function clampFrequency(raw: string | number | null | undefined): number {
  const n = typeof raw === "number" ? raw : Number(String(raw ?? "").trim());
  if (raw === "" || raw == null || !Number.isFinite(n)) return MONITOR_BOUNDS.minFrequency;
  return Math.min(MONITOR_BOUNDS.maxFrequency, Math.max(MONITOR_BOUNDS.minFrequency, Math.round(n)));
}

// ── Form values ──────────────────────────────────────────────────────────────────────────────

export const FORM_MODES = ["CREATE", "EDIT", "VIEW"] as const;
export type TFormMode = (typeof FORM_MODES)[number];
export type TFormMonitorType = "mvd" | "svd";
export const FORM_TABS = ["signals", "filters", "rules"] as const;
export type TFormTab = (typeof FORM_TABS)[number];
/** Data Filters is the default tab (requirements.md monitor-forms §2). */
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
  opts: TMonitorQueryOptions & { name?: string },
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
export function monitorToForm(
  m: TMonitor,
  rules: TMonitorRule[],
  opts: TMonitorQueryOptions,
): TMonitorFormValues {
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
 * requirements.md monitor-forms §4: a stored filter md5 that no longer matches the recomputed one is reset — monitor name,
 * uuid and md5 become empty (the values no longer describe the saved monitor).
 */
export function reconcileFilterMd5(v: TMonitorFormValues): TMonitorFormValues {
  if (!v.monitor_filter_md5) return v;
  const now = monitorFilterMd5(v.monitor_type, storedFilterOfForm(v));
  if (now === v.monitor_filter_md5) return v;
  return { ...v, monitor_name: "", monitor_uuid: null, monitor_filter_md5: null };
}

/**
 * Form values → the task body POST /api/tasks takes (requirements.md monitor-forms §3 "Server task"); PUT /api/tasks takes
 * the same with `task_uuid`. The form goes to the task directly, not through the client view.
 */
export function formToTask(
  v: TMonitorFormValues,
  ctx: { cust_uuid: string; plant_uuid: string },
): TTaskCreateBody {
  const f = storedFilterOfForm(v);
  return {
    task_name: v.monitor_name,
    task_type: v.monitor_type,
    active: v.active,
    frequency: v.frequency,
    notes: v.notes,
    task_details: {
      cust_uuid: ctx.cust_uuid,
      plant_uuid: ctx.plant_uuid,
      line_uuid: v.line_uuid,
      use_excluded_part_ids: false,
      use_excluded_model_numbers: false,
      alert_threshold: toServerAlertThreshold(v.alert_threshold),
      part_attributes: f.part_attributes,
      part_groups: [],
      part_numbers: f.part_numbers,
      pass_fail_filter: f.pass_fail_filter,
      signal_group_uuids: f.signal_group_uuids,
      signal_uuids: f.signal_uuids,
      evaluation_ratio: f.evaluation_ratio,
      sample_size: f.sample_size,
    },
  };
}

// ── Validation (requirements.md monitor-forms §5) ─────────────────────────────────────────────────────────────────────

export type TFormError = { path: string; tab: TFormTab | null; message: string };

/**
 * Every validation error of the form, with the tab it belongs to (the confirm dialog lists them
 * as the validation summary). `partAttributeIds` are the line's attributes, when loaded.
 */
export function monitorFormErrors(
  v: TMonitorFormValues,
  opts: TMonitorQueryOptions & { partAttributeIds?: Set<string> },
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
