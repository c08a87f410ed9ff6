import { z } from "zod";
import { ZId, zString } from "./common.js";
import { ZSignalLimitSide } from "./domain.js";

/**
 * SPC signal limits (requirements.md settings §3 "SPC signal limits", §5 "Limits cell", §7): per signal and
 * model number ('*' = the default row), four limits, each a number or a formula that may
 * reference signals of the same line by id (`{uuid}`, packages/stats limitFormula).
 */

export const SPC_LIMIT_KEYS = ["lsl", "lcl", "ucl", "usl"] as const;
export type TSpcLimitKey = (typeof SPC_LIMIT_KEYS)[number];
/** The cell a key stands for, as the grid's column titles spell it. */
export const SPC_LIMIT_LABELS: Record<TSpcLimitKey, "LSL" | "LCL" | "UCL" | "USL"> = {
  lsl: "LSL",
  lcl: "LCL",
  ucl: "UCL",
  usl: "USL",
};
/** The server form's field of each key. */
export const SPC_FORMULA_FIELDS = {
  lsl: "lslFormula",
  lcl: "lclFormula",
  ucl: "uclFormula",
  usl: "uslFormula",
} as const satisfies Record<TSpcLimitKey, string>;

/** The default row's model number (requirements.md settings §3). */
export const DEFAULT_MODEL = "*";
/** Longest formula a cell takes (packages/stats MAX_FORMULA_LENGTH). */
export const SPC_FORMULA_MAX_LENGTH = 1000;

export const SPC_LIMITS_MESSAGES = {
  /** Not in the spec: the '*' model's limit shown on its signal's row. */
  defaultModelLimit: "The limit of every model without its own row ('*'); edit it under 'See models'",
  // requirements.md settings §5 "Limits cell"
  mustBeNumber: (label: string) => `${label} must be a number`,
  lslBelowUsl: "LSL must be < USL",
  lclBelowUcl: "LCL must be < UCL",
  uclAboveLcl: "UCL must be > LCL",
  uslAboveLsl: "USL must be > LSL",
  singleSided: "Single Sided",
  // requirements.md settings §8 "Capability"
  saved: "Successfully saved limits",
  // requirements.md settings §2.5
  title: "Cap Limits",
  lineLabel: "Line",
  noLines: "No lines exist for this plant.",
  showOnlyWithLimits: "Show only signals with limits",
  discard: "Discard Changes",
  saveChanges: "Save Changes",
  empty: "No signals found",
  emptyFiltered: "No signals with limits found",
  addModel: "Add model",
  removeModel: "Remove model",
  addModelTitle: "Add a model row",
  modelNumber: "Model number",
  add: "Add",
  cancel: "Cancel",
  /** The 400 answer for a formula that does not parse or references another line's signal. */
  cellError: (label: string, signal: string, model: string, detail: string) =>
    `${label} of ${signal}, model ${model}: ${detail}`,
  notOnLine: (id: string, position: number) =>
    `signal ${id} is not a signal of this line (at position ${position})`,
  signalNotOnLine: (name: string) => `${name} is not a measurement signal of this line`,
  duplicateModel: (signal: string, model: string) => `${signal} has model ${model} twice`,
  unknownName: (name: string) => `No signal named ${name} on this line`,
  // "Suggest control limits" (issue #14, beyond the spec)
  suggest: "Suggest control limits",
  suggestTitle: (signal: string) => `Suggest control limits for ${signal}`,
  suggestText:
    "Pick a period the process was stable in: LCL and UCL become mean ± 3 σ within (moving range / 1.128) of each model number's records, as unsaved changes to review.",
  suggestSignal: "Signal",
  suggestFrom: "From",
  suggestTo: "To",
  suggestTimeZone: (timeZone: string) => `Plant time (${timeZone})`,
  suggestApply: "Suggest",
  suggestNone: "No records of this signal in the period",
  suggestOrder: "From must be before To",
  // Issue 29: the suggestion measures the period's autocorrelation first.
  suggestAutocorrelationNote:
    "Where neighbouring parts are alike (autocorrelation), the moving range understates σ: the limits then come from the overall σ instead, and the suggestion says so. Each suggestion comes with the share of in-control points expected beyond it.",
  suggestResults: "Suggested limits",
  suggestUse: "Use these limits",
  suggestBack: "Back",
  suggestModel: (model: string, n: number) =>
    `${model === "*" ? "Every model (*)" : `Model ${model}`}: ${n} records`,
  suggestLimits: (lcl: number, ucl: number) => `LCL ${lcl}, UCL ${ucl}`,
  /** "neighbouring parts are alike (lag-1 autocorrelation 0.7): limits from the moving range would flag 11 % of points; suggested from the overall σ instead". */
  suggestAutocorrelated: (phi: number, movingRangeRate: number) =>
    `Neighbouring parts are alike (lag-1 autocorrelation ${roundTo(phi, 2)}): limits from the moving range would flag ${percentText(movingRangeRate)} of points; suggested from the overall σ instead`,
  suggestIndependent: (phi: number) =>
    `Lag-1 autocorrelation ${roundTo(phi, 2)}: neighbouring parts are not alike enough to matter; suggested from the moving range`,
  /** "Expected false alarms: about 0.30 % of in-control points (one in 330)". */
  suggestRate: (rate: number) =>
    `Expected false alarms: about ${percentText(rate)} of in-control points (one in ${Math.round(1 / rate)})`,
} as const;

