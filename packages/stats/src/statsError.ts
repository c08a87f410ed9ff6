/**
 * The one error type of @linewatch/stats. Low-level functions throw it when an input makes the
 * answer undefined (empty input, a non-finite value, a matrix that is not positive definite …),
 * so that no NaN ever leaves the package silently. Evaluations (evaluateSvdCalibrated,
 * evaluateMvdCalibrated, evaluateCapCalibrated) do not throw for data problems: they answer with
 * state NO_DATA and a reason, as docs/monitoring.md "The window" asks.
 */
export type StatsErrorCode =
  /** An input array or matrix has no values. */
  | "EMPTY_INPUT"
  /** Fewer values or rows than the statistic needs (e.g. one value for a standard deviation). */
  | "TOO_FEW_VALUES"
  /** A value is NaN or ±Infinity. */
  | "NON_FINITE"
  /** An argument is outside its domain (negative weight, probability outside [0, 1], …). */
  | "INVALID_ARGUMENT"
  /** Array lengths or matrix shapes do not fit together. */
  | "DIMENSION_MISMATCH"
  /** A Cholesky factorisation met a pivot ≤ 0: the matrix is singular or not positive definite. */
  | "NOT_POSITIVE_DEFINITE"
  /** The Phase II T² limit needs more training rows than signals (m > p). */
  | "TOO_FEW_ROWS_FOR_SIGNALS";

export class StatsError extends Error {
  override readonly name = "StatsError";

  constructor(
    readonly code: StatsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Throws NON_FINITE when any of `values` is NaN or ±Infinity; `what` names the input in the message. */
export function assertFinite(values: ArrayLike<number>, what: string): void {
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (!Number.isFinite(x)) {
      throw new StatsError("NON_FINITE", `${what} has a non-finite value (${x}) at index ${i}`);
    }
  }
}

/**
 * The two samples of a rank test (Mann–Whitney, Savage): both non-empty and finite, and the VIF
 * that scales the statistic's variance at least 1. Throws EMPTY_INPUT, NON_FINITE, INVALID_ARGUMENT.
 */
export function assertRankTestSamples(x: ArrayLike<number>, y: ArrayLike<number>, vif: number): void {
  if (x.length === 0 || y.length === 0)
    throw new StatsError("EMPTY_INPUT", "the rank test needs two non-empty samples");
  assertFinite(x, "rank test sample");
  assertFinite(y, "rank test sample");
  if (!(vif >= 1)) throw new StatsError("INVALID_ARGUMENT", `vif must be ≥ 1, got ${vif}`);
}
