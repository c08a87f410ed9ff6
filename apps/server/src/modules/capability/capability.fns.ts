/**
 * The capability view of a signal (issue #14), pure: a period's window (evaluation/window.read.ts,
 * type cap: the signal, its limit formulas' references, the SPC limits per model number) → the
 * I-MR chart's points, the histogram and the capability table. Statistics always use every record
 * read; only the chart's points are decimated (decimate) past CAPABILITY_MAX_CHART_POINTS.
 */
import {
  CAPABILITY_ALL_MODELS,
  CAPABILITY_MAX_CHART_POINTS,
  CAPABILITY_MESSAGES as M,
  type TCapabilityModel,
  type TCapabilityPoint,
  type TCapabilityView,
} from "@linewatch/contracts";
import {
  capability,
  controlRuleHits,
  evaluateLimitFormula,
  type FormulaNode,
  histogram,
  minitabCapabilityIntervals,
  movingRangeChart,
  parseLimitFormula,
  StatsError,
} from "@linewatch/stats";
import type { Window } from "../evaluation/evaluate.js";

const LIMIT_KEYS = ["lsl", "lcl", "ucl", "usl"] as const;
type LimitKey = (typeof LIMIT_KEYS)[number];
export type RecordLimits = Record<LimitKey, Float64Array>;

/**
 * Each record's limits from its model number's formulas ('*' when its model has no row), NaN where
 * a limit is missing, does not parse or cannot be computed for the record. A single-sided signal
 * keeps only its side's limits (as the cap evaluation does).
 */
export function recordLimits(window: Window): RecordLimits {
  const parsed = new Map<string, Partial<Record<LimitKey, FormulaNode>>>();
  for (const [model, f] of Object.entries(window.limits ?? {})) {
    const row: Partial<Record<LimitKey, FormulaNode>> = {};
    for (const k of LIMIT_KEYS) {
      const src = f[k];
      if (src == null || src.trim() === "") continue;
      const p = parseLimitFormula(src);
      if (p.ok) row[k] = p.ast;
    }
    parsed.set(model, row);
  }
  const side = window.signals[0]?.singleSide ?? null;
  const isKept = (k: LimitKey) =>
    side === "LOWER" ? k === "lsl" || k === "lcl" : side === "UPPER" ? k === "ucl" || k === "usl" : true;
  const n = window.records.length;
  const out = Object.fromEntries(
    LIMIT_KEYS.map((k) => [k, new Float64Array(n).fill(Number.NaN)]),
  ) as RecordLimits;
  const columns = [...window.signals, ...window.references].map((s) => s.id.toLowerCase());
  // Constant formulas (plain numbers) need no values: evaluated once per model.
  const constant = new Map<FormulaNode, number>();
  for (let i = 0; i < n; i++) {
    const rec = window.records[i] as Window["records"][number];
    const formulas = parsed.get(rec.modelNumber ?? "*") ?? parsed.get("*");
    if (!formulas) continue;
    let values: Map<string, number> | null = null;
    for (const k of LIMIT_KEYS) {
      const ast = formulas[k];
      if (!ast || !isKept(k)) continue;
      let v = constant.get(ast);
      if (v === undefined) {
        if (ast.kind === "number") {
          v = ast.value;
          constant.set(ast, v);
        } else {
          if (!values) {
            values = new Map();
            for (let j = 0; j < columns.length; j++) {
              const x = rec.values[j];
              if (x != null && Number.isFinite(x)) values.set(columns[j] as string, x);
            }
          }
          const r = evaluateLimitFormula(ast, values);
          v = r.ok ? r.value : Number.NaN;
        }
      }
      out[k][i] = Number.isFinite(v) ? v : Number.NaN;
    }
  }
  return out;
}

/**
 * Indices of the points a chart draws: all of them up to `max`; past it, the lowest and highest
 * value of each of max/2 equal stretches (the shape an eye sees), plus every point in `keep` (the
 * rule breaks), in order.
 */
export function decimate(values: ArrayLike<number>, max: number, keep: ReadonlySet<number>): number[] {
  const n = values.length;
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = n / buckets;
  const picked = new Set<number>(keep);
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.min(n, Math.floor((b + 1) * size));
    let lo = start;
    let hi = start;
    for (let i = start + 1; i < end; i++) {
      if ((values[i] as number) < (values[lo] as number)) lo = i;
      if ((values[i] as number) > (values[hi] as number)) hi = i;
    }
    if (start < end) {
      picked.add(lo);
      picked.add(hi);
    }
  }
  return [...picked].sort((a, b) => a - b);
}

const finiteOrNull = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : null);

/** The one value a limit has over `rows`, null when none has it, "differ" when they disagree. */
function commonValue(limit: Float64Array, rows: readonly number[]): number | null | "differ" {
  let value: number | null = null;
  for (const r of rows) {
    const v = limit[r] as number;
    if (!Number.isFinite(v)) continue;
    if (value === null) value = v;
    else if (v !== value) return "differ";
  }
  return value;
}

