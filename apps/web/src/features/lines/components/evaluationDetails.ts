import type { TAlertEvaluation } from "@linewatch/contracts";

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
 * What the evaluation chart plots for a monitor type: the score and the bar it is compared with.
 * MVD stores α as its threshold (a breach is p_value < α), which is not on the score's scale; the bar
 * charted is the per-row UCL divided by p, the scale of the score (mean T² / p).
 */
export function chartLines(type: string, evaluations: readonly TAlertEvaluation[]) {
  if (type === "mvd") {
    return {
      score: evaluations.map((e) => e.score),
      bar: evaluations.map((e) => {
        const d = mvdDetails(e.details);
        return d ? d.ucl / d.p : null;
      }),
      scoreLabel: "Mean T² / p",
      barLabel: "UCL / p",
    };
  }
  return {
    score: evaluations.map((e) => e.score),
    bar: evaluations.map((e) => e.threshold),
    scoreLabel: type === "cap" ? "Ppk" : "Score",
    barLabel: type === "cap" ? "Cpk target" : "Threshold",
  };
}

export function chartCaption(type: string, evaluations: readonly TAlertEvaluation[]): string {
  if (type === "svd")
    return "Score: the Wasserstein distance between the training and evaluation sets, scaled; a breach is a score above the threshold.";
  if (type === "cap")
    return "Score: Ppk of the evaluation set; threshold: the Cpk target. A breach is Ppk below the target or a point outside the control limits.";
  if (type === "mvd") {
    const alpha = [...evaluations].reverse().find((e) => e.threshold != null)?.threshold;
    return `Score: the mean Hotelling T² of the evaluation set divided by the number of signals p. Bar: the per-row upper control limit divided by p (a row above the UCL is an exceedance). A breach is decided by the p-value of the exceedance count being below α${alpha != null ? ` = ${alpha}` : ""}, not by the score crossing the bar.`;
  }
  return "";
}
