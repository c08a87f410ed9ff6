import {
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  RESULT_VALUES,
  type TResultClassifications,
  type TResultClassificationsPatchBody,
  type TResultValue,
} from "@linewatch/contracts";

// The Edit Result Classifications panel's table as pure data (requirements.md settings §2.8, §3 "Result
// classification row", §4 "Result classification panel", §5 "Result classification"). Each
// signal's rows are the truth; Common Classifications are the rows every selected signal has
// alike, Unique Classifications the rest of each signal's.

export type TClassRow = {
  id: string;
  value: string;
  result: TResultValue;
  failureMode: string;
  isNew: boolean;
};
export type TClassState = { signalIds: string[]; rows: Record<string, TClassRow[]> };

/** Saved rows are keyed by value: the same value on two signals is the same row. */
const savedId = (value: string) => `saved:${value}`;

export function initClassState(
  signalIds: readonly string[],
  data: Readonly<Record<string, TResultClassifications | undefined>>,
): TClassState {
  const rows: TClassState["rows"] = {};
  for (const id of signalIds) {
    const c = data[id] ?? { pass: [], fail: [], other: [] };
    rows[id] = RESULT_VALUES.flatMap((result) =>
      c[result].map((r) => ({
        id: savedId(r.value),
        value: r.value,
        result,
        failureMode: r.failureMode ?? "",
        isNew: false,
      })),
    );
  }
  return { signalIds: [...signalIds], rows };
}

const same = (a: TClassRow, b: TClassRow) =>
  a.value === b.value && a.result === b.result && a.failureMode === b.failureMode;

/** Rows every selected signal has alike (only with two or more signals). */
export function commonRows(s: TClassState): TClassRow[] {
  if (s.signalIds.length < 2) return [];
  const [first, ...rest] = s.signalIds.map((id) => s.rows[id] ?? []);
  return (first ?? []).filter((row) =>
    rest.every((rows) => rows.some((r) => r.id === row.id && same(r, row))),
  );
}

export function uniqueRows(s: TClassState, signalId: string): TClassRow[] {
  const common = new Set(commonRows(s).map((r) => r.id));
  return (s.rows[signalId] ?? []).filter((r) => !common.has(r.id));
}

/** Signals left with no unique rows (listed under 'Without Unique Classifications'). */
export const signalsWithoutUnique = (s: TClassState) =>
  s.signalIds.filter((id) => uniqueRows(s, id).length === 0);

const mapRows = (
  s: TClassState,
  signalIds: readonly string[],
  f: (rows: TClassRow[]) => TClassRow[],
): TClassState => ({
  ...s,
  rows: Object.fromEntries(
    s.signalIds.map((id) => [id, signalIds.includes(id) ? f(s.rows[id] ?? []) : (s.rows[id] ?? [])]),
  ),
});

/** 'Add Classification': a new row, result other, value empty (to all signals, or to one). */
export const addRow = (s: TClassState, rowId: string, signalId?: string) =>
  mapRows(s, signalId ? [signalId] : s.signalIds, (rows) => [
    { id: rowId, value: "", result: "other", failureMode: "", isNew: true },
    ...rows,
  ]);

/** Edits a row: a common row on every signal, a unique one on its signal. Only new rows change value. */
export const updateRow = (
  s: TClassState,
  rowId: string,
  patch: Partial<Pick<TClassRow, "value" | "result" | "failureMode">>,
  signalId?: string,
) =>
  mapRows(s, signalId ? [signalId] : s.signalIds, (rows) =>
    rows.map((r) =>
      r.id === rowId
        ? { ...r, ...patch, value: r.isNew && patch.value !== undefined ? patch.value : r.value }
        : r,
    ),
  );

/** Only new rows can be deleted. */
export const deleteRow = (s: TClassState, rowId: string, signalId?: string) =>
  mapRows(s, signalId ? [signalId] : s.signalIds, (rows) => rows.filter((r) => r.id !== rowId || !r.isNew));

/** 'Make Common': every other signal gets the row as this signal has it. */
export function makeCommon(s: TClassState, rowId: string, signalId: string): TClassState {
  const row = (s.rows[signalId] ?? []).find((r) => r.id === rowId);
  if (!row) return s;
  return mapRows(s, s.signalIds, (rows) => {
    const at = rows.findIndex((r) => r.id === rowId || r.value === row.value);
    if (at < 0) return [{ ...row }, ...rows];
    const kept = rows[at] as TClassRow;
    // A saved row keeps its value and stays saved; it takes the result and failure mode.
    return rows.map((r, i) => (i === at ? { ...kept, result: row.result, failureMode: row.failureMode } : r));
  });
}

/** New rows first (newest on top), then by value. */
export const sortRows = (rows: readonly TClassRow[]) => [
  ...rows.filter((r) => r.isNew),
  ...rows.filter((r) => !r.isNew).sort((a, b) => a.value.localeCompare(b.value)),
];

/** Errors by `${signalId}|${rowId}`: empty value, or a value the signal already has. */
export function rowErrors(s: TClassState): Map<string, string> {
  const errors = new Map<string, string>();
  for (const id of s.signalIds) {
    const rows = s.rows[id] ?? [];
    for (const r of rows) {
      if (!r.isNew) continue;
      const v = r.value.trim();
      if (v === "") errors.set(`${id}|${r.id}`, MSG.classificationEmpty);
      else if (rows.some((o) => o !== r && o.value.trim() === v))
        errors.set(`${id}|${r.id}`, MSG.classificationExists);
    }
  }
  return errors;
}

/** The error of a row shown once for all signals (a common row): the first signal's that has one. */
export const errorOf = (
  errors: ReadonlyMap<string, string>,
  s: TClassState,
  rowId: string,
  signalId?: string,
) => {
  for (const id of signalId ? [signalId] : s.signalIds) {
    const e = errors.get(`${id}|${rowId}`);
    if (e) return e;
  }
  return undefined;
};

const canonical = (s: TClassState) =>
  JSON.stringify(
    s.signalIds.map((id) =>
      (s.rows[id] ?? [])
        .map((r) => [r.value.trim(), r.result, r.failureMode.trim()])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ),
  );
export const isDirty = (s: TClassState, initial: TClassState) => canonical(s) !== canonical(initial);

/** The PATCH body: each signal's three lists (an empty failure mode is none). */
export function toPatchBody(s: TClassState): TResultClassificationsPatchBody {
  const body: TResultClassificationsPatchBody = {};
  for (const id of s.signalIds) {
    const c: TResultClassifications = { pass: [], fail: [], other: [] };
    for (const r of s.rows[id] ?? [])
      c[r.result].push({ value: r.value.trim(), failureMode: r.failureMode.trim() || null });
    body[id] = { resultClassifications: c };
  }
  return body;
}