const roundTo = (x: number, digits: number) => Number(x.toFixed(digits)).toString();

/** A rate as people read it: "11 %", "3.5 %", "0.27 %". */
export const percentText = (rate: number) => {
  const pct = rate * 100;
  return `${pct >= 9.5 ? Math.round(pct) : pct >= 0.95 ? roundTo(pct, 1) : roundTo(pct, 2)} %`;
};

const zFormula = zString().trim().max(SPC_FORMULA_MAX_LENGTH).nullable();

/** One model row in the server form (requirements.md settings §3). */
export const ZSpcLimitRow = z.object({
  uuid: ZId.nullable().optional(),
  model_number: zString().trim().min(1).max(100),
  lslFormula: zFormula,
  lclFormula: zFormula,
  uclFormula: zFormula,
  uslFormula: zFormula,
});
export type TSpcLimitRow = z.infer<typeof ZSpcLimitRow>;

/** One signal with its model rows (GET answer item and PUT body item, requirements.md settings §7). */
export const ZSpcSignalLimits = z.object({
  lineUUID: ZId,
  stationName: zString().max(200),
  signalUUID: ZId,
  signalName: zString().max(200),
  singleSide: ZSignalLimitSide.nullable(),
  limits: z.array(ZSpcLimitRow).max(1000),
});
export type TSpcSignalLimits = z.infer<typeof ZSpcSignalLimits>;
export const ZSpcSignalLimitsList = z.array(ZSpcSignalLimits).max(20_000);

export const ZSpcLimitsQuery = z.strictObject({ "line-id": ZId });

/** A formula cell's text: empty → null. */
export const formulaOrNull = (s: string | null | undefined) => {
  const t = (s ?? "").trim();
  return t === "" ? null : t;
};

/** A cell's number when the formula is a plain number (finite), else null. */
export function plainNumber(s: string | null | undefined): number | null {
  const t = (s ?? "").trim();
  if (t === "" || !/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** True when a row has at least one limit (requirements.md settings §5: with the cap-limits flag only those are saved). */
export const hasAnyLimit = (
  r: Pick<TSpcLimitRow, "lslFormula" | "lclFormula" | "uclFormula" | "uslFormula">,
) => SPC_LIMIT_KEYS.some((k) => formulaOrNull(r[SPC_FORMULA_FIELDS[k]]) !== null);

/**
 * The order rules of a row whose limits are plain numbers (requirements.md settings §5): each message under
 * the cell it belongs to. Formulas are judged per record at evaluation time, not here.
 */
export function limitOrderErrors(
  values: Partial<Record<TSpcLimitKey, number | null>>,
): Partial<Record<TSpcLimitKey, string>> {
  const errors: Partial<Record<TSpcLimitKey, string>> = {};
  const { lsl, lcl, ucl, usl } = values;
  if (lsl != null && usl != null && !(lsl < usl)) {
    errors.lsl = SPC_LIMITS_MESSAGES.lslBelowUsl;
    errors.usl = SPC_LIMITS_MESSAGES.uslAboveLsl;
  }
  if (lcl != null && ucl != null && !(lcl < ucl)) {
    errors.lcl = SPC_LIMITS_MESSAGES.lclBelowUcl;
    errors.ucl = SPC_LIMITS_MESSAGES.uclAboveLcl;
  }
  return errors;
}

/** The cells a single-sided signal does not have (requirements.md settings §5): LOWER → USL, UCL; UPPER → LSL, LCL. */
export function lockedLimitKeys(side: "LOWER" | "UPPER" | null | undefined): TSpcLimitKey[] {
  if (side === "LOWER") return ["ucl", "usl"];
  if (side === "UPPER") return ["lsl", "lcl"];
  return [];
}

/** POST /api/line-config/spc-signal-limits/suggest?line-id=: a stable period of one signal. */
export const ZSpcSuggestBody = z.strictObject({
  signalUUID: ZId,
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
});
export type TSpcSuggestBody = z.infer<typeof ZSpcSuggestBody>;
/** Control limits and the share of in-control points expected beyond them (per point). */
export const ZSpcLimitPair = z.object({
  lcl: z.number(),
  ucl: z.number(),
  expectedFalseAlarmRate: z.number(),
});
export type TSpcLimitPair = z.infer<typeof ZSpcLimitPair>;

/**
 * Per model number ('*' = every record of the period): the suggested control limits. Issue 29:
 * the period's lag-1 autocorrelation decides where σ comes from (packages/stats
 * suggestControlLimits): the moving range, or the overall σ when neighbouring parts are alike
 * enough that limits from the moving range would flag at least twice the nominal 0.27 %.
 */
export const ZSpcSuggestion = z.object({
  model_number: zString(),
  n: z.number().int(),
  lcl: z.number(),
  ucl: z.number(),
  basis: z.enum(["moving_range", "overall"]),
  /** Expected per-point false-alarm rate of lcl/ucl. */
  expectedFalseAlarmRate: z.number(),
  lag1Autocorrelation: z.number(),
  /** Overall σ / moving-range σ (1 for independent values); null when the moving range is 0. */
  sigmaRatio: z.number().nullable(),
  isAutocorrelated: z.boolean(),
  movingRange: ZSpcLimitPair,
  overall: ZSpcLimitPair,
});
export type TSpcSuggestion = z.infer<typeof ZSpcSuggestion>;
export const ZSpcSuggestionList = z.array(ZSpcSuggestion);
