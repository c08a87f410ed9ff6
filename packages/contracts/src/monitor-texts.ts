import type { TAlertThreshold, TServerAlertThreshold } from "./domain.js";

// A monitor's bounds and messages apart from monitors.ts and its schemas: the monitors' Settings
// sections and the save messages use them without loading zod (issue #17: wherever one export of a
// module is used, all of the module's schemas are built). monitors.ts exports them too.

export const MONITOR_BOUNDS = {
  minFrequency: 5,
  maxFrequency: 1440,
  notesMaxLength: 1000,
  nameMinLength: 3,
  nameMaxLength: 100,
  /** A new monitor starts at the minimum frequency (requirements.md monitor-forms §3 defaults). */
  defaultFrequency: 5,
  defaultCapFrequency: 15,
  defaultAlertThreshold: "medium" as TAlertThreshold,
} as const;

export const MONITOR_MESSAGES = {
  nameRequired: "Monitor name is required",
  nameMin: `Monitor name must be at least ${MONITOR_BOUNDS.nameMinLength} characters`,
  nameMax: `Monitor name must be at most ${MONITOR_BOUNDS.nameMaxLength} characters`,
  nameLeadingSpaces: "Monitor name cannot have leading spaces.",
  nameTaken: (name: string) => `A monitor named "${name}" already exists on this line`,
  frequencyWhole: "Frequency must be a whole number",
  frequencyMin: `Frequency must be at least ${MONITOR_BOUNDS.minFrequency}`,
  frequencyMax: `Frequency must be at most ${MONITOR_BOUNDS.maxFrequency}`,
  notesMax: `Notes must be at most ${MONITOR_BOUNDS.notesMaxLength} characters`,
  // requirements.md monitor-forms §5 "Signal selection"
  mvdSignals: "At least 2 items must be selected",
  mvdSignalsWizard: "Select at least 2 signals or 1 signal group.",
  svdSignalRequired: "Signal selection is required",
  svdSignalNone: "Please select at least 1 signal.",
  // requirements.md monitor-forms §5 "Part attributes"
  partAttributeRequired: "Selection is required",
  partAttributesNotFound: "Some part attributes were not found in collection",
  sampleSizeWhole: "Sample size must be a whole number",
  sampleSizeMin: (min: number) => `Sample size must be at least ${min}`,
  sampleSizeMax: (max: number) => `Sample size must be at most ${max}`,
  evaluationRatioMin: (min: number) => `Evaluation ratio must be at least ${min}`,
  evaluationRatioMax: (max: number) => `Evaluation ratio must be at most ${max}`,
  signalsNotOnLine: "Only active measurement signals of the line can be monitored",
  groupsNotOnLine: "Only signal groups of the line can be monitored",
  plantMismatch: "The line does not belong to the plant",
  typeChange: "The monitor type cannot be changed",
  mvdCreationDisabled: "MVD monitor creation is not enabled for this customer",
  notFound: "Monitor not found",
  // requirements.md monitor-forms §8
  duplicate: "Duplicate Monitor Found",
  duplicateQuestion: (name: string) => `You already have a monitor ${name} configured with these settings.`,
  saved: "Monitor saved",
  created: "Monitor created",
  errorCreating: "Error creating monitor",
  errorSaving: "Error saving monitor",
  rulesSaved: "Alert rules saved",
  errorSavingRules: "Error saving alert rules",
  errorLoading: "Error loading",
  errorSavingBoth: "Error saving monitor and alert rules",
  bothSaved: "Monitor and Alert rules saved",
  bothCreated: "Monitor and Alert rules created",
  missingContext: "createMonitor: Customer or Plant is undefined",
  errorLoadingForm: "Error loading form",
  // requirements.md settings §8 "Monitors"
  adminSaved: "Monitor was successfully saved",
  adminEmpty: (type: "svd" | "mvd") => `No ${type.toUpperCase()} monitors found`,
  adminDrawerTitle: (type: "svd" | "mvd") => `${type.toUpperCase()} Monitor Details`,
  deleteTitle: "Delete this monitor?",
  deleteText: "You are about to permanently delete the monitor :",
  deleteIrreversible: "This is irreversible.",
  errorDeleting: "Error deleting monitor",
} as const;

export const toServerAlertThreshold = (t: TAlertThreshold): TServerAlertThreshold =>
  t.toUpperCase() as TServerAlertThreshold;
export const fromServerAlertThreshold = (t: TServerAlertThreshold): TAlertThreshold =>
  t.toLowerCase() as TAlertThreshold;

export const OP_COUNTS = ["ALL", "FIRST", "LAST"] as const;
export type TOpCount = (typeof OP_COUNTS)[number];

