import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { choleskyDecompose, choleskyForwardRows, choleskySolve } from "./cholesky.js";
import {
  blockVif,
  type Dependence,
  estimateDependence,
  estimatePooledDependence,
  heldOutDeviationFactors,
  inverseCovarianceDegrees,
  squaredSeriesLag1VarianceRatio,
  windowVif,
} from "./dependence.js";
import { fUpperTail } from "./distributions.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { hotellingT2OnlyOfColumns } from "./hotellingT2.js";
import { shrinkageFromCentredColumns, shrinkageFromSums, shrinkCovariance } from "./ledoitWolfShrinkage.js";
import { mannWhitneyGreater } from "./mannWhitney.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { centreColumnsInPlace, gramOfColumns, sumOf } from "./sampleCovariance.js";
import { savageGreater } from "./savageScores.js";
import {
  columnMeansAndSds,
  completeRows,
  gatherColumns,
  largestIndices,
  standardiseColumnsInPlace,
} from "./signalColumns.js";
import { StatsError } from "./statsError.js";
import {
  ar1Coefficient,
  autocorrelations,
  MAX_AR1_COEFFICIENT,
  pooledAr1Coefficient,
} from "./varianceInflation.js";
import { MIN_EVALUATION_RECORDS, minMvdTrainingRecords } from "./windowMinimums.js";

/** Folds of the training rows' cross-validated T² (docs/monitoring.md "MVD" step 4). */
export const MVD_CROSS_VALIDATION_FOLDS = 5;

