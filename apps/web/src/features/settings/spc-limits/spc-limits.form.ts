import {
  DEFAULT_MODEL,
  formulaOrNull,
  limitOrderErrors,
  lockedLimitKeys,
  plainNumber,
  SPC_FORMULA_FIELDS,
  SPC_LIMIT_KEYS,
  SPC_LIMIT_LABELS,
  SPC_LIMITS_MESSAGES,
  type TSpcLimitKey,
  type TSpcSignalLimits,
} from "@linewatch/contracts";
import { parseLimitFormula } from "@linewatch/stats/limitFormula";

/** A model row as the grid edits it: each cell's text, formulas with signal names. */
export type TModelRow = { model: string; isSaved: boolean } & Record<TSpcLimitKey, string>;
/** A signal row (a parent) of the Cap Limits grid. */
export type TSignalRow = {
  id: string;
  station: string;
  signal: string;
  singleSide: "LOWER" | "UPPER" | null;
  models: TModelRow[];
  hasLimits: boolean;
};
/** Numeric signals of the line a formula may name: id ↔ name. */
export type TSignalNames = { byId: Map<string, string>; byName: Map<string, string> };

export const signalNames = (signals: { id: string; name: string }[]): TSignalNames => ({
  byId: new Map(signals.map((s) => [s.id.toLowerCase(), s.name])),
  byName: new Map(signals.map((s) => [s.name, s.id.toLowerCase()])),
});

const REF = /\{([^{}]*)\}/g;

/** A stored formula as the user reads it: `{uuid}` → `{Signal name}` (requirements.md settings §3). */
export const formulaToText = (stored: string | null | undefined, names: TSignalNames) =>
  (stored ?? "").replace(REF, (all, id: string) => {
    const name = names.byId.get(id.toLowerCase());
    return name === undefined ? all : `{${name}}`;
  });

/**
 * The text of a cell as it is stored: `{Signal name}` → `{uuid}`. A name the line does not have
 * is an error naming it.
 */
export function textToFormula(
  text: string,
  names: TSignalNames,
): { formula: string | null } | { error: string } {
  let unknown: string | null = null;
  const formula = text.replace(REF, (all, name: string) => {
    const id = names.byName.get(name.trim());
    if (id !== undefined) return `{${id}}`;
    if (/^[0-9a-fA-F-]{36}$/.test(name.trim())) return all;
    unknown ??= name.trim();
    return all;
  });
  if (unknown !== null) return { error: SPC_LIMITS_MESSAGES.unknownName(unknown) };
  return { formula: formulaOrNull(formula) };
}

/** '*' first, then model numbers in order (requirements.md settings §9 default sort: station, signal, model). */
export const compareModels = (a: string, b: string) =>
  a === b
    ? 0
    : a === DEFAULT_MODEL
      ? -1
      : b === DEFAULT_MODEL
        ? 1
        : a.localeCompare(b, undefined, { numeric: true });

const emptyModel = (model: string): TModelRow => ({
  model,
  isSaved: false,
  lsl: "",
  lcl: "",
  ucl: "",
  usl: "",
});

/** The grid's rows from the server's answer: every signal has its '*' row, saved or not. */
export function signalRowsOf(list: TSpcSignalLimits[], names: TSignalNames): TSignalRow[] {
  return list.map((s) => {
    const models: TModelRow[] = s.limits.map((l) => ({
      model: l.model_number,
      isSaved: true,
      lsl: formulaToText(l.lslFormula, names),
      lcl: formulaToText(l.lclFormula, names),
      ucl: formulaToText(l.uclFormula, names),
      usl: formulaToText(l.uslFormula, names),
    }));
    if (!models.some((m) => m.model === DEFAULT_MODEL)) models.unshift(emptyModel(DEFAULT_MODEL));
    models.sort((a, b) => compareModels(a.model, b.model));
    return {
      id: s.signalUUID,
      station: s.stationName,
      signal: s.signalName,
      singleSide: s.singleSide,
      models,
      hasLimits: s.limits.length > 0,
    };
  });
}

export const addModel = (row: TSignalRow, model: string): TSignalRow =>
  row.models.some((m) => m.model === model)
    ? row
    : { ...row, models: [...row.models, emptyModel(model)].sort((a, b) => compareModels(a.model, b.model)) };

export const removeModel = (row: TSignalRow, model: string): TSignalRow => ({
  ...row,
  models: row.models.filter((m) => m.model !== model),
});

export const setCell = (row: TSignalRow, model: string, key: TSpcLimitKey, text: string): TSignalRow => ({
  ...row,
  models: row.models.map((m) => (m.model === model ? { ...m, [key]: text } : m)),
});