/**
 * Challenge ranges of a cap monitor (requirements.md monitor-forms §2 "Cap monitors": "Challenge range modes:
 * time based, and part based when flagged (cap only)."): stretches of records the window leaves
 * out, e.g. a run of challenge parts. TIME: the records from `from` to `to`; PART (behind the
 * capChallengePartRange flag): the base station's records from the first record of part
 * `from_part_id` to the last record of part `to_part_id`.
 */
export const CHALLENGE_RANGE_MODES = ["TIME", "PART"] as const;
/** "None", "1 range", "3 ranges": a CAP monitor's challenge ranges. */
const rangeCount = (n: number) => (n === 0 ? "None" : n === 1 ? "1 range" : `${n} ranges`);

export const CHALLENGE_RANGE_TEXTS = {
  spec: "Challenge range modes: time based, and part based when flagged (cap only).",
  TIME: "Time based",
  PART: "Part based",
  capOnly: "Challenge ranges apply to cap monitors only",
  timeOrder: "A challenge range's start must be before its end",
  partFlagOff: "Part-based challenge ranges are not turned on for this customer",
  // Cap Alerts page: the ranges of a row's cap monitor
  column: "Challenge ranges",
  count: rangeCount,
  /** The row's button: its visible count first (what voice control hears), then what it does. */
  editLabel: (signal: string, n: number) => `${rangeCount(n)}, edit challenge ranges of ${signal}`,
  title: (signal: string) => `Challenge ranges of ${signal}`,
  none: "No challenge range: the monitor reads every record.",
  mode: "Mode",
  from: "From",
  to: "To",
  fromPart: "From part",
  toPart: "To part",
  partRequired: "Enter a part id",
  add: "Add range",
  remove: "Remove range",
  save: "Save",
  cancel: "Cancel",
  timeZone: (timeZone: string) => `Plant time (${timeZone})`,
} as const;
/**
 * Western Electric run rules a cap monitor may also breach on, besides rule 1 (a point outside
 * the control limits) and the Ppk target (issue #14): 2 = 2 of 3 beyond 2 σ, 3 = 4 of 5 beyond
 * 1 σ, 4 = 8 in a row on one side, each on the same side of the centre line.
 */
export const RUN_RULES = [2, 3, 4] as const;
export type TRunRule = (typeof RUN_RULES)[number];
export const RUN_RULE_TEXTS: Record<TRunRule, string> = {
  2: "Rule 2: 2 of 3 beyond 2 σ",
  3: "Rule 3: 4 of 5 beyond 1 σ",
  4: "Rule 4: 8 in a row on one side",
};

/**
 * ARL₀ of rule 1 with each set of run rules: the expected number of in-control points up to a
 * chance signal on a fresh chart (normal independent points, limits at their own ±3 σ; Champ &
 * Woodall 1987). Computed by packages/stats controlRulesArl (its Markov chain), which a test holds
 * this table to. Keyed by the run rules in order, "" for rule 1 alone.
 */
export const CONTROL_RULES_ARL0: Readonly<Record<string, number>> = {
  "": 370.4,
  "2": 225.44,
  "3": 166.05,
  "4": 152.73,
  "2,3": 132.89,
  "2,4": 122.05,
  "3,4": 105.78,
  "2,3,4": 91.75,
};

/** ARL₀ of rule 1 with these run rules (any order). */
export const controlRulesArl0 = (rules: readonly TRunRule[]): number =>
  CONTROL_RULES_ARL0[[...new Set(rules)].sort().join(",")] as number;

/**
 * What the Cap Alerts page says of the control rules a cap monitor turns on (issue 29): their
 * in-control false-alarm rate per point as ARL₀, and that the monitor holds its alert threshold
 * per evaluation whatever that rate is.
 */
export const CONTROL_RULES_ARL_TEXTS = {
  /** "In control, these rules signal about once in 92 points (ARL₀ 92)". */
  perPoint: (rules: readonly TRunRule[]) => {
    const arl = Math.round(controlRulesArl0(rules));
    return `In control, ${rules.length === 0 ? "rule 1 signals" : "these rules signal"} about once in ${arl} points (ARL₀ ${arl})`;
  },
  /** The cell's short form under the select: "ARL₀ 92". */
  short: (rules: readonly TRunRule[]) => `ARL₀ ${Math.round(controlRulesArl0(rules))}`,
  held: "Every signal is marked on the chart; the monitor breaches only when the signals among the points it judged are more than chance gives at its alert threshold, so its false-alarm rate per evaluation stays at that threshold.",
} as const;

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
