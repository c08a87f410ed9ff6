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
