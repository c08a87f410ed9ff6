import { choleskyDecompose, choleskyForwardColumns, choleskySolveColumns } from "./cholesky.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { fQuantile } from "./quantiles.js";
import { toColumns } from "./sampleCovariance.js";
import { assertFinite, StatsError } from "./statsError.js";

export interface HotellingT2Result {
  /** T²ᵢ = yᵢᵀ S⁻¹ yᵢ for every row (dimensionless). */
  readonly t2: Float64Array;
  /**
   * n × p per-signal contributions cᵢⱼ = yᵢⱼ · (S⁻¹ yᵢ)ⱼ; each row sums to its T²
   * (docs/monitoring.md "MVD" step 6). A contribution can be negative when correlated signals offset.
   */
  readonly contributions: Matrix;
}

/**
 * Hotelling T² of every row of `deviations` (n × p, already centred on the training mean, e.g.
 * standardised) against `covariance` (p × p, symmetric positive definite, e.g. the shrunk S*).
 * The solve goes through a Cholesky factor, never an explicit inverse (docs/monitoring.md "MVD" step 3).
 *
 * Throws DIMENSION_MISMATCH, NON_FINITE, or NOT_POSITIVE_DEFINITE for a singular covariance.
 */
export function hotellingT2(deviations: Matrix, covariance: Matrix): HotellingT2Result {
  const p = covariance.rows;
  if (deviations.cols !== p) {
    throw new StatsError("DIMENSION_MISMATCH", `rows have ${deviations.cols} signals, covariance has ${p}`);
  }
  assertFinite(deviations.data, "T² rows");
  const n = deviations.rows;
  const { t2, contributionColumns } = hotellingT2OfColumns(toColumns(deviations), n, covariance);
  const contributions = new Float64Array(n * p);
  for (let j = 0; j < p; j++) {
    for (let i = 0; i < n; i++) contributions[i * p + j] = contributionColumns[j * n + i] as number;
  }
  return { t2, contributions: createMatrix(n, p, contributions) };
}

/**
 * T² and contributions for n deviation vectors stored column-major by signal (p blocks of n values,
 * see toColumns); the contributions come back in the same layout, in `out` when given (p × n
 * values) or a new array. Used by hotellingT2.
 */
export function hotellingT2OfColumns(
  columns: Float64Array,
  n: number,
  covariance: Matrix,
  out: Float64Array = new Float64Array(columns.length),
): { t2: Float64Array; contributionColumns: Float64Array } {
  const p = covariance.rows;
  const solved = out;
  solved.set(columns);
  choleskySolveColumns(choleskyDecompose(covariance), solved, n);
  const t2 = new Float64Array(n);
  // cⱼ = yⱼ · (S⁻¹ y)ⱼ, overwriting the solution column by column; T² accumulates the columns.
  for (let j = 0; j < p; j++) {
    const start = j * n;
    for (let i = 0; i < n; i++) {
      const c = (columns[start + i] as number) * (solved[start + i] as number);
      solved[start + i] = c;
      t2[i] = (t2[i] as number) + c;
    }
  }
  return { t2, contributionColumns: solved };
}

/**
 * T² alone of n deviation vectors stored column-major by signal, against the covariance whose
 * Cholesky factor is `factor`: T²ᵢ = ‖L⁻¹ yᵢ‖², the forward half of the solve (half the
 * multiply-adds of hotellingT2OfColumns, whose contributions need S⁻¹y itself), on a copy. Equal
 * to hotellingT2OfColumns' T² up to rounding.
 */
export function hotellingT2OnlyOfColumns(columns: Float64Array, n: number, factor: Matrix): Float64Array {
  const p = factor.rows;
  const whitened = Float64Array.from(columns);
  choleskyForwardColumns(factor, whitened, n);
  const t2 = new Float64Array(n);
  for (let j = 0; j < p; j++) {
    const start = j * n;
    for (let i = 0; i < n; i++) {
      const w = whitened[start + i] as number;
      t2[i] = (t2[i] as number) + w * w;
    }
  }
  return t2;
}

/**
 * Phase II upper control limit for one new observation's T² when mean and covariance come from m
 * training rows of p signals (docs/monitoring.md "MVD" step 4):
 *   UCL = p (m + 1)(m − 1) / (m (m − p)) · F⁻¹(1 − α; p, m − p).
 * Throws TOO_FEW_ROWS_FOR_SIGNALS when p ≥ m (the F distribution needs m − p > 0) and
 * INVALID_ARGUMENT for a non-integer p or m or α outside (0, 1).
 */
export function hotellingUcl(m: number, p: number, alpha: number): number {
  if (!Number.isInteger(p) || p < 1)
    throw new StatsError("INVALID_ARGUMENT", `p must be an integer ≥ 1, got ${p}`);
  if (!Number.isInteger(m)) throw new StatsError("INVALID_ARGUMENT", `m must be an integer, got ${m}`);
  if (!(alpha > 0 && alpha < 1))
    throw new StatsError("INVALID_ARGUMENT", `α must lie in (0, 1), got ${alpha}`);
  if (m <= p) {
    throw new StatsError(
      "TOO_FEW_ROWS_FOR_SIGNALS",
      `the T² limit needs more training rows than signals (m = ${m}, p = ${p})`,
    );
  }
  return ((p * (m + 1) * (m - 1)) / (m * (m - p))) * fQuantile(1 - alpha, p, m - p);
}
