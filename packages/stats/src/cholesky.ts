import { choleskyWorkspace, forwardSubstituteRows } from "./kernels/kernels.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { dotOf } from "./sampleCovariance.js";
import { assertFinite, StatsError } from "./statsError.js";

/**
 * Cholesky factor of a symmetric positive-definite p × p matrix: lower-triangular L with A = L Lᵀ
 * (only the lower triangle of A is read). Solving through L replaces the explicit inverse that
 * docs/monitoring.md "MVD" step 3 rules out: it is cheaper and loses fewer digits.
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
  const src = a.data;
  const l = new Float64Array(p * p);
  if (p < ROW_KERNEL_MIN_SIGNALS) {
    // Small p: the textbook loop, entry by entry (the blocked one's overhead costs more here).
    for (let j = 0; j < p; j++) {
      const rowJ = j * p;
      let d = src[rowJ + j] as number;
      for (let k = 0; k < j; k++) {
        const v = l[rowJ + k] as number;
        d -= v * v;
      }
      l[rowJ + j] = checkedPivot(d, src[rowJ + j] as number, p, j);
      const ljj = l[rowJ + j] as number;
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
  // Row i of L solves L[:i, :i] L[i, :i]ᵀ = A[i, :i]ᵀ, a forward substitution against the rows
  // above it, so the factor is built in chunks of CHOLESKY_CHUNK rows: first every row of the chunk
  // against all rows before it, by the forward-substitution kernel (kernels.wat: each block of four
  // rows of L read once for the chunk's eight row pairs), then the chunk's own small triangle and
  // pivots one row at a time. The sums are the textbook's in another order. p = 1,000 (1.7e8
  // multiply-adds): 0.37–0.59 s → 0.12–0.23 s CPU against the textbook loop, whose one running sum
  // waits on each add (load average 11–18, the scalar kernel); p = 100: 0.58 → 0.34 ms.
  const { l: work, width, solveRows } = choleskyWorkspace(src, p);
  for (let r0 = 0; r0 < p; r0 += CHOLESKY_CHUNK) {
    const r1 = Math.min(p, r0 + CHOLESKY_CHUNK);
    solveRows(r0, r1);
    for (let i = r0; i < r1; i++) {
      const row = i * width;
      for (let j = r0; j < i; j++) {
        work[row + j] =
          ((work[row + j] as number) - dotOf(work, row, j * width, j)) / (work[j * width + j] as number);
      }
      work[row + i] = checkedPivot(
        (src[i * p + i] as number) - dotOf(work, row, row, i),
        src[i * p + i] as number,
        p,
        i,
      );
    }
  }
  for (let i = 0; i < p; i++) l.set(work.subarray(i * width, i * width + i + 1), i * p);
  return createMatrix(p, p, l);
}

/** Rows of a chunk of the blocked factor: its own triangle (16 × 16 dot products a chunk) stays small. */
const CHOLESKY_CHUNK = 16;

/**
 * √d for pivot d of row j, or NOT_POSITIVE_DEFINITE when d ≤ p·ε times the diagonal entry: the
 * matrix is singular within rounding.
 */
function checkedPivot(d: number, diagonal: number, p: number, j: number): number {
  if (!(d > p * Number.EPSILON * Math.abs(diagonal))) {
    throw new StatsError(
      "NOT_POSITIVE_DEFINITE",
      `matrix is singular or not positive definite (pivot ${d} at row ${j})`,
    );
  }
  return Math.sqrt(d);
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
 * L Z = B in place for n right-hand sides stored row-major (`rows`: n rows of p values, each row
 * one right-hand side): with L the Cholesky factor of a covariance this whitens the rows, zᵢ = L⁻¹xᵢ,
 * and ‖zᵢ‖² is row i's T².
 */
export function choleskyForwardRows(l: Matrix, rows: Float64Array, n: number): void {
  const p = l.rows;
  if (rows.length !== p * n) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `expected ${n} rows of ${p} values, got ${rows.length} values`,
    );
  }
  forwardSubstituteRows(l.data, rows, n, p);
}

/**
 * Below this many signals the column-major substitutions run on the blocks as they are: their long
 * loops over the right-hand sides beat the blocked row kernel with its transposes and short rows
 * (a solve of 600 right-hand sides at p = 10: 0.12 against 0.21 ms); about even at p = 20–40, the
 * row kernel ahead from p = 60 (3,000 right-hand sides: 10 against 13 ms; p = 150: 57 against 66).
 */