export interface MvdOptions {
  /** How many of the highest-T² evaluation rows to describe (default 3). */
  readonly worstRowCount?: number;
  /** How many signals name the drivers of each worst row (default 3, docs/monitoring.md "MVD" step 6). */
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

export interface MvdCalibratedEvaluation {
  readonly state: EvaluatedState;
  /** p < α. */
  readonly breach: boolean;
  /** −log₁₀ p, shown against −log₁₀ α. */
  readonly score: number;
  /** −log₁₀ α. */
  readonly scoreThreshold: number;
  /** p = min(1, 2 · min(p_mean, p_struct)). */
  readonly pValue: number;
  readonly alpha: number;
  /**
   * Mean shift: T²_mean = (m n / (m + n)) dᵀ Σ⁻¹ d with Σ = D S_pooled D, D = diag(√VIF), S_pooled
   * the covariance of the training and evaluation rows, each about its own mean (divisor m − B(m) +
   * n − B(n), B the pooled dependence's blockVif: m + n − 2 for independent rows).
   */
  readonly t2Mean: number;
  /** √(dᵀ Σ⁻¹ d): how far the means moved, in (dependence-corrected) standard deviations. */
  readonly meanDistance: number;
  /**
   * P(F(p, ν₂) > ((m + n − p − 1)/(p (m + n − 2))) T²_mean), 1/ν₂ = 1/(m + n − p − 1) + 1/ν_VIF
   * for independent rows (the two-sample Hotelling test on the pooled covariance, with the pooled
   * VIF's cost); for alike rows m + n − p − 1 becomes the covariance's degrees for its inverse.
   */
  readonly pMean: number;
  /** ν of pMean's F distribution. */
  readonly meanDegrees: number;
  /**
   * p² / Σᵢⱼ rᵢⱼ² of the training correlations: how many independent series the pooled dependence
   * estimate is worth (1 for one signal or signals that move as one, p for uncorrelated ones).
   */
  readonly effectiveSignals: number;
  /** The null law c χ²_f + δ T²_mean is read through (mvdMeanTestLaw): χ²_p unless the pooled covariance had to be shrunk. */
  readonly meanLaw: MvdMeanTestLaw;
  /** Per kept signal: (m n / (m + n)) dᵢ (Σ⁻¹ d)ᵢ; they sum to T²_mean. */
  readonly meanContributions: Float64Array;
  /** The kept signals by mean contribution, largest first (the drivers of a mean shift). */
  readonly meanTopSignals: readonly SignalContribution[];
  /** Per kept signal: evaluation mean − training mean, in training standard deviations. */
  readonly meanShifts: Float64Array;
  /**
   * Structure: one-sided rank test (Savage scores, savageGreater) that the evaluation rows' fold T²
   * (structT2) exceed, in their upper ranks, the training's cross-validated T².
   */
  readonly pStruct: number;
  /** Mann–Whitney U and its z of the same two samples, shown beside the Savage test (which decides). */
  readonly structU: number;
  readonly structZ: number;
  /** The Mann–Whitney one-sided p of structU (not used by the decision). */
  readonly structMannWhitneyP: number;
  /** The Savage test: S (the evaluation rows' scores summed), its z and its null skewness. */
  readonly structSavage: number;
  readonly structSavageZ: number;
  readonly structSkewness: number;
  /** Each evaluation row's T² against the fit of fold (row mod 5), as the structure test reads them. */
  readonly structT2: Float64Array;
  /** VIF of the cross-validated T² series (the rank test's sizes are divided by it). */
  readonly vifT2: number;
  /** Per kept signal, the VIF of its training values: all the same, from the pooled AR(1) coefficient. */
  readonly vifs: Float64Array;
  /** The AR(1) coefficient pooled over the kept signals (pooledAr1Coefficient); 0 when not significant. */
  readonly pooledCoefficient: number;
  /** The AR order the pooled training values chose (estimatePooledDependence; 0: independent). */
  readonly arOrder: number;
  /** The pooled dependence as estimated (levelSupport reads it). */
  readonly dependence: Dependence;
  /** m / VIF (before the VIF's cap): how many independent rows the training rows are worth for a mean. */
  readonly effectiveSize: number;
  /**
   * (m + n) / (1 + 2 Σ ρ(k)²): the rows the covariance is worth for its entries; holdsLevel reads
   * them. Hotelling's F counts the covariance's degrees for its inverse (inverseCovarianceDegrees).
   */
  readonly effectiveRows: number;
  /**
   * False when effectiveRows − p − 1 < MIN_COVARIANCE_DEGREES: the window is too small for the
   * signals' dependence and number, and the evaluation cannot hold its α.
   */
  readonly holdsLevel: boolean;
  /** Training rows used. */
  readonly m: number;
  /** Evaluation rows used. */
  readonly n: number;
  /** Signals used. */
  readonly p: number;
  readonly shrinkage: number;
  readonly keptSignals: readonly number[];
  readonly droppedSignals: readonly number[];
  readonly trainingMeans: Float64Array;
  readonly trainingSds: Float64Array;
  /** T² of every evaluation row against S* (in order). */
  readonly t2: Float64Array;
  /** The training rows' cross-validated T², in record order. */
  readonly crossValidatedT2: Float64Array;
  /** The highest-T² evaluation rows, worst first, with contributions summing to each T². */
  readonly worstRows: readonly MvdWorstRow[];
  readonly leftOutRows: { readonly training: readonly number[]; readonly evaluation: readonly number[] };
}

/**
 * MVD (MAHALANOBIS) evaluation by two tests that take the data's dependence and shape from the
 * training set (docs/monitoring.md "Sensitivity", "MVD" steps 1–6): a two-sample Hotelling test on the
 * means with the dependence-corrected covariance (p_mean), and a rank test weighing the upper ranks
 * (Savage scores, savageGreater) of the evaluation rows' T² against the training rows' own
 * cross-validated T², both from the same five fold fits (p_struct); p = min(1, 2 min(p_mean,
 * p_struct)), breach ⇔ p < α. No normal-theory UCL decides. NO_DATA when training < 2p + 2 or
 * evaluation < 25 complete rows remain, when every signal is constant, or when the shrunk
 * covariance is still singular. (The uncorrected binomial-count method, evaluateMvd, was removed in
 * issue 29.)
 */
/** Fewest covariance degrees of freedom an MVD window holds its level with (see holdsLevel). */
export const MIN_COVARIANCE_DEGREES = 5;

export function evaluateMvdCalibrated(
  training: Matrix,
  evaluation: Matrix,
  alertThreshold: AlertThreshold,
  options: MvdOptions = {},
): MvdCalibratedEvaluation | NoDataEvaluation {
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

  // Step 1: standardise (signal-major columns), drop constant signals.
  const z = gatherColumns(training, train.rowIndices, new Float64Array(m * signalCount));
  const { means, sds } = columnMeansAndSds(z, m, signalCount);
  const keptSignals: number[] = [];
  const droppedSignals: number[] = [];
  for (let j = 0; j < signalCount; j++) ((sds[j] as number) > 0 ? keptSignals : droppedSignals).push(j);
  const p = keptSignals.length;
  if (p === 0) return noData("CONSTANT_SIGNAL", "constant signal: every selected signal is constant");
  const keptMeans = Float64Array.from(keptSignals, (j) => means[j] as number);
  const keptSds = Float64Array.from(keptSignals, (j) => sds[j] as number);
  standardiseColumnsInPlace(z, m, keptSignals, keptMeans, keptSds);
  const y = gatherColumns(evaluation, ev.rowIndices, new Float64Array(n * signalCount));
  standardiseColumnsInPlace(y, n, keptSignals, keptMeans, keptSds);
  const zKept = z.subarray(0, m * p);
  const yKept = y.subarray(0, n * p);

  // Dependence: one AR process pooled over the signals, from the training values in record order,
  // its order chosen by the data (estimatePooledDependence; an AR(1) as before through the pooled
  // lag-1 estimate); every signal gets its VIF, and the test pays for it with the fit's ν.
  const pooledCoefficient = pooledAr1Coefficient(zKept, m, p);
  // From MIN_PERIODIC_RECORDS rows a periodic component common to the signals is looked for first
  // (one frequency, each signal its amplitude and phase): a slow cycle is then a sine plus the
  // residuals' AR process, whose whole periods average out of both windows' means.
  const dependence = estimatePooledDependence(zKept, m, p, pooledCoefficient, { periodic: true });
  const vifs = new Float64Array(p).fill(dependence.vif);
  // The mean difference's own VIF for this window (training then evaluation block), below
  // the long-run VIF: Σ = D S* D takes it.
  const meanVif = windowVif(dependence.autocorrelations, m, n, dependence.vifFloor);
  const vifDegrees = dependence.degrees;
  // The covariance's rows are alike too: a sample covariance of m rows whose signals have
  // autocorrelations ρ(k) is worth m / (1 + 2 Σₖ ρ(k)²) independent rows (the variance of a
  // product of two such series). Hotelling's F counts those, not m + n (issue 29: many signals at
  // φ 0.9 on 150 records breached 10–43α when every row counted).
  const rowVif = dependence.secondMomentVif;
  const effectiveRows = (m + n) / rowVif;
  const effectiveSize = m / dependence.uncappedVif;

  // d = mean(Y) − mean(Z), before Z is centred in place.
  const d = new Float64Array(p);
  for (let j = 0; j < p; j++) d[j] = sumOf(yKept, j * n, n) / n - sumOf(zKept, j * m, m) / m;

  let shrinkage: number;
  let crossValidatedT2: Float64Array;
  let structT2: Float64Array;
  let t2: Float64Array;
  let shrunkFactor: Matrix;
  let meanLaw: MvdMeanTestLaw;
  let meanFactor: Matrix;
  let pooledCovariance: Matrix;
  let meanScale = meanVif;
  let effectiveSignals = 1;
  try {
    // Cross-validated T² first: it reads Z uncentred (each fold is centred on the other folds).
    const fits = crossValidatedFits(zKept, m, p, yKept, n);
    crossValidatedT2 = fits.training;
    structT2 = fits.evaluation;
    if (dependence.order > 0) {
      // Autocorrelated rows: a training row sits beside the other folds it is judged against, an
      // evaluation row after them, so its T² runs larger by the dependence alone. Each T² is read
      // over its expected value under the pooled dependence (heldOutDeviationFactors), and the
      // rank test compares like with like (AR(1) φ 0.9, 5 signals, 480 + 120 rows: the structure
      // test fired 1.31× its share at medium, 1.25× so).
      const factors = heldOutDeviationFactors(dependence.autocorrelations, m, n, MVD_CROSS_VALIDATION_FOLDS);
      for (let i = 0; i < m; i++)
        crossValidatedT2[i] = (crossValidatedT2[i] as number) / (factors.training[i] as number);
      for (let i = 0; i < n; i++) structT2[i] = (structT2[i] as number) / (factors.evaluation[i] as number);
    }
    // Step 2: S* on all training rows. Z's centred Gram is the folds' XᵀX less m z̄ z̄ᵀ (Z is
    // standardised on its own means, so z̄ ≈ 0 and nothing cancels); the shrinkage also reads the
    // centred rows' squared lengths.
    const centred = Float64Array.from(zKept);
    centreColumnsInPlace(centred, m, p);
    const scatter = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      const mi = (fits.sums[i] as number) / m;
      for (let j = 0; j < p; j++) {
        scatter[i * p + j] = (fits.gram[i * p + j] as number) - m * mi * ((fits.sums[j] as number) / m);
      }
    }
    shrinkage = shrinkageFromCentredColumns(centred, m, p, scatter);
    const covariance = createMatrix(
      p,
      p,
      scatter.map((c) => c / (m - 1)),
    );
    // The columns are standardised on the training rows: the covariance is their correlation.
    effectiveSignals = effectiveSignalCount(covariance.data, p);
    shrunkFactor = choleskyDecompose(shrinkCovariance(covariance, shrinkage));
    // T² of every evaluation row by the forward half of the solve; the contributions, which need
    // S*⁻¹y itself, only for the worst rows (step 6).
    t2 = hotellingT2OnlyOfColumns(yKept, n, shrunkFactor);
    // Step 3's covariance: the two-sample Hotelling test's, the training and the evaluation rows
    // each about its own mean, pooled (m + n − 2). An evaluation row far out in a heavy tail then
    // widens the covariance it is measured against, as it does under Hotelling's own law; against
    // the training covariance alone its T²_mean was unbounded (Student t₃, 20 signals, 120 + 30
    // rows: 2.0α at medium and 7.5α at high from the mean test alone, whatever the shape law).
    const yCentred = Float64Array.from(yKept);
    centreColumnsInPlace(yCentred, n, p);
    const evaluationScatter = gramOfColumns(yCentred, n, p);
    // Each block's own mean takes a block VIF's worth of its rows' spread with it, not one row's:
    // E[scatter] = σ² Σ (L − blockVif(L)) (m + n − 2 for independent rows). Divided by m + n − 2,
    // AR(1) φ 0.9 over 480 + 120 rows read the covariance 6 % small and the mean test fired 1.6× its
    // share at medium.
    const scatterDegrees =
      m - blockVif(dependence.autocorrelations, m, 0) + n - blockVif(dependence.autocorrelations, n, 0);
    pooledCovariance = createMatrix(
      p,
      p,
      scatter.map((c, k) => (c + (evaluationScatter[k] as number)) / scatterDegrees),
    );
    const periodicCovariance = periodicMeanCovariance(pooledCovariance, dependence, m, n);
    if (periodicCovariance !== null) meanScale = 1;
    const mean = meanCovarianceFactor(periodicCovariance ?? pooledCovariance, shrinkage);
    meanFactor = mean.factor;
    meanLaw = mean.law;
  } catch (error) {
    if (error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE") {
      return noData(
        "SINGULAR_COVARIANCE",
        "the shrunk training covariance is singular; the signals are exactly collinear",
      );
    }
    throw error;
  }

