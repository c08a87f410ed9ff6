import { gramOfColumnsKernel } from "./kernels/kernels.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { assertFinite, StatsError } from "./statsError.js";

/** Column means of an m × p matrix (one mean per signal). Throws EMPTY_INPUT or NON_FINITE. */
export function sampleMean(x: Matrix): Float64Array {
  if (x.rows === 0 || x.cols === 0) throw new StatsError("EMPTY_INPUT", "sample mean needs at least one row");
  assertFinite(x.data, "sample mean input");
  return columnMeans(x);
}

/**
 * Sample covariance with the n − 1 denominator (NumPy `cov(rowvar=False, ddof=1)`), p × p.
 * Throws EMPTY_INPUT, TOO_FEW_VALUES (one row) or NON_FINITE.
 */
export function sampleCovariance(x: Matrix): Matrix {
  if (x.rows === 0 || x.cols === 0) throw new StatsError("EMPTY_INPUT", "sample covariance needs rows");
  if (x.rows < 2) throw new StatsError("TOO_FEW_VALUES", "sample covariance needs at least 2 rows");
  assertFinite(x.data, "sample covariance input");
  const columns = toColumns(x);
  centreColumnsInPlace(columns, x.rows, x.cols);
  const gram = gramOfColumns(columns, x.rows, x.cols);
  const scale = 1 / (x.rows - 1);
  for (let k = 0; k < gram.length; k++) gram[k] = (gram[k] as number) * scale;
  return createMatrix(x.cols, x.cols, gram);
}

/** Column means without validation (callers have validated). */
export function columnMeans(x: Matrix): Float64Array {
  const columns = toColumns(x);
  const means = new Float64Array(x.cols);
  for (let j = 0; j < x.cols; j++) means[j] = sumOf(columns, j * x.rows, x.rows) / x.rows;
  return means;
}

/** XᵀX (p × p, both triangles filled) of a row-major matrix. */
export function crossProduct(x: Matrix): Matrix {
  return createMatrix(x.cols, x.cols, gramOfColumns(toColumns(x), x.rows, x.cols));
}

/**
 * The matrix transposed into "signal-major" storage: column j (one signal over all n records) is
 * the contiguous block [j·n, (j + 1)·n). The heavy MVD loops run down these long columns instead of
 * across short rows of p ≈ 20 values, where loop overhead would dominate (bench/stats.bench.ts).
 */
export function toColumns(x: Matrix): Float64Array {
  const { rows, cols, data } = x;
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const base = i * cols;
    for (let j = 0; j < cols; j++) out[j * rows + i] = data[base + j] as number;
  }
  return out;
}

/** Subtracts each column's own mean from it (column-major storage, n values per column). */
export function centreColumnsInPlace(columns: Float64Array, n: number, p: number): void {
  for (let j = 0; j < p; j++) {
    const start = j * n;
    const mean = sumOf(columns, start, n) / n;
    for (let i = start; i < start + n; i++) columns[i] = (columns[i] as number) - mean;
  }
}

/** Sum of v[start … start + n), four accumulators so the adds pipeline. */
export function sumOf(v: Float64Array, start: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = start;
  const end = start + n;
  for (; i + 3 < end; i += 4) {
    s0 += v[i] as number;
    s1 += v[i + 1] as number;
    s2 += v[i + 2] as number;
    s3 += v[i + 3] as number;
  }
  for (; i < end; i++) s0 += v[i] as number;
  return s0 + s1 + (s2 + s3);
}

/** Dot product of v[a … a + n) and v[b … b + n), four accumulators. */
export function dotOf(v: Float64Array, a: number, b: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += (v[a + i] as number) * (v[b + i] as number);
    s1 += (v[a + i + 1] as number) * (v[b + i + 1] as number);
    s2 += (v[a + i + 2] as number) * (v[b + i + 2] as number);
    s3 += (v[a + i + 3] as number) * (v[b + i + 3] as number);
  }
  for (; i < n; i++) s0 += (v[a + i] as number) * (v[b + i] as number);
  return s0 + s1 + (s2 + s3);
}

/**
 * Gram matrix CᵀC (p × p, row-major, both triangles) of p columns of n values stored column-major,
 * exactly symmetric. The WebAssembly kernel (kernels.ts) forms it in 2 × 4 blocks of dot products,
 * every value loaded used 2 or 4 times, by slices of the columns that stay in cache.
 */
export function gramOfColumns(columns: Float64Array, n: number, p: number): Float64Array {
  return gramOfColumnsKernel(columns, n, p);
}
