import {
  evaluationChartSeries,
  parseEvaluationDetails,
  type TAlertEvaluation,
  type TEvaluationDetails,
  type TMvdWorstRow,
} from "@linewatch/contracts";

/**
 * An evaluation's `details` as the panels read them: parsed by the contracts' schema
 * (parseEvaluationDetails, the shape the worker writes), then named for the page. Each reader
 * answers null when the details are not of that kind (NO_DATA details carry only a code). Each
 * view keeps the parsed details (`parsed`) for the sentences every place shares
 * (contracts evaluationDetailLines): the calibrated methods' and the uncorrected ones' (older
 * evaluations) alike.
 */

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x != null && !Array.isArray(x);
const finite = (x: number | null): number | null => (x != null && Number.isFinite(x) ? x : null);

export type TSvdView = {
  signalName: string | null;
  trainingMean: number;
  trainingSd: number;
  evaluationMean: number;
  evaluationSd: number;
  m: number;
  n: number;
  w1: number;
  parsed: TEvaluationDetails;
};

export function svdDetails(raw: unknown): TSvdView | null {
  const d = parseEvaluationDetails("svd", raw);
  if (d?.kind !== "svd") return null;
  const { trainingMean, trainingSd, evaluationMean, evaluationSd, m, n, w1 } = d;
  return {
    signalName: d.signal.name,
    trainingMean,
    trainingSd,
    evaluationMean,
    evaluationSd,
    m,
    n,
    w1,
    parsed: d,
  };
}

export type TMvdView = {
  /** The uncorrected method's per-row UCL and rows above it (null for the calibrated method). */
  ucl: number | null;
  exceedances: number | null;
  p: number;
  pValue: number | null;
  alpha: number;
  n: number;
  worstRows: TMvdWorstRow[];
  parsed: TEvaluationDetails;
};

export function mvdDetails(raw: unknown): TMvdView | null {
  const d = parseEvaluationDetails("mvd", raw);
  if (d?.kind !== "mvd") return null;
  return {
    ucl: d.method === "uncorrected" ? d.ucl : null,
    exceedances: d.method === "uncorrected" ? d.k : null,
    p: d.p,
    pValue: finite(d.p_value),
    alpha: d.alpha,
    n: d.n,
    worstRows: d.worstRows,
    parsed: d,
  };
}

export type TCapView = {
  signalName: string | null;
  n: number;
  cp: number | null;
  cpk: number | null;
  pp: number | null;
  ppk: number | null;
  cpkTarget: number;
  lsl: number | null;
  usl: number | null;
  lcl: number[];
  ucl: number[];
  /**
   * The evaluation's one α-level test (issue 29): null on evaluations stored before it (and for
   * the uncorrected method), where any control hit breached.
   */
  test: {
    pValue: number | null;
    alpha: number;
    pControl: number | null;
    pCapability: number | null;
    judgedCount: number;
    isControlBreach: boolean;
  } | null;
  parsed: TEvaluationDetails;
};

export function capDetails(raw: unknown): TCapView | null {
  const d = parseEvaluationDetails("cap", raw);
  if (d?.kind !== "cap") return null;
  return {
    signalName: d.signal.name,
    n: d.n,
    cp: finite(d.cp),
    cpk: finite(d.cpk),
    pp: finite(d.pp),
    ppk: finite(d.ppk),
    cpkTarget: d.cpkTarget,
    lsl: finite(d.limits.lsl),
    usl: finite(d.limits.usl),
    lcl: d.limits.lcl.filter(Number.isFinite),
    ucl: d.limits.ucl.filter(Number.isFinite),
    test:
      d.method === "calibrated" && d.p_value !== undefined
        ? {
            pValue: d.p_value,
            alpha: d.alpha,
            pControl: d.p_control ?? null,
            pCapability: d.p_capability ?? null,
            judgedCount: d.judgedCount,
            isControlBreach: d.isControlBreach,
          }
        : null,
    parsed: d,
  };
}

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
 * (contracts evaluationChartSeries). MVD charts the p-value against α on a log scale, so a breach
 * is a point below the α line, whatever the evaluation stored as its score (−log₁₀ p now, the mean
 * T² in older evaluations); CAP its Ppk's upper bound (Ppk in older evaluations) against the target.
 */
export function chartLines(type: string, evaluations: readonly TAlertEvaluation[]) {
  const series = evaluationChartSeries(type === "mvd" || type === "svd" ? type : "cap");
  return {
    score: evaluations.map((e) =>
      series.score({ score: e.score, threshold: e.threshold, details: isObj(e.details) ? e.details : null }),
    ),
    bar: evaluations.map((e) =>
      series.threshold({
        score: e.score,
        threshold: e.threshold,
        details: isObj(e.details) ? e.details : null,
      }),
    ),
    scoreLabel: series.scoreLabel,
    barLabel: series.thresholdLabel,
    scale: series.scale,
  };
}