  // Step 3: mean shift. Σ = meanVif · S_pooled, so Σ⁻¹ d = S_pooled⁻¹ d / meanVif through its factor
  // (with a periodic component Σ itself, periodicMeanCovariance).
  const sigmaInvD = choleskySolve(meanFactor, d).map((v) => v / meanScale);
  const sizeFactor = (m * n) / (m + n);
  const meanContributions = new Float64Array(p);
  let quadratic = 0;
  for (let j = 0; j < p; j++) {
    const c = (d[j] as number) * (sigmaInvD[j] as number);
    quadratic += c;
    meanContributions[j] = sizeFactor * c;
  }
  const t2Mean = sizeFactor * quadratic;
  // Hotelling's F with the covariance's degrees of freedom (m + n − p − 1 for independent rows; see
  // covDegrees below); the one scalar VIF
  // estimated with ν degrees of freedom adds to the denominator's uncertainty as
  // 1/ν₂ = 1/(m + n − p − 1) + 1/ν (a scalar, not p(p + 1)/2 Wishart entries: subtracting p from
  // the combined degrees, as before, made p = 10 3–10× quiet). T² is read through the law
  // c χ²_f + δ of mvdMeanTestLaw: χ²_p (Hotelling's own) unless the pooled covariance had to be
  // shrunk. No shape term: on the pooled covariance the test holds its level on t₃, lognormal and
  // gauge rows as it is (docs/decisions/0270-no-shape-law-in-the-mvd-mean-test.md).
  // With alike rows the covariance has fewer degrees of freedom than m + n − p − 1, at least
  // MIN_COVARIANCE_DEGREES. Hotelling's law reads the covariance's inverse, which alike rows inflate
  // less than a Wishart of effectiveRows says once p is a fair share of them
  // (inverseCovarianceDegrees; 20 signals of AR(1) φ 0.7 over 120 + 30 rows: 51 degrees counted
  // from effectiveRows, 62 measured, and the mean test fired 0.2–0.5× its share). With a periodic
  // component, the second-moment count. Whether the window holds its level is judged on
  // effectiveRows − p − 1 as before (`holdsLevel`, levelSupport's "covariance").
  const covDegrees = Math.max(
    dependence.periodic === null
      ? inverseCovarianceDegrees(dependence.coefficients, [m, n], p) - p + 1
      : effectiveRows - p - 1,
    MIN_COVARIANCE_DEGREES,
  );
  const holdsLevel = effectiveRows - p - 1 >= MIN_COVARIANCE_DEGREES;
  // The pooled VIF is estimated from every signal's values at once: its ν is one series' times the
  // signals' effective count (the AR estimates of two series correlate about as their values'
  // correlation squared). One series' ν made the mean test 2–5× quiet with 10–20 AR(1) signals on
  // 120 + 30 rows (φ 0.7, p = 10: 0.20 of its share at medium; 0.67 with the signals counted).
  const meanDegrees =
    vifDegrees === Number.POSITIVE_INFINITY
      ? covDegrees
      : 1 / (1 / covDegrees + 1 / (vifDegrees * effectiveSignals));
  const pMean = fUpperTail(
    (covDegrees / (meanLaw.degrees * (covDegrees + p - 1))) * ((t2Mean - meanLaw.offset) / meanLaw.scale),
    meanLaw.degrees,
    meanDegrees,
  );

