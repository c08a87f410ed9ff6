/**
 * What every monitor evaluation answers (docs/monitoring.md "The window"): either a computed state
 * (OK or BREACH) or NO_DATA — "not a breach, not an OK" — with a machine code and a reason a
 * person can read.
 */
export type NoDataCode =
  /** Fewer training records than the monitor type needs. */
  | "TRAINING_TOO_SMALL"
  /** Fewer than 25 evaluation records. */
  | "EVALUATION_TOO_SMALL"
  /** The signal (or every signal of an MVD) does not vary, so there is no scale to measure by. */
  | "CONSTANT_SIGNAL"
  /** MVD: the shrunk covariance is still singular (a degenerate case, e.g. duplicated ±1 signals). */
  | "SINGULAR_COVARIANCE"
  /** CAP: the spec limits evaluate to different values on different records. */
  | "SPEC_LIMITS_DIFFER";

export interface NoDataEvaluation {
  readonly state: "NO_DATA";
  readonly code: NoDataCode;
  readonly reason: string;
}

export type EvaluatedState = "OK" | "BREACH";

export function noData(code: NoDataCode, reason: string): NoDataEvaluation {
  return { state: "NO_DATA", code, reason };
}

/** Splits `values` into its finite values and the indices that were left out (missing or non-finite). */
export function finiteValues(values: ArrayLike<number>): { values: Float64Array; leftOut: number[] } {
  const kept: number[] = [];
  const leftOut: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) kept.push(v);
    else leftOut.push(i);
  }
  return { values: Float64Array.from(kept), leftOut };
}
