// The signal-major (column-major) storage MVD works on (evaluateMvdCalibrated): the rows without a
// missing value, their transpose into one contiguous block per signal, the training means and sds
// and the standardisation by them, and the largest values (the worst rows). Each signal's values
// over all records are contiguous, so every loop is a long pass over one Float64Array.
import type { Matrix } from "./matrix.js";
import { sumOf } from "./sampleCovariance.js";

/**
 * Indices of the `count` largest values, largest first (ties: lower index first). A bounded
 * insertion instead of sorting all n rows: O(n · count) for the 3 worst rows of 600.
 */
export function largestIndices(values: Float64Array, count: number): number[] {
  const top: number[] = [];
  const k = Math.min(Math.max(0, Math.floor(count)), values.length);
  if (k === 0) return top;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (top.length === k && v <= (values[top[k - 1] as number] as number)) continue;
    let position = top.length === k ? k - 1 : top.length;
    while (position > 0 && v > (values[top[position - 1] as number] as number)) position--;
    if (top.length === k) top.pop();
    top.splice(position, 0, i);
  }
  return top;
}

/** Indices of the rows whose values are all finite, and of the rows left out. */
export function completeRows(x: Matrix): { rowIndices: number[]; leftOut: number[] } {
  const { rows, cols, data } = x;
  const rowIndices: number[] = [];
  const leftOut: number[] = [];
  for (let i = 0; i < rows; i++) {
    let isComplete = true;
    for (let j = 0; j < cols; j++) {
      if (!Number.isFinite(data[i * cols + j] as number)) {
        isComplete = false;
        break;
      }
    }
    (isComplete ? rowIndices : leftOut).push(i);
  }
  return { rowIndices, leftOut };
}

/** The listed rows of a row-major matrix, transposed into `out` in signal-major storage (cols blocks of rows.length). */
export function gatherColumns(x: Matrix, rows: readonly number[], out: Float64Array): Float64Array {
  const { cols, data } = x;
  const r = rows.length;
  for (let k = 0; k < r; k++) {
    const base = (rows[k] as number) * cols;
    for (let j = 0; j < cols; j++) out[j * r + k] = data[base + j] as number;
  }
  return out;
}

/**
 * Means and sample sds (n − 1) of signal-major columns, two-pass. A column whose values are all
 * equal gets its value as the mean and a sd of exactly 0, so a constant signal is dropped rather
 * than standardised by a rounding residue of 1e-17.
 */
export function columnMeansAndSds(
  columns: Float64Array,
  n: number,
  p: number,
): { means: Float64Array; sds: Float64Array } {
  const means = new Float64Array(p);
  const sds = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    const start = j * n;
    const first = columns[start] as number;
    let isConstant = true;
    for (let i = start + 1; i < start + n; i++) {
      if (columns[i] !== first) {
        isConstant = false;
        break;
      }
    }
    if (isConstant) {
      means[j] = first;
      continue;
    }
    const mean = sumOf(columns, start, n) / n;
    let squares = 0;
    for (let i = start; i < start + n; i++) {
      const d = (columns[i] as number) - mean;
      squares += d * d;
    }
    means[j] = mean;
    sds[j] = Math.sqrt(squares / (n - 1));
  }
  return { means, sds };
}

/**
 * (x − mean) / sd of the kept signal-major columns, compacted to the front of the same buffer:
 * kept column j moves to block j. kept is ascending, so kept[j] ≥ j and no block is overwritten
 * before it has been read.
 */
export function standardiseColumnsInPlace(
  columns: Float64Array,
  n: number,
  kept: readonly number[],
  means: Float64Array,
  sds: Float64Array,
): void {
  kept.forEach((signal, j) => {
    const source = signal * n;
    const target = j * n;
    const mean = means[j] as number;
    const sd = sds[j] as number;
    for (let i = 0; i < n; i++) columns[target + i] = ((columns[source + i] as number) - mean) / sd;
  });
}
