// The values an evaluation judged, read again from its window (the alert drawer's SVD and CAP
// charts). Pure: the service loads the window; these split and shape it as the worker did
// (modules/evaluation/evaluate.ts, docs/monitoring.md "The window", "SVD", "CAP").
import type {
  TCapEvaluationRecord,
  TCapEvaluationValues,
  TEvaluationState,
  TSvdEvaluationValues,
} from "@linewatch/contracts";
import { evaluateLimitFormula, type FormulaNode, parseLimitFormula } from "@linewatch/stats";
import { splitWindow, type Window, type WindowRecord } from "../evaluation/evaluate.js";

/** The stored evaluation the values are read for. */
export type EvaluationRow = {
  id: string;
  state: TEvaluationState;
  evaluatedAt: Date;
  trainingSize: number | null;
  evaluationSize: number | null;
  lastRecordTs: Date | null;
  details: unknown;
};

/** How the window was read: the monitor's sizes, whether it changed since, the signal's unit. */
export type ValuesSettings = {
  /** Records in the window: sample_size, at most MVD_QUERY_MAX_RECORD_COUNT. */
  limit: number;
  sampleSize: number;
  ratio: number;
  isMonitorChanged: boolean;
  unit: string | null;
};

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x != null && !Array.isArray(x);
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);
const nums = (x: unknown): number[] =>
  Array.isArray(x) ? x.map(num).filter((v): v is number => v != null) : [];
const finite = (v: number | undefined): number | null => (v != null && Number.isFinite(v) ? v : null);
const iso = (r: WindowRecord | undefined) => r?.ts.toISOString() ?? null;

/**
 * The window as the worker split it: its newest `limit` records up to the evaluation's newest one.
 * The query's time bound is 1 ms wider (record times are read to the millisecond) and it reads
 * one record more, so a record just past the bound that it dropped leaves the window whole.
 */
export function splitEvaluationWindow(window: Window, ev: EvaluationRow, settings: ValuesSettings) {
  const last = ev.lastRecordTs?.getTime() ?? Number.NEGATIVE_INFINITY;
  const upToLast = window.records.filter((r) => r.ts.getTime() <= last);
  const records = upToLast.slice(Math.max(0, upToLast.length - settings.limit));
  const { training, evaluation } = splitWindow(records, settings.sampleSize, settings.ratio);
  const signal = window.signals[0];
  return {
    training,
    evaluation,
    head: {
      evaluationId: ev.id,
      signal: signal ? { id: signal.id, name: signal.name, unit: settings.unit } : null,
      lastRecordTs: ev.lastRecordTs?.toISOString() ?? null,
      windowSize: records.length,
      trainingFrom: iso(training[0]),
      evaluationFrom: iso(evaluation[0]),
      isMonitorChanged: settings.isMonitorChanged,
    },
  };
}

/**
 * Whether the sizes read again are the stored ones: a scored evaluation stores the values used
 * (missing ones left out), a NO_DATA one the records of each set.
 */
function isSame(ev: EvaluationRow, training: number, evaluation: number, isMonitorChanged: boolean) {
  return !isMonitorChanged && ev.trainingSize === training && ev.evaluationSize === evaluation;
}
const scored = (ev: EvaluationRow) => ev.state === "OK" || ev.state === "BREACH";

export function svdValues(window: Window, ev: EvaluationRow, settings: ValuesSettings): TSvdEvaluationValues {
  const { training, evaluation, head } = splitEvaluationWindow(window, ev, settings);
  const valuesOf = (rows: WindowRecord[]) =>
    rows.map((r) => r.values[0]).filter((v): v is number => v != null && Number.isFinite(v));
  const t = valuesOf(training);
  const e = valuesOf(evaluation);
  const same = scored(ev)
    ? isSame(ev, t.length, e.length, settings.isMonitorChanged)
    : isSame(ev, training.length, evaluation.length, settings.isMonitorChanged);
  return { type: "svd", ...head, isSameAsEvaluated: same, training: t, evaluation: e };
}

const LIMIT_KEYS = ["lsl", "lcl", "ucl", "usl"] as const;
type LimitKey = (typeof LIMIT_KEYS)[number];

/** Parsed limit formulas per model number; a formula that does not parse gives no limit. */
function parsedLimits(window: Window) {
  const out = new Map<string, Record<LimitKey, FormulaNode | null>>();
  for (const [model, f] of Object.entries(window.limits ?? {})) {
    const row = { lsl: null, lcl: null, ucl: null, usl: null } as Record<LimitKey, FormulaNode | null>;
    for (const k of LIMIT_KEYS) {
      const src = f[k];
      if (src == null || src.trim() === "") continue;
      const p = parseLimitFormula(src);
      if (p.ok) row[k] = p.ast;
    }
    out.set(model, row);
  }
  return out;
}

export function capValues(window: Window, ev: EvaluationRow, settings: ValuesSettings): TCapEvaluationValues {
  const { training, evaluation, head } = splitEvaluationWindow(window, ev, settings);
  const parsed = parsedLimits(window);
  const columns = [...window.signals, ...window.references];
  // A single-sided signal keeps only its side's limits (as evaluateCapCalibrated does).
  const side = window.signals[0]?.singleSide ?? null;
  const kept = (k: LimitKey) =>
    side === "LOWER" ? k === "lsl" || k === "lcl" : side === "UPPER" ? k === "ucl" || k === "usl" : true;
  const records: TCapEvaluationRecord[] = evaluation.map((rec) => {
    const formulas = parsed.get(rec.modelNumber ?? "*") ?? parsed.get("*");
    const values = new Map<string, number>();
    columns.forEach((s, i) => {
      const v = rec.values[i];
      if (v != null && Number.isFinite(v)) values.set(s.id.toLowerCase(), v);
    });
    const limit = (k: LimitKey) => {
      const ast = formulas?.[k];
      if (!ast || !kept(k)) return null;
      const r = evaluateLimitFormula(ast, values);
      return r.ok && Number.isFinite(r.value) ? r.value : null;
    };
    return {
      ts: rec.ts.toISOString(),
      partId: rec.partId,
      modelNumber: rec.modelNumber,
      value: finite(rec.values[0]),
      lsl: limit("lsl"),
      lcl: limit("lcl"),
      ucl: limit("ucl"),
      usl: limit("usl"),
    };
  });
  const d = isObj(ev.details) ? ev.details : {};
  const limits = isObj(d.limits) ? d.limits : {};
  const used = records.filter((r) => r.value != null).length;
  const same = scored(ev)
    ? isSame(ev, training.length, used, settings.isMonitorChanged)
    : isSame(ev, training.length, evaluation.length, settings.isMonitorChanged);
  return {
    type: "cap",
    ...head,
    isSameAsEvaluated: same,
    records,
    limits: { lsl: num(limits.lsl), usl: num(limits.usl), lcl: nums(limits.lcl), ucl: nums(limits.ucl) },
    indices: {
      cp: num(d.cp),
      cpk: num(d.cpk),
      pp: num(d.pp),
      ppk: num(d.ppk),
      cpkTarget: num(d.cpkTarget),
    },
  };
}
