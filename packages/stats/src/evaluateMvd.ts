import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { binomialUpperTail } from "./binomialUpperTail.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { hotellingT2, hotellingUcl } from "./hotellingT2.js";
import { shrinkageFromCentred, shrinkCovariance } from "./ledoitWolfShrinkage.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { centreColumns, columnMeans, crossProduct } from "./sampleCovariance.js";
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
  const m = train.matrix.rows;
  const n = ev.matrix.rows;
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

  // Step 1: standardise by the training mean and sd (n − 1); drop zero-sd signals.
  const { means, sds } = columnMeansAndSds(train.matrix);
  const keptSignals: number[] = [];
  const droppedSignals: number[] = [];
  for (let j = 0; j < signalCount; j++) ((sds[j] as number) > 0 ? keptSignals : droppedSignals).push(j);
  const p = keptSignals.length;
  if (p === 0) return noData("CONSTANT_SIGNAL", "constant signal: every selected signal is constant");
  const keptMeans = Float64Array.from(keptSignals, (j) => means[j] as number);
  const keptSds = Float64Array.from(keptSignals, (j) => sds[j] as number);
  const z = standardise(train.matrix, keptSignals, keptMeans, keptSds);
  const y = standardise(ev.matrix, keptSignals, keptMeans, keptSds);

  // Step 2: S = cov(Z) (n − 1), δ = Ledoit–Wolf on Z, S* = (1 − δ) S + δ μ I. Z is re-centred on
  // its own column means (≈ 1e-16) as np.cov and scikit-learn do, and one XᵀX serves both.
  const zc = centreColumns(z, columnMeans(z));
  const cross = crossProduct(zc);
  const shrinkage = shrinkageFromCentred(zc, cross);
  const covariance = createMatrix(
    p,
    p,
    cross.data.map((c) => c / (m - 1)),
  );
  const shrunk = shrinkCovariance(covariance, shrinkage);

  // Step 3: T² per evaluation row through a Cholesky solve.
  let t2: Float64Array;
  let contributions: Matrix;
  try {
    ({ t2, contributions } = hotellingT2(y, shrunk));
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
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (t2[b] as number) - (t2[a] as number));
  const worstRows = order.slice(0, Math.max(0, worstRowCount)).map((i): MvdWorstRow => {
    const rowContributions = contributions.data.slice(i * p, (i + 1) * p);
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

/** Rows whose values are all finite, with their original indices and the indices left out. */
function completeRows(x: Matrix): { matrix: Matrix; rowIndices: number[]; leftOut: number[] } {
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
  if (leftOut.length === 0) return { matrix: x, rowIndices, leftOut };
  const out = new Float64Array(rowIndices.length * cols);
  rowIndices.forEach((i, r) => {
    out.set(data.subarray(i * cols, (i + 1) * cols), r * cols);
  });
  return { matrix: createMatrix(rowIndices.length, cols, out), rowIndices, leftOut };
}

/**
 * Column means and sample sds (n − 1), two-pass. A column whose values are all equal gets its value
 * as the mean and a sd of exactly 0, so a constant signal is dropped rather than standardised by
 * a rounding residue of 1e-17.
 */
function columnMeansAndSds(x: Matrix): { means: Float64Array; sds: Float64Array } {
  const { rows, cols, data } = x;
  const means = columnMeans(x);
  const isConstant = new Uint8Array(cols).fill(1);
  for (let i = 1; i < rows; i++) {
    for (let j = 0; j < cols; j++) if (data[i * cols + j] !== data[j]) isConstant[j] = 0;
  }
  const squares = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const base = i * cols;
    for (let j = 0; j < cols; j++) {
      const d = (data[base + j] as number) - (means[j] as number);
      squares[j] = (squares[j] as number) + d * d;
    }
  }
  const sds = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    if (isConstant[j] === 1) means[j] = data[j] as number;
    else sds[j] = Math.sqrt((squares[j] as number) / (rows - 1));
  }
  return { means, sds };
}

/** (x − mean) / sd for the kept columns, into a new contiguous matrix. */
function standardise(x: Matrix, kept: readonly number[], means: Float64Array, sds: Float64Array): Matrix {
  const { rows, cols, data } = x;
  const p = kept.length;
  const out = new Float64Array(rows * p);
  for (let i = 0; i < rows; i++) {
    const src = i * cols;
    const dst = i * p;
    for (let j = 0; j < p; j++) {
      out[dst + j] =
        ((data[src + (kept[j] as number)] as number) - (means[j] as number)) / (sds[j] as number);
    }
  }
  return createMatrix(rows, p, out);
}