/** Cp, Cpk, Pp, Ppk of some records (in time order) with Minitab's intervals, or why not. */
function modelRow(
  modelNumber: string | null,
  rows: readonly number[],
  values: Float64Array,
  limits: RecordLimits,
): TCapabilityModel {
  const xs = rows.map((r) => values[r] as number);
  const n = xs.length;
  const lsl = commonValue(limits.lsl, rows);
  const usl = commonValue(limits.usl, rows);
  const empty = {
    modelNumber,
    n,
    mean: n ? xs.reduce((s, x) => s + x, 0) / n : null,
    sigmaWithin: null,
    sigmaOverall: null,
    lsl: typeof lsl === "number" ? lsl : null,
    usl: typeof usl === "number" ? usl : null,
    cp: null,
    cpk: null,
    pp: null,
    ppk: null,
    intervals: null,
  };
  if (lsl === "differ" || usl === "differ") return { ...empty, note: M.specLimitsDiffer };
  if (lsl === null && usl === null) return { ...empty, note: M.noSpecLimits };
  if (n < 2) return { ...empty, note: M.tooFew };
  try {
    const cap = capability(xs, { lsl, usl });
    const i = minitabCapabilityIntervals(cap, n);
    const fin = (x: number | null) => (x !== null && Number.isFinite(x) ? x : null);
    const interval = (v: readonly [number, number] | null): [number, number] | null =>
      v && Number.isFinite(v[0]) && Number.isFinite(v[1]) ? [v[0], v[1]] : null;
    return {
      ...empty,
      mean: cap.mean,
      sigmaWithin: cap.sigmaWithin,
      sigmaOverall: cap.sigmaOverall,
      cp: fin(cap.cp),
      cpk: fin(cap.cpk),
      pp: fin(cap.pp),
      ppk: fin(cap.ppk),
      intervals: {
        cp: interval(i.cp),
        cpk: interval(i.cpk),
        pp: interval(i.pp),
        ppk: interval(i.ppk),
      },
      note: null,
    };
  } catch (err) {
    if (err instanceof StatsError && err.code === "INVALID_ARGUMENT") return { ...empty, note: M.constant };
    throw err;
  }
}

/** '*' first, then model numbers in order, records without one last. */
const byModel = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/**
 * The view of a period's window. Records without a finite value are left out of everything;
 * `isTruncated` says the window holds a sample of the period's records (capability.service.ts).
 */
export function capabilityView(
  window: Window,
  period: { from: Date; to: Date; isTruncated: boolean },
  maxPoints = CAPABILITY_MAX_CHART_POINTS,
): TCapabilityView {
  const signal = window.signals[0];
  const base = {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    isTruncated: period.isTruncated,
  };
  const limitsAll = recordLimits(window);
  // The records with a value, in time order.
  const rows: number[] = [];
  window.records.forEach((r, i) => {
    if (Number.isFinite(r.values[0])) rows.push(i);
  });
  const n = rows.length;
  const values = Float64Array.from(rows, (i) => window.records[i]?.values[0] as number);
  const limits = Object.fromEntries(
    LIMIT_KEYS.map((k) => [k, Float64Array.from(rows, (i) => limitsAll[k][i] as number)]),
  ) as RecordLimits;
  const noRules = { 1: 0, 2: 0, 3: 0, 4: 0 };
  if (n === 0 || !signal) {
    return {
      signal: { id: signal?.id ?? "", name: signal?.name ?? "" },
      ...base,
      recordCount: 0,
      isDecimated: false,
      points: [],
      mean: null,
      mrBar: null,
      mrUcl: null,
      histogram: null,
      ruleCounts: noRules,
      models: [],
    };
  }

  const rulesOf = new Map<number, (1 | 2 | 3 | 4)[]>();
  const ruleCounts = { ...noRules };
  for (const h of controlRuleHits(values, { lcl: limits.lcl, ucl: limits.ucl })) {
    const list = rulesOf.get(h.row);
    if (list) list.push(h.rule);
    else rulesOf.set(h.row, [h.rule]);
    ruleCounts[h.rule]++;
  }
  const mr = n >= 2 ? movingRangeChart(values) : null;
  const shown = decimate(values, maxPoints, new Set(rulesOf.keys()));
  const points: TCapabilityPoint[] = shown.map((k) => {
    const rec = window.records[rows[k] as number] as Window["records"][number];
    return {
      ts: rec.ts.toISOString(),
      partId: rec.partId,
      modelNumber: rec.modelNumber,
      value: values[k] as number,
      mr: finiteOrNull(mr?.movingRanges[k]),
      lsl: finiteOrNull(limits.lsl[k]),
      lcl: finiteOrNull(limits.lcl[k]),
      ucl: finiteOrNull(limits.ucl[k]),
      usl: finiteOrNull(limits.usl[k]),
      rules: rulesOf.get(k) ?? [],
    };
  });

  const all = Array.from({ length: n }, (_, k) => k);
  const byModelRows = new Map<string | null, number[]>();
  for (let k = 0; k < n; k++) {
    const m = window.records[rows[k] as number]?.modelNumber ?? null;
    const list = byModelRows.get(m);
    if (list) list.push(k);
    else byModelRows.set(m, [k]);
  }
  const models = [
    modelRow(CAPABILITY_ALL_MODELS, all, values, limits),
    ...[...byModelRows.keys()]
      .sort(byModel)
      .map((m) => modelRow(m, byModelRows.get(m) ?? [], values, limits)),
  ];
  const spec = (k: "lsl" | "usl") => {
    const v = commonValue(limits[k], all);
    return typeof v === "number" ? v : null;
  };
  const sum = values.reduce((s, x) => s + x, 0);
  return {
    signal: { id: signal.id, name: signal.name },
    ...base,
    recordCount: n,
    isDecimated: shown.length < n,
    points,
    mean: sum / n,
    mrBar: mr ? mr.mrBar : null,
    mrUcl: mr ? mr.ucl : null,
    histogram: histogram(values, [spec("lsl"), spec("usl")]),
    ruleCounts,
    models,
  };
}
