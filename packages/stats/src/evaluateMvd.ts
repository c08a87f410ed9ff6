import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { binomialUpperTail } from "./binomialUpperTail.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { hotellingT2OfColumns, hotellingUcl } from "./hotellingT2.js";
import { shrinkageFromCentredColumns, shrinkCovariance } from "./ledoitWolfShrinkage.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { centreColumnsInPlace, gramOfColumns, sumOf } from "./sampleCovariance.js";
import { scratchBuffer } from "./scratch.js";
import { StatsError } from "./statsError.js";
import { MIN_EVALUATION_RECORDS, minMvdTrainingRecords } from "./windowMinimums.js";

export interface MvdOptions {
  /** How many of the highest-T² evaluation rows to describe (default 3). */
  readonly worstRowCount?: number;
  /** How many signals name the drivers of each worst row (default 3, monitoring.md "MVD" step 7). */
  readonly topSignalCount?: number;
}

export interface SignalContribution {
  /** Column index of the signal in the input matrices. */
  readonly signal: number;
  /** cᵢ = yᵢ · (S*⁻¹ y)ᵢ, in T² units. */
  readonly contribution: number;
}

export interface MvdWorstRow {
  /** Row index in the evaluation matrix as given (before rows with missing values were left out). */
  readonly row: number;
  readonly t2: number;
  /** One contribution per kept signal, in the order of `keptSignals`; they sum to `t2`. */
  readonly contributions: Float64Array;
  /** The largest contributions first: the drivers named in alerts. */
  readonly topSignals: readonly SignalContribution[];
}

export interface MvdEvaluation {
  readonly state: EvaluatedState;
  /** p_value < α. */
  readonly breach: boolean;
  /** Mean T² of the evaluation rows / p (about 1 when in control). */
  readonly score: number;
  /** Phase II UCL for one row's T². */
  readonly ucl: number;
  /** k: evaluation rows with T² > UCL. */
  readonly exceedances: number;
  /** P(Binomial(n, α) ≥ k). */
  readonly pValue: number;
  readonly alpha: number;
  /** Training rows used. */
  readonly m: number;
  /** Evaluation rows used. */
  readonly n: number;
  /** Signals used (after dropping constant ones). */
  readonly p: number;
  /** Ledoit–Wolf δ applied to the standardised training covariance. */
  readonly shrinkage: number;
  /** Input column indices of the signals used, ascending. */
  readonly keptSignals: readonly number[];
  /** Input column indices of signals dropped because their training sd is 0. */
  readonly droppedSignals: readonly number[];
  /** Training means and sds of the kept signals (the standardisation), in signal units. */
  readonly trainingMeans: Float64Array;
  readonly trainingSds: Float64Array;
  /** T² of every evaluation row used, in order. */
  readonly t2: Float64Array;
  /** The highest-T² rows, worst first. */
  readonly worstRows: readonly MvdWorstRow[];
  /** Row indices left out because a value was missing or non-finite (monitoring.md "The window"). */
  readonly leftOutRows: { readonly training: readonly number[]; readonly evaluation: readonly number[] };
}

/**
 * MVD (MAHALANOBIS) evaluation, monitoring.md "MVD" steps 1–7, on `training` (m × p) and
 * `evaluation` (n × p) with one column per signal in the same order. Rows with a missing
 * (non-finite) value are left out whole. NO_DATA when training < 2p + 2 or evaluation < 25 rows
 * remain, when every signal is constant, or when the shrunk covariance is still singular.
 * Throws DIMENSION_MISMATCH / INVALID_ARGUMENT for malformed input (no signals, column counts
 * that differ, an unknown threshold).
 */
