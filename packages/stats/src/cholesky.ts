import { createMatrix, type Matrix } from "./matrix.js";
import { assertFinite, StatsError } from "./statsError.js";

/**
 * Cholesky factor of a symmetric positive-definite p × p matrix: lower-triangular L with A = L Lᵀ
 * (only the lower triangle of A is read). Solving through L replaces the explicit inverse that
 * monitoring.md "MVD" step 3 rules out: it is cheaper and loses fewer digits.
 *
 * Throws NOT_POSITIVE_DEFINITE when a pivot is ≤ p·ε times its diagonal entry, i.e. the matrix is
 * singular within rounding (a pivot of 1e-17 would otherwise turn T² into noise of size 1e17).
 */
export function choleskyDecompose(a: Matrix): Matrix {
  const p = a.rows;
  if (a.cols !== p)
    throw new StatsError("DIMENSION_MISMATCH", `Cholesky needs a square matrix, got ${p} × ${a.cols}`);
  if (p === 0) throw new StatsError("EMPTY_INPUT", "Cholesky needs a non-empty matrix");
  assertFinite(a.data, "Cholesky input");
  const l = new Float64Array(p * p);
  const src = a.data;
  for (let j = 0; j < p; j++) {
    const rowJ = j * p;
    let d = src[rowJ + j] as number;
    for (let k = 0; k < j; k++) {
      const v = l[rowJ + k] as number;
      d -= v * v;
    }
    const diagonal = src[rowJ + j] as number;
    if (!(d > p * Number.EPSILON * Math.abs(diagonal))) {
      throw new StatsError(
        "NOT_POSITIVE_DEFINITE",
        `matrix is singular or not positive definite (pivot ${d} at row ${j})`,
      );
    }
    const ljj = Math.sqrt(d);
    l[rowJ + j] = ljj;
    for (let i = j + 1; i < p; i++) {
      const rowI = i * p;
      let s = src[rowI + j] as number;
      // Both rows are contiguous in the row-major layout: a dot product of L[i, :j] and L[j, :j].
      for (let k = 0; k < j; k++) s -= (l[rowI + k] as number) * (l[rowJ + k] as number);
      l[rowI + j] = s / ljj;
    }
  }
  return createMatrix(p, p, l);
}

/** Solves A x = b given A's Cholesky factor L (from choleskyDecompose). */
export function choleskySolve(l: Matrix, b: ArrayLike<number>): Float64Array {
  const p = l.rows;
  if (b.length !== p)
    throw new StatsError("DIMENSION_MISMATCH", `right-hand side has ${b.length} values, need ${p}`);
  const x = Float64Array.from(b);
  solveInPlace(l.data, transposeData(l), p, x, 0);
  return x;
}

/**
 * Solves A xᵢ = yᵢ for every row yᵢ of `rows` (n × p), returning the n × p matrix of solutions.
 * Lᵀ is formed once so the back substitution also walks contiguous memory.
 */
export function choleskySolveRows(l: Matrix, rows: Matrix): Matrix {
  const p = l.rows;
  if (rows.cols !== p)
    throw new StatsError("DIMENSION_MISMATCH", `rows have ${rows.cols} columns, need ${p}`);
  const out = Float64Array.from(rows.data);
  const lt = transposeData(l);
  for (let i = 0; i < rows.rows; i++) solveInPlace(l.data, lt, p, out, i * p);
  return createMatrix(rows.rows, p, out);
}

function transposeData(l: Matrix): Float64Array {
  const p = l.rows;
  const t = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = 0; j <= i; j++) t[j * p + i] = l.data[i * p + j] as number;
  return t;
}

/** Forward substitution L z = b, then back substitution Lᵀ x = z, on x[offset … offset + p). */
function solveInPlace(l: Float64Array, lt: Float64Array, p: number, x: Float64Array, offset: number): void {
  for (let i = 0; i < p; i++) {
    const row = i * p;
    let s = x[offset + i] as number;
    for (let k = 0; k < i; k++) s -= (l[row + k] as number) * (x[offset + k] as number);
    x[offset + i] = s / (l[row + i] as number);
  }
  for (let i = p - 1; i >= 0; i--) {
    const row = i * p;
    let s = x[offset + i] as number;
    for (let k = i + 1; k < p; k++) s -= (lt[row + k] as number) * (x[offset + k] as number);
    x[offset + i] = s / (lt[row + i] as number);
  }
}

/**
 * Solves A X = B in place for n right-hand sides stored column-major by signal: `columns` holds p
 * blocks of n values, block j being component j of every right-hand side (see toColumns). The
 * substitutions become long loops over n values, four terms of the triangular sum fused per pass
 * (one store per four multiply-adds); that and the layout took T² of 600 rows × 20 signals from
 * 0.67 to about 0.2 ms. Per right-hand side the arithmetic is choleskySolve's, summed in another order.
 */
export function choleskySolveColumns(l: Matrix, columns: Float64Array, n: number): void {
  const p = l.rows;
  if (columns.length !== p * n) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `expected ${p} columns of ${n} values, got ${columns.length} values`,
    );
  }
  choleskyForwardColumns(l, columns, n);
  const ld = l.data;
  // Back: Lᵀ X = Z, with (Lᵀ)[i][k] = L[k][i] for k in (i, p).
  for (let i = p - 1; i >= 0; i--) {
    subtractCombination(columns, i, n, (k) => ld[k * p + i] as number, i + 1, p);
    divide(columns, i * n, ld[i * p + i] as number, n);
  }
}

/**
 * The forward half of choleskySolveColumns: L Z = B in place for n right-hand sides stored
 * column-major by signal (row i of L is L[i][0 … i)). With L the Cholesky factor of a covariance,
 * this whitens the rows: z = L⁻¹ x.
 */
export function choleskyForwardColumns(l: Matrix, columns: Float64Array, n: number): void {
  const p = l.rows;
  if (columns.length !== p * n) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `expected ${p} columns of ${n} values, got ${columns.length} values`,
    );
  }
  const ld = l.data;
  for (let i = 0; i < p; i++) {
    subtractCombination(columns, i, n, (k) => ld[i * p + k] as number, 0, i);
    divide(columns, i * n, ld[i * p + i] as number, n);
  }
}

/** column[target] −= Σ_{k ∈ [from, to)} coefficient(k) · column[k], four k per pass over n values. */
function subtractCombination(
  v: Float64Array,
  target: number,
  n: number,
  coefficient: (k: number) => number,
  from: number,
  to: number,
): void {
  const t = target * n;
  let k = from;
  for (; k + 3 < to; k += 4) {
    const c0 = coefficient(k);
    const c1 = coefficient(k + 1);
    const c2 = coefficient(k + 2);
    const c3 = coefficient(k + 3);
    const k0 = k * n;
    const k1 = k0 + n;
    const k2 = k1 + n;
    const k3 = k2 + n;
    for (let r = 0; r < n; r++) {
      v[t + r] =
        (v[t + r] as number) -
        (c0 * (v[k0 + r] as number) +
          c1 * (v[k1 + r] as number) +
          c2 * (v[k2 + r] as number) +
          c3 * (v[k3 + r] as number));
    }
  }
  for (; k < to; k++) {
    const c0 = coefficient(k);
    const k0 = k * n;
    for (let r = 0; r < n; r++) v[t + r] = (v[t + r] as number) - c0 * (v[k0 + r] as number);
  }
}

function divide(v: Float64Array, start: number, divisor: number, n: number): void {
  for (let r = start; r < start + n; r++) v[r] = (v[r] as number) / divisor;
}
