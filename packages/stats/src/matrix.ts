import { StatsError } from "./statsError.js";

/**
 * A dense matrix stored row-major in one contiguous Float64Array: element (i, j) is
 * `data[i * cols + j]`. Rows are records (parts) and columns are signals throughout the package,
 * so one record's values sit next to each other in memory, which keeps the T² and covariance
 * loops cache-friendly.
 */
export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

/** A rows × cols matrix of zeros, or a view over `data` when it is given (not copied). */
export function createMatrix(rows: number, cols: number, data?: Float64Array): Matrix {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new StatsError(
      "INVALID_ARGUMENT",
      `matrix shape must be non-negative integers, got ${rows} × ${cols}`,
    );
  }
  if (data === undefined) return { rows, cols, data: new Float64Array(rows * cols) };
  if (data.length !== rows * cols) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `a ${rows} × ${cols} matrix needs ${rows * cols} values, got ${data.length}`,
    );
  }
  return { rows, cols, data };
}

/** Copies an array of equal-length rows into a Matrix; ragged rows are a DIMENSION_MISMATCH. */
export function matrixFromRows(rows: ReadonlyArray<ArrayLike<number>>): Matrix {
  const first = rows[0];
  const cols = first === undefined ? 0 : first.length;
  const out = createMatrix(rows.length, cols);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as ArrayLike<number>;
    if (row.length !== cols) {
      throw new StatsError("DIMENSION_MISMATCH", `row ${i} has ${row.length} values, row 0 has ${cols}`);
    }
    for (let j = 0; j < cols; j++) out.data[i * cols + j] = row[j] as number;
  }
  return out;
}

/** Element (i, j); a RangeError outside the matrix rather than an undefined that turns into NaN. */
export function matrixGet(a: Matrix, i: number, j: number): number {
  if (i < 0 || i >= a.rows || j < 0 || j >= a.cols) {
    throw new RangeError(`(${i}, ${j}) is outside a ${a.rows} × ${a.cols} matrix`);
  }
  return a.data[i * a.cols + j] as number;
}

/** Row i as a copy. */
export function matrixRow(a: Matrix, i: number): Float64Array {
  if (i < 0 || i >= a.rows) throw new RangeError(`row ${i} is outside a matrix of ${a.rows} rows`);
  return a.data.slice(i * a.cols, (i + 1) * a.cols);
}

/** Rows as plain arrays (for JSON storage and tests). */
export function matrixToRows(a: Matrix): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < a.rows; i++) out.push(Array.from(a.data.subarray(i * a.cols, (i + 1) * a.cols)));
  return out;
}
