import { evaluationChartSeries, type TAlertEvaluation } from "@linewatch/contracts";

/**
 * Typed reads of an evaluation's `details` (jsonb written by the worker, apps/server/src/worker/evaluate/evaluate.ts).
 * Each reader answers null when the details are not of that type (e.g. NO_DATA details carry only a code).
 */

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x != null && !Array.isArray(x);
const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);
const str = (x: unknown): string | null => (typeof x === "string" ? x : null);
const nums = (x: unknown): number[] =>
  Array.isArray(x) ? x.map(num).filter((v): v is number => v != null) : [];

export type TSvdDetails = {
  signalName: string | null;
  trainingMean: number;
  trainingSd: number;
  evaluationMean: number;
  evaluationSd: number;
  m: number | null;
  n: number | null;
  w1: number | null;
};

export function svdDetails(d: unknown): TSvdDetails | null {
  if (!isObj(d)) return null;
  const trainingMean = num(d.trainingMean);
  const trainingSd = num(d.trainingSd);
  const evaluationMean = num(d.evaluationMean);
  const evaluationSd = num(d.evaluationSd);
  if (trainingMean == null || trainingSd == null || evaluationMean == null || evaluationSd == null)
    return null;
  return {
    signalName: isObj(d.signal) ? str(d.signal.name) : null,
    trainingMean,
    trainingSd,
    evaluationMean,
    evaluationSd,
    m: num(d.m),
    n: num(d.n),
    w1: num(d.w1),
  };
}

export type TMvdWorstRow = {
  partId: string | null;
  ts: string | null;
  t2: number | null;
  topSignals: { id: string | null; name: string | null; contribution: number }[];
};
export type TMvdDetails = {
  ucl: number;
  p: number;
  pValue: number | null;
  alpha: number | null;
  exceedances: number | null;
  n: number | null;
  worstRows: TMvdWorstRow[];
};

export function mvdDetails(d: unknown): TMvdDetails | null {
  if (!isObj(d)) return null;
  const ucl = num(d.ucl);
  const p = num(d.p);
  if (ucl == null || p == null || p <= 0) return null;
  const worstRows = (Array.isArray(d.worstRows) ? d.worstRows : []).filter(isObj).map((w) => ({
    partId: str(w.partId),
    ts: str(w.ts),
    t2: num(w.t2),
    topSignals: (Array.isArray(w.topSignals) ? w.topSignals : []).filter(isObj).flatMap((t) => {
      const contribution = num(t.contribution);
      return contribution == null ? [] : [{ id: str(t.id), name: str(t.name), contribution }];
    }),
  }));
  return {
    ucl,
    p,
    pValue: num(d.p_value),
    alpha: num(d.alpha),
    exceedances: num(d.k),
    n: num(d.n),
    worstRows,
  };
}

export type TCapDetails = {
  signalName: string | null;
  n: number | null;
  cp: number | null;
  cpk: number | null;
  pp: number | null;
  ppk: number | null;
  cpkTarget: number | null;
  violations: number;
  lsl: number | null;
  usl: number | null;
  lcl: number[];
  ucl: number[];
};

export function capDetails(d: unknown): TCapDetails | null {
  if (!isObj(d) || !isObj(d.limits) || !("ppk" in d)) return null;
  return {
    signalName: isObj(d.signal) ? str(d.signal.name) : null,
    n: num(d.n),
    cp: num(d.cp),
    cpk: num(d.cpk),
    pp: num(d.pp),
    ppk: num(d.ppk),
    cpkTarget: num(d.cpkTarget),
    violations: num(d.violations) ?? 0,
    lsl: num(d.limits.lsl),
    usl: num(d.limits.usl),
    lcl: nums(d.limits.lcl),
    ucl: nums(d.limits.ucl),
  };
}

export type TMonitorType = "svd" | "mvd" | "cap";

/** The newest evaluation whose details are of the monitor's type (evaluations oldest first). */
export function latestWithDetails(type: string, evaluations: readonly TAlertEvaluation[]) {
  const read = type === "svd" ? svdDetails : type === "mvd" ? mvdDetails : type === "cap" ? capDetails : null;
  if (!read) return null;
  for (let i = evaluations.length - 1; i >= 0; i--) {
    const e = evaluations[i] as TAlertEvaluation;
    const details = read(e.details);
    if (details) return { evaluation: e, details };
  }
  return null;
}

/**
 * The evaluation an alert's page details (evaluations oldest first, up to the alert's resolution):
 * the newest breach with details of the monitor's type — what the alert is about — else the
 * newest evaluation with details.
 */
export function evaluationToShow(type: string, evaluations: readonly TAlertEvaluation[]) {
  const breaches = evaluations.filter((e) => e.state === "BREACH");
  const breach = latestWithDetails(type, breaches);
  if (breach) return { ...breach, isBreach: true };
  const latest = latestWithDetails(type, evaluations);
  return latest ? { ...latest, isBreach: false } : null;
}

/**
 * What the evaluation chart plots for a monitor type: a score and a threshold of the same kind
 * (contracts evaluationChartSeries). MVD stores the mean T² as its score and α as its threshold;
 * it charts the p-value against α on a log scale, so a breach is a point below the α line.
 */
export function chartLines(type: string, evaluations: readonly TAlertEvaluation[]) {
  const series = evaluationChartSeries(type === "mvd" || type === "svd" ? type : "cap");
  return {
    score: evaluations.map((e) =>
      series.score({ score: e.score, threshold: e.threshold, details: isObj(e.details) ? e.details : null }),
    ),
    bar: evaluations.map((e) => e.threshold),
    scoreLabel: series.scoreLabel,
    barLabel: series.thresholdLabel,
    scale: series.scale,
  };
}

export function chartCaption(type: string): string {
  if (type === "svd")
    return "Score: the Wasserstein distance between the training and evaluation sets, scaled; a breach is a score above the threshold.";
  if (type === "cap")
    return "Score: Ppk of the evaluation set; threshold: the Cpk target. A breach is Ppk below the target or a point outside the control limits.";
  if (type === "mvd")
    return "Score: the p-value of the number of parts above the per-row UCL (log scale); threshold: α. A breach is a p-value below α.";
  return "";
}