  // Step 4: structure change, a rank test weighing the upper ranks (Savage scores) of the
  // evaluation rows' fold T² against the training rows' cross-validated T².
  // The T² series' dependence: its own AR(1) fit; when the signals are autocorrelated, without the
  // significance step (the T² of AR(1) signals of ρ are autocorrelated about ρ², often below
  // 1.645/√m, and the rank test then breached 1.3–3 α on AR(1) windows of 75 rows).
  const t2Lag1 =
    dependence.order > 0
      ? Math.min(
          Math.max((m * (autocorrelations(crossValidatedT2, 1)[0] as number) + 1) / (m - 3), 0),
          MAX_AR1_COEFFICIENT,
        )
      : ar1Coefficient(crossValidatedT2);
  // The T² series' own AR order, as the signals': a second-order process or a cycle makes the
  // T² of its rows alike over many lags (about ρ(k)²), which a lag-1 fit under- or over-states
  // (AR(2) 0.5/0.3: the rank test breached 3–8× its share; a pseudo-cycle: never).
  const t2Dependence = estimateDependence(crossValidatedT2, t2Lag1);
  const vifT2 = t2Dependence.vif;
  // The T² series is a sum of p squared series, not a linear one: its lag-1 estimate varies more
  // than the fit's degrees count (squaredSeriesLag1VarianceRatio, from the signals' pooled
  // dependence). Counted as they were, a window whose T² VIF came out small by chance read its
  // rank statistic too far out: AR(1) φ 0.9, 5 signals, 480 + 120 rows, the structure test fired
  // 1.3–1.5× its share at medium with its p-values uniform above 0.05. A periodic component keeps
  // the fit's count.
  const t2Degrees =
    dependence.order > 0 && dependence.periodic === null
      ? t2Dependence.degrees / squaredSeriesLag1VarianceRatio(dependence.autocorrelations, p)
      : t2Dependence.degrees;
  const savage = savageGreater(structT2, crossValidatedT2, vifT2, t2Degrees);
  const struct = mannWhitneyGreater(structT2, crossValidatedT2, vifT2, t2Degrees);

