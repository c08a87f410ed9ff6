// How an evaluation's score reads to a quality engineer, per monitor type (design/monitoring.md):
// each type's score and threshold mean different things, so "score vs threshold" alone misleads
// (an MVD breach is decided by its p-value against α, not by the mean T²).

export type TEvaluationFigures = {
  score: number | null;
  threshold: number | null;
  details?: Record<string, unknown> | null;
};

/** Three significant digits: scores span orders of magnitude. */
export const formatFigure = (x: number) =>
  Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : String(x);

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** One line: what the evaluation measured against what it must stay within, or null. */
export function evaluationSummary(type: "mvd" | "svd" | "cap", e: TEvaluationFigures): string | null {
  if (e.score == null || e.threshold == null) return null;
  const f = formatFigure;
  if (type === "mvd") {
    const p = num(e.details?.p_value);
    const k = num(e.details?.k);
    const n = num(e.details?.n);
    const rows = k != null && n != null ? `, ${k} of ${n} parts above the UCL` : "";
    return p == null
      ? `Mean T²/p ${f(e.score)}, α ${f(e.threshold)}`
      : `p-value ${f(p)} vs α ${f(e.threshold)}${rows} (mean T²/p ${f(e.score)})`;
  }
  if (type === "svd") return `Distance ${f(e.score)} σ vs threshold ${f(e.threshold)} σ`;
  const violations = num(e.details?.violations);
  return `Ppk ${f(e.score)} vs target ${f(e.threshold)}${violations ? `, ${violations} points outside the control limits` : ""}`;
}

/**
 * The figures of an evaluation's details that its summary reads (MVD p-value and counts, CAP
 * violations): what a list of alerts carries instead of the whole details.
 */
export const SUMMARY_DETAIL_KEYS = ["p_value", "k", "n", "violations"] as const;

/** The smallest p-value a log-scale chart draws (a p-value of 0 has no place on it). */
export const CHART_P_VALUE_FLOOR = 1e-16;

/**
 * What an evaluation chart plots per monitor type: a score and a threshold of the same kind, so a
 * breach is a score on the wrong side of the threshold line. MVD plots the p-value against α
 * (log scale; a breach is a p-value below α), not the mean T² against α.
 */
export function evaluationChartSeries(type: "mvd" | "svd" | "cap") {
  if (type === "mvd")
    return {
      scoreLabel: "p-value",
      thresholdLabel: "α",
      scale: "log" as const,
      breachBelow: true,
      score: (e: TEvaluationFigures) => {
        const p = num(e.details?.p_value);
        return p == null ? null : Math.max(p, CHART_P_VALUE_FLOOR);
      },
    };
  if (type === "svd")
    return {
      scoreLabel: "Distance (σ)",
      thresholdLabel: "Threshold (σ)",
      scale: "linear" as const,
      breachBelow: false,
      score: (e: TEvaluationFigures) => e.score,
    };
  return {
    scoreLabel: "Ppk",
    thresholdLabel: "Cpk target",
    scale: "linear" as const,
    breachBelow: true,
    score: (e: TEvaluationFigures) => e.score,
  };
}