/** The cells a signal cannot have under the single-sided flag (requirements.md settings §5: 'Single Sided'). */
export const lockedKeys = (row: Pick<TSignalRow, "singleSide">, isSingleSidedOn: boolean) =>
  isSingleSidedOn ? lockedLimitKeys(row.singleSide) : [];

/**
 * A model row's errors under the cells (requirements.md settings §5 "Limits cell"): empty is allowed; a cell
 * takes a number or a formula, and anything else is '{LSL|LCL|UCL|USL} must be a number'; plain
 * numbers must be in order.
 */
export function modelRowErrors(m: TModelRow, names: TSignalNames): Partial<Record<TSpcLimitKey, string>> {
  const errors: Partial<Record<TSpcLimitKey, string>> = {};
  for (const key of SPC_LIMIT_KEYS) {
    const text = m[key].trim();
    if (text === "" || plainNumber(text) !== null) continue;
    const stored = textToFormula(text, names);
    if ("error" in stored) errors[key] = stored.error;
    else if (stored.formula && !parseLimitFormula(stored.formula).ok)
      errors[key] = SPC_LIMITS_MESSAGES.mustBeNumber(SPC_LIMIT_LABELS[key]);
  }
  const order = limitOrderErrors(Object.fromEntries(SPC_LIMIT_KEYS.map((k) => [k, plainNumber(m[k])])));
  return { ...order, ...errors };
}

export const hasErrors = (rows: TSignalRow[], names: TSignalNames) =>
  rows.some((r) => r.models.some((m) => Object.keys(modelRowErrors(m, names)).length > 0));

/**
 * The PUT body for the changed signals (requirements.md settings §7): each with all its model rows; with the
 * cap-limits flag on only rows with at least one limit (requirements.md settings §5).
 */
export function saveBody(
  rows: TSignalRow[],
  lineId: string,
  names: TSignalNames,
  isCapLimitsOn: boolean,
): TSpcSignalLimits[] {
  return rows.map((r) => ({
    lineUUID: lineId,
    stationName: r.station,
    signalUUID: r.id,
    signalName: r.signal,
    singleSide: r.singleSide,
    limits: r.models
      .map((m) => {
        const cell = (k: TSpcLimitKey) => {
          const s = textToFormula(m[k], names);
          return "formula" in s ? s.formula : formulaOrNull(m[k]);
        };
        return {
          model_number: m.model,
          [SPC_FORMULA_FIELDS.lsl]: cell("lsl"),
          [SPC_FORMULA_FIELDS.lcl]: cell("lcl"),
          [SPC_FORMULA_FIELDS.ucl]: cell("ucl"),
          [SPC_FORMULA_FIELDS.usl]: cell("usl"),
        } as TSpcSignalLimits["limits"][number];
      })
      .filter(
        (l) =>
          !isCapLimitsOn || [l.lslFormula, l.lclFormula, l.uclFormula, l.uslFormula].some((v) => v !== null),
      ),
  }));
}

/**
 * Signal names completing what is typed after an open '{' before the caret (issue #14: "signal
 * names completed as they are typed"): the partial name and the matches, at most 8.
 */
export function signalCompletions(
  text: string,
  caret: number,
  names: string[],
): { start: number; matches: string[] } | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf("{");
  if (open < 0 || before.indexOf("}", open) >= 0) return null;
  const partial = before.slice(open + 1).toLowerCase();
  const matches = names.filter((n) => n.toLowerCase().includes(partial)).slice(0, 8);
  return { start: open, matches };
}

/** The text with the name chosen for the '{' at `start` completed to `{name}`. */
export function applyCompletion(text: string, caret: number, start: number, name: string) {
  const close = text.indexOf("}", caret);
  const rest =
    close >= 0 && !text.slice(caret, close).includes("{") ? text.slice(close + 1) : text.slice(caret);
  const next = `${text.slice(0, start)}{${name}}`;
  return { text: next + rest, caret: next.length };
}

/**
 * Suggested control limits placed into a signal's model rows (issue #14): each model's LCL and
 * UCL become the suggestion, rows are added for models the signal has no row for; the rest of
 * each row stays as it is.
 */
export function applySuggestions(
  row: TSignalRow,
  suggestions: { model_number: string; lcl: number; ucl: number }[],
): TSignalRow {
  let next = row;
  for (const s of suggestions) {
    next = addModel(next, s.model_number);
    next = setCell(next, s.model_number, "lcl", String(s.lcl));
    next = setCell(next, s.model_number, "ucl", String(s.ucl));
  }
  return next;
}