  // Step 5.
  const pValue = Math.min(1, 2 * Math.min(pMean, savage.pValue));
  const breach = pValue < level.alpha;

  // Step 6: drivers.
  const byContribution = (values: Float64Array): SignalContribution[] =>
    Array.from(values, (contribution, j) => ({ signal: keptSignals[j] as number, contribution }))
      .sort((a, b) => b.contribution - a.contribution)
      .slice(0, Math.max(0, topSignalCount));
  const worstRows = largestIndices(t2, worstRowCount).map((i): MvdWorstRow => {
    const row = Float64Array.from(keptSignals, (_, j) => yKept[j * n + i] as number);
    const solved = choleskySolve(shrunkFactor, row);
    const contributions = row.map((v, j) => v * (solved[j] as number));
    return {
      row: ev.rowIndices[i] as number,
      t2: t2[i] as number,
      contributions,
      topSignals: byContribution(contributions),
    };
  });

  return {
    state: breach ? "BREACH" : "OK",
    breach,
    score: -Math.log10(Math.max(pValue, Number.MIN_VALUE)),
    scoreThreshold: -Math.log10(level.alpha),
    pValue,
    alpha: level.alpha,
    t2Mean,
    meanDistance: Math.sqrt(Math.max(0, quadratic)),
    pMean,
    meanDegrees,
    effectiveSignals,
    meanLaw,
    meanContributions,
    meanTopSignals: byContribution(meanContributions),
    meanShifts: d,
    pStruct: savage.pValue,
    structU: struct.u,
    structZ: struct.z,
    structMannWhitneyP: struct.pValue,
    structSavage: savage.statistic,
    structSavageZ: savage.z,
    structSkewness: savage.skewness,
    structT2,
    vifT2,
    vifs,
    pooledCoefficient,
    arOrder: dependence.order,
    dependence,
    effectiveSize,
    effectiveRows,
    holdsLevel,
    m,
    n,
    p,
    shrinkage,
    keptSignals,
    droppedSignals,
    trainingMeans: keptMeans,
    trainingSds: keptSds,
    t2,
    crossValidatedT2,
    worstRows,
    leftOutRows: { training: train.leftOut, evaluation: ev.leftOut },
  };
}

/** p² / Σᵢⱼ rᵢⱼ² of a p × p correlation matrix (row-major), between 1 and p. */
export function effectiveSignalCount(correlation: ArrayLike<number>, p: number): number {
  let sumSquares = 0;
  for (let k = 0; k < p * p; k++) sumSquares += (correlation[k] as number) ** 2;
  return sumSquares > 0 ? Math.min(p, Math.max(1, (p * p) / sumSquares)) : 1;
}

/**
 * The law of T²_mean under no change, c χ²_f + δ, fitted by its first three cumulants (Pearson's
 * three-moment fit) on normal rows: K₁ = tr A, K₂ = 2 tr A², K₃ = 8 tr A³, c = K₃/(4 K₂),
 * f = 8 K₂³/K₃², δ = K₁ − c f, with A = S*⁻¹ S (the covariance the test solves against, S*, and the
 * pooled covariance S taken as the truth). With S* = S it is χ²_p: Hotelling's.
 */