export function evaluateMvd(
  training: Matrix,
  evaluation: Matrix,
  alertThreshold: AlertThreshold,
  options: MvdOptions = {},
): MvdEvaluation | NoDataEvaluation {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const signalCount = training.cols;
  if (signalCount === 0) throw new StatsError("INVALID_ARGUMENT", "MVD needs at least one signal");
  if (evaluation.cols !== signalCount) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `training has ${signalCount} signals, evaluation has ${evaluation.cols}`,
    );
  }
  const worstRowCount = options.worstRowCount ?? 3;
  const topSignalCount = options.topSignalCount ?? 3;

  const train = completeRows(training);
  const ev = completeRows(evaluation);
  const m = train.rowIndices.length;
  const n = ev.rowIndices.length;
  // The minimum counts the selected signals, before constant ones are dropped (monitoring.md
  // "The window"); it also guarantees m > p for the UCL's F distribution.
  const minTraining = minMvdTrainingRecords(signalCount);
  if (m < minTraining) {
    return noData(
      "TRAINING_TOO_SMALL",
      `training set has ${m} complete rows; MVD with ${signalCount} signals needs at least ${minTraining}`,
    );
  }
  if (n < MIN_EVALUATION_RECORDS) {
    return noData(
      "EVALUATION_TOO_SMALL",
      `evaluation set has ${n} complete rows; at least ${MIN_EVALUATION_RECORDS} are needed`,
    );
  }

  // The work below runs on signal-major (column-major) copies in scratch memory: each signal's
  // values over all records are contiguous, so every loop is a long pass over one Float64Array
  // (see toColumns and scratch.ts). Nothing returned aliases the scratch buffers.

  // Step 1: standardise by the training mean and sd (n − 1); drop zero-sd signals.
  const z = gatherColumns(training, train.rowIndices, scratchBuffer(0, m * signalCount));
  const { means, sds } = columnMeansAndSds(z, m, signalCount);
  const keptSignals: number[] = [];
  const droppedSignals: number[] = [];
  for (let j = 0; j < signalCount; j++) ((sds[j] as number) > 0 ? keptSignals : droppedSignals).push(j);
  const p = keptSignals.length;
  if (p === 0) return noData("CONSTANT_SIGNAL", "constant signal: every selected signal is constant");
  const keptMeans = Float64Array.from(keptSignals, (j) => means[j] as number);
  const keptSds = Float64Array.from(keptSignals, (j) => sds[j] as number);
  standardiseColumnsInPlace(z, m, keptSignals, keptMeans, keptSds);
  const y = gatherColumns(evaluation, ev.rowIndices, scratchBuffer(1, n * signalCount));
  standardiseColumnsInPlace(y, n, keptSignals, keptMeans, keptSds);

  // Step 2: S = cov(Z) (m − 1), δ = Ledoit–Wolf on Z, S* = (1 − δ) S + δ μ I. Z is re-centred on
  // its own column means (≈ 1e-16) as np.cov and scikit-learn do, and one ZᵀZ serves both.
  const zKept = z.subarray(0, m * p);
  centreColumnsInPlace(zKept, m, p);
  const gram = gramOfColumns(zKept, m, p);
  const shrinkage = shrinkageFromCentredColumns(zKept, m, p, gram);
  const covariance = createMatrix(
    p,
    p,
    gram.map((c) => c / (m - 1)),
  );
  const shrunk = shrinkCovariance(covariance, shrinkage);

  // Step 3: T² per evaluation row through a Cholesky solve.
  let t2: Float64Array;
  let contributionColumns: Float64Array;
  try {
    ({ t2, contributionColumns } = hotellingT2OfColumns(
      y.subarray(0, n * p),
      n,
      shrunk,
      scratchBuffer(2, n * p),
    ));
  } catch (error) {
    if (error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE") {
      return noData(
        "SINGULAR_COVARIANCE",
        `the shrunk training covariance is singular (shrinkage ${shrinkage}); the signals are exactly collinear`,
      );
    }
    throw error;
  }

  // Steps 4–6.
  const ucl = hotellingUcl(m, p, level.alpha);
  let exceedances = 0;
  let t2Sum = 0;
  for (let i = 0; i < n; i++) {
    const value = t2[i] as number;
    if (value > ucl) exceedances++;
    t2Sum += value;
  }
  const pValue = binomialUpperTail(n, level.alpha, exceedances);
  const breach = pValue < level.alpha;

  // Step 7: contributions of the worst rows; the top ones name the drivers.
  const worstRows = largestIndices(t2, worstRowCount).map((i): MvdWorstRow => {
    const rowContributions = Float64Array.from(
      keptSignals,
      (_, j) => contributionColumns[j * n + i] as number,
    );
    const topSignals = Array.from(rowContributions, (contribution, j) => ({
      signal: keptSignals[j] as number,
      contribution,
    }))
      .sort((a, b) => b.contribution - a.contribution)
      .slice(0, Math.max(0, topSignalCount));
    return {
      row: ev.rowIndices[i] as number,
      t2: t2[i] as number,
      contributions: rowContributions,
      topSignals,
    };
  });

  return {
    state: breach ? "BREACH" : "OK",
    breach,
    score: t2Sum / n / p,
    ucl,
    exceedances,
    pValue,
    alpha: level.alpha,
    m,
    n,
    p,
    shrinkage,
    keptSignals,
    droppedSignals,
    trainingMeans: keptMeans,
    trainingSds: keptSds,
    t2,
    worstRows,
    leftOutRows: { training: train.leftOut, evaluation: ev.leftOut },
  };
}

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