const ROW_KERNEL_MIN_SIGNALS = 32;

/**
 * Solves A X = B in place for n right-hand sides stored column-major by signal: `columns` holds p
 * blocks of n values, block j being component j of every right-hand side (see toColumns). Small p:
 * long loops over the n values, four terms of the triangular sum fused per pass (one store per four
 * multiply-adds), which took T² of 600 rows × 20 signals from 0.67 to about 0.2 ms. From
 * ROW_KERNEL_MIN_SIGNALS on: the blocks transposed into rows (O(n p), against the solve's n p²) and
 * solved by the forward-substitution kernel (kernels.ts), then back: Lᵀ X = Z is a forward substitution in reversed
 * order, with R[i'][k'] = L[p − 1 − k'][p − 1 − i'] lower triangular. Per right-hand side the
 * arithmetic is choleskySolve's, summed in another order.
 */
export function choleskySolveColumns(l: Matrix, columns: Float64Array, n: number): void {
  const p = l.rows;
  checkColumns(p, columns, n);
  const ld = l.data;
  if (p < ROW_KERNEL_MIN_SIGNALS) {
    forwardColumns(ld, p, columns, n);
    // Back: Lᵀ X = Z, with (Lᵀ)[i][k] = L[k][i] for k in (i, p).
    for (let i = p - 1; i >= 0; i--) {
      subtractCombination(columns, i, n, (k) => ld[k * p + i] as number, i + 1, p);
      divide(columns, i * n, ld[i * p + i] as number, n);
    }
    return;
  }
  const reversed = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let k = 0; k <= i; k++) reversed[i * p + k] = ld[(p - 1 - k) * p + (p - 1 - i)] as number;
  }
  const rows = new Float64Array(p * n);
  transposeBlocks(columns, rows, p, n);
  forwardSubstituteRows(ld, rows, n, p);
  reverseRows(rows, p, 0, n);
  forwardSubstituteRows(reversed, rows, n, p);
  reverseRows(rows, p, 0, n);
  transposeBlocks(rows, columns, n, p);
}

/**
 * The forward half of choleskySolveColumns: L Z = B in place for n right-hand sides stored
 * column-major by signal; from ROW_KERNEL_MIN_SIGNALS on, choleskyForwardRows on the transposed
 * blocks. With L the Cholesky factor of a covariance this whitens the rows, z = L⁻¹ x.
 */
export function choleskyForwardColumns(l: Matrix, columns: Float64Array, n: number): void {
  const p = l.rows;
  checkColumns(p, columns, n);
  if (p < ROW_KERNEL_MIN_SIGNALS) {
    forwardColumns(l.data, p, columns, n);
    return;
  }
  const rows = new Float64Array(p * n);
  transposeBlocks(columns, rows, p, n);
  choleskyForwardRows(l, rows, n);
  transposeBlocks(rows, columns, n, p);
}

/** The column-major forward substitution (row i of L is L[i][0 … i)). */
function forwardColumns(ld: Float64Array, p: number, columns: Float64Array, n: number): void {
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

/** Reverses each of the rows [r0, r1) (p values a row) in place. */
function reverseRows(rows: Float64Array, p: number, r0: number, r1: number): void {
  for (let r = r0; r < r1; r++) {
    for (let i = r * p, j = i + p - 1; i < j; i++, j--) {
      const v = rows[i] as number;
      rows[i] = rows[j] as number;
      rows[j] = v;
    }
  }
}

function checkColumns(p: number, columns: Float64Array, n: number): void {
  if (columns.length !== p * n) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `expected ${p} columns of ${n} values, got ${columns.length} values`,
    );
  }
}

/** to = fromᵀ for `from` holding `blocks` blocks of `length` values; 32 × 32 tiles keep both sides in cache. */
export function transposeBlocks(from: Float64Array, to: Float64Array, blocks: number, length: number): void {
  const tile = 32;
  for (let b0 = 0; b0 < blocks; b0 += tile) {
    const b1 = Math.min(blocks, b0 + tile);
    for (let i0 = 0; i0 < length; i0 += tile) {
      const i1 = Math.min(length, i0 + tile);
      for (let b = b0; b < b1; b++) {
        const start = b * length;
        for (let i = i0; i < i1; i++) to[i * blocks + b] = from[start + i] as number;
      }
    }
  }
}