export interface MvdMeanTestLaw {
  /** c. */
  readonly scale: number;
  /** f. */
  readonly degrees: number;
  /** δ. */
  readonly offset: number;
  /** The Ledoit–Wolf shrinkage of the pooled covariance the test solves against (0: unshrunk). */
  readonly shrinkage: number;
}

/**
 * A signal explained by the others to within this share of its pooled variance (1 − R², the
 * Cholesky factor's squared pivot over its diagonal entry) makes the pooled covariance too close to
 * singular for its inverse to weigh a mean difference: the test then solves against the shrunk
 * covariance (a signal that is the sum of others, rounded, would otherwise turn noise into T²).
 */
export const MVD_MEAN_MIN_PIVOT_SHARE = 1e-8;

/**
 * The factor the mean test solves against and its law: the pooled covariance itself (law χ²_p)
 * when no signal is explained by the others to within MVD_MEAN_MIN_PIVOT_SHARE of its variance,
 * otherwise the pooled covariance shrunk by the training's Ledoit–Wolf `shrinkage`, with
 * mvdMeanTestLaw. Throws NOT_POSITIVE_DEFINITE when even the shrunk covariance is singular.
 */
/**
 * The mean difference's covariance (without m n/(m + n)) when the signals share a periodic
 * component: the pooled covariance holds the sines' own, Ŝ = ½ (aaᵀ + bbᵀ) of their cos and sin
 * coefficients (rank 2), beside the residuals'. A window's whole periods average out of both
 * means while the residuals do not, so each part takes its own window VIF: Σ = VIFₑ (S − Ŝ) +
 * c_w Ŝ, VIFₑ the residuals' (windowVif, ≥ 1) and c_w the sine's (windowVif of cos ωk, floor 0).
 * One scalar VIF for both (the residuals' share, as a single signal's) shrank Σ along every
 * direction but the sines' two: 2.6α at medium with 5 signals of a 100-record cycle over 3000
 * records. Null without a periodic component, or when Σ is not positive definite (Ŝ estimated
 * above what the pooled covariance holds): the scalar VIF then stands.
 */
function periodicMeanCovariance(pooled: Matrix, dependence: Dependence, m: number, n: number): Matrix | null {
  const periodic = dependence.periodic;
  if (periodic === null) return null;
  const p = pooled.rows;
  const residualVif = windowVif(periodic.residualAutocorrelations, m, n);
  const lags = m + n - 1;
  const cosine = new Float64Array(lags);
  for (let k = 1; k <= lags; k++) cosine[k - 1] = Math.cos(periodic.frequency * k);
  const sineVif = windowVif(cosine, m, n, 0);
  const a = periodic.coefficients;
  const sigma = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      const sine =
        ((a[2 * i] as number) * (a[2 * j] as number) + (a[2 * i + 1] as number) * (a[2 * j + 1] as number)) /
        2;
      sigma[i * p + j] = residualVif * (pooled.data[i * p + j] as number) - (residualVif - sineVif) * sine;
    }
  const covariance = createMatrix(p, p, sigma);
  try {
    choleskyDecompose(covariance);
  } catch (error) {
    if (error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE") return null;
    throw error;
  }
  return covariance;
}

