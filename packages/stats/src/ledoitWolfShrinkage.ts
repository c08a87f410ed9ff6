import { createMatrix, type Matrix } from "./matrix.js";
import { centreColumnsInPlace, gramOfColumns, toColumns } from "./sampleCovariance.js";
import { assertFinite, StatsError } from "./statsError.js";

/**
 * Ledoit–Wolf shrinkage intensity δ ∈ [0, 1] of an m × p data matrix, scikit-learn's
 * `ledoit_wolf_shrinkage` formula (assume_centered=False: the columns are centred first).
 * Works for p ≥ m too (that is its purpose: the shrunk covariance is then still invertible).
 * One column gives 0, as in scikit-learn. Throws EMPTY_INPUT, TOO_FEW_VALUES (one row), NON_FINITE.
 */
export function ledoitWolfShrinkage(x: Matrix): number {
  if (x.rows === 0 || x.cols === 0) throw new StatsError("EMPTY_INPUT", "Ledoit–Wolf shrinkage needs rows");
  if (x.rows < 2) throw new StatsError("TOO_FEW_VALUES", "Ledoit–Wolf shrinkage needs at least 2 rows");
  assertFinite(x.data, "Ledoit–Wolf input");
  if (x.cols === 1) return 0;
  const columns = toColumns(x);
  centreColumnsInPlace(columns, x.rows, x.cols);
  return shrinkageFromCentredColumns(columns, x.rows, x.cols, gramOfColumns(columns, x.rows, x.cols));
}

/**
 * The formula itself on centred data stored column-major (n values per column, see toColumns) and
 * its Gram matrix XᵀX (p × p), so evaluateMvdCalibrated can share one XᵀX between the covariance and the
 * shrinkage. With X² the element-wise square:
 *   μ = tr(XᵀX)/(n p), β̂ = (1/(p n)) (ΣΣ (X²ᵀX²)/n − ΣΣ (XᵀX)²/n²),
 *   δ̂ = (ΣΣ (XᵀX)²/n² − 2 μ tr(XᵀX)/n + p μ²)/p, shrinkage = min(β̂, δ̂)/δ̂ (0 when β̂ = 0).
 * ΣΣ X²ᵀX² equals Σᵢ (Σⱼ x²ᵢⱼ)², an O(n p) sum instead of a second p × p product.
 */
export function shrinkageFromCentredColumns(
  columns: Float64Array,
  n: number,
  p: number,
  gram: Float64Array,
): number {
  if (p === 1) return 0;
  const rowSquares = new Float64Array(n);
  for (let j = 0; j < p; j++) {
    const start = j * n;
    for (let i = 0; i < n; i++) {
      const v = columns[start + i] as number;
      rowSquares[i] = (rowSquares[i] as number) + v * v;
    }
  }
  let betaSum = 0;
  for (let i = 0; i < n; i++) betaSum += (rowSquares[i] as number) * (rowSquares[i] as number);
  return shrinkageFromSums(betaSum, gram, n, p);
}

/**
 * The Ledoit–Wolf formula from its two sums: `rowSquareSum` = Σᵢ (Σⱼ x²ᵢⱼ)² and `gram` = XᵀX of the
 * centred n × p data. For callers that have the centred Gram without the centred data (the MVD
 * cross-validation builds each fold's from the full one).
 */
export function shrinkageFromSums(rowSquareSum: number, gram: Float64Array, n: number, p: number): number {
  if (p === 1) return 0;
  const betaSum = rowSquareSum;
  let traceSum = 0;
  for (let j = 0; j < p; j++) traceSum += (gram[j * p + j] as number) / n;
  let deltaSum = 0;
  for (let k = 0; k < gram.length; k++) {
    const c = gram[k] as number;
    deltaSum += c * c;
  }
  deltaSum /= n * n;
  const mu = traceSum / p;
  const delta = (deltaSum - 2 * mu * traceSum + p * mu * mu) / p;
  // β̂ ≥ 0 in exact arithmetic (Jensen); rounding must not turn it negative.
  const beta = Math.max(0, Math.min((1 / (p * n)) * (betaSum / n - deltaSum), delta));
  return beta === 0 ? 0 : beta / delta;
}

/**
 * S* = (1 − δ) S + δ μ I with μ = trace(S)/p (docs/monitoring.md "MVD" step 2). Throws INVALID_ARGUMENT
 * for δ outside [0, 1] or a non-square S.
 */
export function shrinkCovariance(covariance: Matrix, shrinkage: number): Matrix {
  const p = covariance.rows;
  if (covariance.cols !== p || p === 0) {
    throw new StatsError(
      "INVALID_ARGUMENT",
      `covariance must be square and non-empty, got ${p} × ${covariance.cols}`,
    );
  }
  if (!(shrinkage >= 0 && shrinkage <= 1)) {
    throw new StatsError("INVALID_ARGUMENT", `shrinkage must lie in [0, 1], got ${shrinkage}`);
  }
  let trace = 0;
  for (let j = 0; j < p; j++) trace += covariance.data[j * p + j] as number;
  const target = (shrinkage * trace) / p;
  const out = new Float64Array(p * p);
  for (let k = 0; k < out.length; k++) out[k] = (1 - shrinkage) * (covariance.data[k] as number);
  for (let j = 0; j < p; j++) out[j * p + j] = (out[j * p + j] as number) + target;
  return createMatrix(p, p, out);
}