function meanCovarianceFactor(pooled: Matrix, shrinkage: number): { factor: Matrix; law: MvdMeanTestLaw } {
  const p = pooled.rows;
  try {
    const factor = choleskyDecompose(pooled);
    let smallest = Number.POSITIVE_INFINITY;
    for (let j = 0; j < p; j++) {
      const pivot = factor.data[j * p + j] as number;
      smallest = Math.min(smallest, (pivot * pivot) / (pooled.data[j * p + j] as number));
    }
    if (smallest >= MVD_MEAN_MIN_PIVOT_SHARE) {
      return { factor, law: { scale: 1, degrees: p, offset: 0, shrinkage: 0 } };
    }
  } catch (error) {
    if (!(error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE")) throw error;
  }
  const factor = choleskyDecompose(shrinkCovariance(pooled, shrinkage));
  return { factor, law: mvdMeanTestLaw(factor, pooled, shrinkage) };
}

/** Fits MvdMeanTestLaw: `shrunkFactor` is S*'s Cholesky factor, `covariance` S. */
export function mvdMeanTestLaw(shrunkFactor: Matrix, covariance: Matrix, shrinkage: number): MvdMeanTestLaw {
  const p = shrunkFactor.rows;
  // tr Aᵏ for A = S*⁻¹ S through B = L⁻¹ S L⁻ᵀ (S* = L Lᵀ): B = Lᵀ A L⁻ᵀ is similar to A, so it has
  // A's traces, and it is symmetric, so B² is a Gram product. Two triangular solves and one Gram,
  // 1.5 p³ multiply-adds down contiguous rows: 2.0 s at p = 1,000 where A by p single solves and A²
  // by a strided loop took 17 s (CPU, load average 21).
  // Each row of the copy is a right-hand side: S's rows are its columns, so the first solve leaves
  // (L⁻¹ S)ᵀ, whose transpose's rows are the columns of S L⁻ᵀ; the second leaves Bᵀ.
  const b = Float64Array.from(covariance.data);
  choleskyForwardRows(shrunkFactor, b, p);
  transposeInPlace(b, p);
  choleskyForwardRows(shrunkFactor, b, p);
  let trace1 = 0;
  let trace2 = 0;
  let trace3 = 0;
  // Σₖ bᵢₖ bⱼₖ: B² up to B's rounding asymmetry.
  const b2 = gramOfColumns(b, p, p);
  for (let i = 0; i < p; i++) {
    trace1 += b[i * p + i] as number;
    for (let j = 0; j < p; j++) {
      const bji = b[j * p + i] as number;
      trace2 += (b[i * p + j] as number) * bji;
      trace3 += (b2[i * p + j] as number) * bji;
    }
  }
  const k2 = 2 * trace2;
  const k3 = 8 * trace3;
  const scale = k3 / (4 * k2);
  const degrees = (8 * k2 ** 3) / (k3 * k3);
  return { scale, degrees, offset: trace1 - scale * degrees, shrinkage };
}

/**
 * T² of each training row against the mean and S* of the other folds (contiguous blocks of rows in
 * record order, so neighbouring alike records do not sit on both sides), S* shrunk on the other
 * folds' rows scaled by their own standard deviations. `columns` is m × p
 * signal-major, standardised, not centred. Each fold's centred Gram is the full XᵀX less the
 * fold's, less r μ μᵀ (r rows, mean μ of the other folds): one pass over the data instead of five
 * (the standardised values keep the subtraction exact to about 1e-15). Throws
 * NOT_POSITIVE_DEFINITE like the full fit.
 */
export function crossValidatedT2OfColumns(columns: Float64Array, m: number, p: number): Float64Array {
  return crossValidatedT2WithEvaluation(columns, m, p, new Float64Array(0), 0).training;
}

/**
 * crossValidatedT2OfColumns, and each of the n evaluation rows (`evaluation`, n × p signal-major,
 * standardised like the training) against the same fold fits, row i against fold i mod 5's: the
 * evaluation rows' T² then come from fits of the same size as the training rows' own, so the two
 * samples the structure test compares are alike under no change (a fit of all m rows would make
 * the evaluation T² smaller in the upper tail than the cross-validated ones).
 */
export function crossValidatedT2WithEvaluation(
  columns: Float64Array,
  m: number,
  p: number,
  evaluation: Float64Array,
  n: number,
): { training: Float64Array; evaluation: Float64Array } {
  const fits = crossValidatedFits(columns, m, p, evaluation, n);
  return { training: fits.training, evaluation: fits.evaluation };
}

/**
 * crossValidatedT2WithEvaluation, also handing back XᵀX of all m rows and their column sums (the
 * full fit's centred Gram is XᵀX − m μ μᵀ). XᵀX is the sum of the folds' Grams, which the fold fits
 * need anyway: one m p²/2 pass instead of two (the folds' p × p Grams are kept meanwhile, 40 MB at
 * p = 1,000). Each fold's T² needs only the forward half of the solve (hotellingT2OnlyOfColumns).
 */
function crossValidatedFits(
  columns: Float64Array,
  m: number,
  p: number,
  evaluation: Float64Array,
  n: number,
): { training: Float64Array; evaluation: Float64Array; gram: Float64Array; sums: Float64Array } {
  const out = new Float64Array(m);
  const evaluationOut = new Float64Array(n);
  const edges = Array.from({ length: MVD_CROSS_VALIDATION_FOLDS + 1 }, (_, fold) =>
    Math.floor((fold * m) / MVD_CROSS_VALIDATION_FOLDS),
  );
  const heldRows = (fold: number): Float64Array => {
    const a = edges[fold] as number;
    const b = edges[fold + 1] as number;
    const held = new Float64Array((b - a) * p);
    for (let j = 0; j < p; j++) held.set(columns.subarray(j * m + a, j * m + b), j * (b - a));
    return held;
  };
  const foldGrams: Float64Array[] = [];
  const fullGram = new Float64Array(p * p);
  for (let fold = 0; fold < MVD_CROSS_VALIDATION_FOLDS; fold++) {
    const foldCount = (edges[fold + 1] as number) - (edges[fold] as number);
    const foldGram = gramOfColumns(heldRows(fold), foldCount, p);
    foldGrams.push(foldGram);
    for (let k = 0; k < fullGram.length; k++) fullGram[k] = (fullGram[k] as number) + (foldGram[k] as number);
  }
  const fullSums = new Float64Array(p);
  for (let j = 0; j < p; j++) fullSums[j] = sumOf(columns, j * m, m);
  const rowSquares = new Float64Array(m);
  for (let fold = 0; fold < MVD_CROSS_VALIDATION_FOLDS; fold++) {
    const a = edges[fold] as number;
    const b = edges[fold + 1] as number;
    const foldCount = b - a;
    const restCount = m - foldCount;
    const evaluationCount = fold < n ? Math.floor((n - 1 - fold) / MVD_CROSS_VALIDATION_FOLDS) + 1 : 0;
    if (foldCount === 0 && evaluationCount === 0) continue;
    const held = heldRows(fold);
    const foldGram = foldGrams[fold] as Float64Array;
    const restMeans = new Float64Array(p);
    for (let j = 0; j < p; j++) {
      restMeans[j] = ((fullSums[j] as number) - sumOf(held, j * foldCount, foldCount)) / restCount;
    }
    const gram = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        const k = i * p + j;
        gram[k] =
          (fullGram[k] as number) -
          (foldGram[k] as number) -
          restCount * (restMeans[i] as number) * (restMeans[j] as number);
      }
    }
    // The fold's fit is scaled by its own rows' standard deviations (a constant signal within the
    // fold keeps 1): the values were standardised on every training row, the held rows' own among
    // them, so a held row far out in a signal had widened that signal's scale and sat closer in
    // than an evaluation row as far out. Shrinkage toward μI is not scale-free, so that mattered:
    // 25 + 25 rows of 10 normal signals, the structure test breached 0.77α at low where its share
    // is 0.5α (0.46α scaled per fold); lognormal 0.93α (0.36α).
    const foldScale = new Float64Array(p);
    for (let j = 0; j < p; j++) foldScale[j] = Math.sqrt((gram[j * p + j] as number) / (restCount - 1)) || 1;
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        gram[i * p + j] = (gram[i * p + j] as number) / ((foldScale[i] as number) * (foldScale[j] as number));
      }
    }
    // Σᵢ (Σⱼ (zᵢⱼ − μⱼ)²)² over the other folds' rows, for the shrinkage.
    rowSquares.fill(0);
    for (let j = 0; j < p; j++) {
      const start = j * m;
      const mu = restMeans[j] as number;
      for (let i = 0; i < m; i++) {
        const v = ((columns[start + i] as number) - mu) / (foldScale[j] as number);
        rowSquares[i] = (rowSquares[i] as number) + v * v;
      }
    }
    let rowSquareSum = 0;
    for (let i = 0; i < m; i++) {
      if (i >= a && i < b) continue;
      rowSquareSum += (rowSquares[i] as number) * (rowSquares[i] as number);
    }
    const delta = shrinkageFromSums(rowSquareSum, gram, restCount, p);
    const factor = choleskyDecompose(
      shrinkCovariance(
        createMatrix(
          p,
          p,
          gram.map((c) => c / (restCount - 1)),
        ),
        delta,
      ),
    );
    if (foldCount > 0) {
      for (let j = 0; j < p; j++) {
        const mu = restMeans[j] as number;
        for (let i = j * foldCount; i < (j + 1) * foldCount; i++)
          held[i] = ((held[i] as number) - mu) / (foldScale[j] as number);
      }
      out.set(hotellingT2OnlyOfColumns(held, foldCount, factor), a);
    }
    if (evaluationCount > 0) {
      // Evaluation rows fold, fold + 5, … against this fold's fit.
      const rows = new Float64Array(evaluationCount * p);
      for (let j = 0; j < p; j++) {
        const mu = restMeans[j] as number;
        for (let r = 0; r < evaluationCount; r++) {
          rows[j * evaluationCount + r] =
            ((evaluation[j * n + fold + r * MVD_CROSS_VALIDATION_FOLDS] as number) - mu) /
            (foldScale[j] as number);
        }
      }
      const t2 = hotellingT2OnlyOfColumns(rows, evaluationCount, factor);
      for (let r = 0; r < evaluationCount; r++) {
        evaluationOut[fold + r * MVD_CROSS_VALIDATION_FOLDS] = t2[r] as number;
      }
    }
  }
  return { training: out, evaluation: evaluationOut, gram: fullGram, sums: fullSums };
}

/** Transposes a p × p row-major matrix in place. */
function transposeInPlace(a: Float64Array, p: number): void {
  for (let i = 1; i < p; i++) {
    for (let j = 0; j < i; j++) {
      const upper = a[j * p + i] as number;
      a[j * p + i] = a[i * p + j] as number;
      a[i * p + j] = upper;
    }
  }
}
