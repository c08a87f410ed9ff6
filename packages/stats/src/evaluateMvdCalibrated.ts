import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { choleskyDecompose, choleskyForwardColumns, choleskySolve } from "./cholesky.js";
import { fUpperTail } from "./distributions.js";
import {
  columnMeansAndSds,
  completeRows,
  gatherColumns,
  largestIndices,
  type MvdOptions,
  type MvdWorstRow,
  type SignalContribution,
  standardiseColumnsInPlace,
} from "./evaluateMvd.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { hotellingT2OfColumns } from "./hotellingT2.js";
import { shrinkageFromCentredColumns, shrinkageFromSums, shrinkCovariance } from "./ledoitWolfShrinkage.js";
import { mannWhitneyGreater } from "./mannWhitney.js";
import { createMatrix, type Matrix } from "./matrix.js";
import { centreColumnsInPlace, dotOf, gramOfColumns, sumOf } from "./sampleCovariance.js";
import { savageGreater } from "./savageScores.js";
import { StatsError } from "./statsError.js";
import {
  ar1Coefficient,
  ar1WindowVif,
  autocorrelations,
  MAX_AR1_COEFFICIENT,
  pooledAr1Coefficient,
  vifOfCoefficient,
} from "./varianceInflation.js";
import { MIN_EVALUATION_RECORDS, minMvdTrainingRecords } from "./windowMinimums.js";

/** Folds of the training rows' cross-validated T² (monitoring.md "MVD" step 4). */
export const MVD_CROSS_VALIDATION_FOLDS = 5;

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
  /** Mean shift: T²_mean = (m n / (m + n)) dᵀ Σ⁻¹ d with Σ = D S* D, D = diag(√VIF). */
  readonly t2Mean: number;
  /** √(dᵀ Σ⁻¹ d): how far the means moved, in (dependence-corrected) standard deviations. */
  readonly meanDistance: number;
  /**
   * P(F(p, ν₂) > ((m + n − p − 1)/(p (m + n − 2))) T²_mean), 1/ν₂ = 1/(m + n − p − 1) + 1/ν_VIF
   * (Hotelling's F with the pooled VIF's cost).
   */
  readonly pMean: number;
  /** ν of pMean's F distribution. */
  readonly meanDegrees: number;
  /** The null law λ (c χ²_f + δ) T²_mean is read through (mvdMeanTestLaw), and the shape behind it. */
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
 * training set (monitoring.md "Sensitivity", "MVD" steps 1–6): a two-sample Hotelling test on the
 * means with the dependence-corrected covariance (p_mean), and a rank test weighing the upper ranks
 * (Savage scores, savageGreater) of the evaluation rows' T² against the training rows' own
 * cross-validated T², both from the same five fold fits (p_struct); p = min(1, 2 min(p_mean,
 * p_struct)), breach ⇔ p < α. No normal-theory UCL decides. NO_DATA as evaluateMvd (training
 * < 2p + 2, evaluation < 25 complete rows, every signal constant, a singular covariance).
 * evaluateMvd stays the binomial-count method.
 */
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

  // Dependence: one AR(1) coefficient pooled over the signals, from the training values in record
  // order; every signal gets its VIF, and the test pays for it with ν = m (1 − ρ̃²)/2.
  const pooledCoefficient = pooledAr1Coefficient(zKept, m, p);
  const pooled = vifOfCoefficient(pooledCoefficient, m);
  const vifs = new Float64Array(p).fill(pooled.vif);
  // The mean difference's own VIF for this window (training then evaluation block), below
  // (1 + ρ)/(1 − ρ): Σ = D S* D takes it.
  const meanVif = ar1WindowVif(pooledCoefficient, m, n);
  const vifDegrees = pooled.degrees;

  // d = mean(Y) − mean(Z), before Z is centred in place.
  const d = new Float64Array(p);
  for (let j = 0; j < p; j++) d[j] = sumOf(yKept, j * n, n) / n - sumOf(zKept, j * m, m) / m;

  let shrinkage: number;
  let shrunk: Matrix;
  let crossValidatedT2: Float64Array;
  let structT2: Float64Array;
  let t2: Float64Array;
  let contributionColumns: Float64Array;
  let sigmaFactor: Matrix;
  let meanLaw: MvdMeanTestLaw;
  try {
    // Cross-validated T² first: it reads Z uncentred (each fold is centred on the other folds).
    ({ training: crossValidatedT2, evaluation: structT2 } = crossValidatedT2WithEvaluation(
      zKept,
      m,
      p,
      yKept,
      n,
    ));
    // Step 2: S* on all training rows.
    const centred = Float64Array.from(zKept);
    centreColumnsInPlace(centred, m, p);
    const gram = gramOfColumns(centred, m, p);
    shrinkage = shrinkageFromCentredColumns(centred, m, p, gram);
    const covariance = createMatrix(
      p,
      p,
      gram.map((c) => c / (m - 1)),
    );
    shrunk = shrinkCovariance(covariance, shrinkage);
    ({ t2, contributionColumns } = hotellingT2OfColumns(yKept, n, shrunk));
    // The mean test's null law (step 3): the shrunk quadratic form against the unshrunk training
    // covariance, with the multivariate shape of the whole window's rows (multivariateShape).
    const shrunkFactor = choleskyDecompose(shrunk);
    meanLaw = mvdMeanTestLaw(
      shrunkFactor,
      covariance,
      multivariateShape(zKept, m, yKept, n, p),
      m / pooled.vif,
      n / pooled.vif,
    );
    const sigma = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        sigma[i * p + j] = (shrunk.data[i * p + j] as number) * meanVif;
      }
    }
    sigmaFactor = choleskyDecompose(createMatrix(p, p, sigma));
  } catch (error) {
    if (error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE") {
      return noData(
        "SINGULAR_COVARIANCE",
        "the shrunk training covariance is singular; the signals are exactly collinear",
      );
    }
    throw error;
  }

  // Step 3: mean shift.
  const sigmaInvD = choleskySolve(sigmaFactor, d);
  const sizeFactor = (m * n) / (m + n);
  const meanContributions = new Float64Array(p);
  let quadratic = 0;
  for (let j = 0; j < p; j++) {
    const c = (d[j] as number) * (sigmaInvD[j] as number);
    quadratic += c;
    meanContributions[j] = sizeFactor * c;
  }
  const t2Mean = sizeFactor * quadratic;
  // Hotelling's F with the covariance's m + n − p − 1 degrees of freedom; the one scalar VIF
  // estimated with ν degrees of freedom adds to the denominator's uncertainty as
  // 1/ν₂ = 1/(m + n − p − 1) + 1/ν (a scalar, not p(p + 1)/2 Wishart entries: subtracting p from
  // the combined degrees, as before, made p = 10 3–10× quiet). The numerator is not χ²_p: T² is
  // read through the fitted law λ (c χ²_f + δ) of the shrunk, shape-carrying quadratic form
  // (mvdMeanTestLaw), (T² − λδ)/(λc) in place of χ²_f (f = p, c = λ = 1, δ = 0 on normal data with
  // S* = S).
  const covDegrees = m + n - p - 1;
  const meanDegrees =
    vifDegrees === Number.POSITIVE_INFINITY ? covDegrees : 1 / (1 / covDegrees + 1 / vifDegrees);
  const pMean = fUpperTail(
    (covDegrees / (meanLaw.degrees * (m + n - 2))) * ((t2Mean - meanLaw.offset) / meanLaw.scale),
    meanLaw.degrees,
    meanDegrees,
  );

  // Step 4: structure change, a rank test weighing the upper ranks (Savage scores) of the
  // evaluation rows' fold T² against the training rows' cross-validated T².
  // The T² series' dependence: its own AR(1) fit; when the signals are autocorrelated, without the
  // significance step (the T² of AR(1) signals of ρ are autocorrelated about ρ², often below
  // 1.645/√m, and the rank test then breached 1.3–3 α on AR(1) windows of 75 rows).
  const t2Coefficient =
    pooledCoefficient > 0
      ? Math.min(
          Math.max((m * (autocorrelations(crossValidatedT2, 1)[0] as number) + 1) / (m - 3), 0),
          MAX_AR1_COEFFICIENT,
        )
      : ar1Coefficient(crossValidatedT2);
  const t2Dependence = vifOfCoefficient(t2Coefficient, m);
  const vifT2 = t2Dependence.vif;
  const savage = savageGreater(structT2, crossValidatedT2, vifT2, t2Dependence.degrees);
  const struct = mannWhitneyGreater(structT2, crossValidatedT2, vifT2, t2Dependence.degrees);

  // Step 5.
  const pValue = Math.min(1, 2 * Math.min(pMean, savage.pValue));
  const breach = pValue < level.alpha;

  // Step 6: drivers.
  const byContribution = (values: Float64Array): SignalContribution[] =>
    Array.from(values, (contribution, j) => ({ signal: keptSignals[j] as number, contribution }))
      .sort((a, b) => b.contribution - a.contribution)
      .slice(0, Math.max(0, topSignalCount));
  const worstRows = largestIndices(t2, worstRowCount).map((i): MvdWorstRow => {
    const contributions = Float64Array.from(keptSignals, (_, j) => contributionColumns[j * n + i] as number);
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

/**
 * The shape of a window's rows (training and evaluation together) whitened by their own mean and
 * covariance, in affine-invariant (multivariate) moments, so that it does not depend on the order
 * or the mixing of the signals: with N = m + n rows uᵢ (mean 0, covariance I), rᵢⱼ = uᵢᵀuⱼ,
 * Mardia's skewness b₁ = (1/N²) Σᵢⱼ rᵢⱼ³ (Σ γ_jkl² over the third-cumulant tensor), the
 * Móri–Rohatgi–Székely skewness b̃₁ = ‖(1/N) Σᵢ rᵢᵢ uᵢ‖² (Σ_l (Σ_j γ_jjl)²) and Mardia's kurtosis
 * b₂ = (1/N) Σᵢ rᵢᵢ² (p(p + 2) + Σ κ_jjll). The law (mvdMeanTestLaw) reads them per coordinate:
 * skewnessSquared = (4 (b₁ − E₀b₁) + 6 (b̃₁ − E₀b̃₁))/(10 p) and excessKurtosis = (b₂ − E₀b₂)/p,
 * each kept ≥ 0, E₀ their expectations for normal rows (b₁ and b₂ exact, Mardia 1974; b̃₁
 * 2p(p + 2)/(N + p + 8), fitted to simulated normal windows). The weights are the third cumulant's of
 * ‖x‖² for x of mean 0 and covariance I: 8p + 12 Σ κ_jjll + 4 Σ γ_jkl² + 6 Σ_l (Σ_j γ_jjl)² (sixth
 * cumulant left out). With independent coordinates they are the mean squared skewness and excess
 * kurtosis of the coordinates; the mean over Cholesky-whitened coordinates (before) read a mix of p + 1
 * skewed sources as less heavy-tailed than it is.
 */
export interface MvdRowShape {
  /** (4 (b₁ − E₀b₁) + 6 (b̃₁ − E₀b̃₁))/(10 p), kept ≥ 0. */
  readonly skewnessSquared: number;
  /** (b₂ − E₀b₂)/p, kept ≥ 0. */
  readonly excessKurtosis: number;
  /** Mardia's b₁ (0 when the window's covariance is singular, as the other two). */
  readonly mardiaSkewness: number;
  /** b̃₁ = ‖(1/N) Σᵢ rᵢᵢ uᵢ‖². */
  readonly skewnessVector: number;
  /** Mardia's b₂. */
  readonly mardiaKurtosis: number;
}

/**
 * The law of T²_mean under no change, fitted as λ (c χ²_f + δ) by its first three cumulants
 * (Pearson's three-moment fit): K₁ = tr A, K₂ = (2 + κ_d) tr A², K₃ = (8 + 12 κ_d + 10 γ_d²) tr A³,
 * c = K₃/(4 K₂), f = 8 K₂³/K₃², δ = K₁ − c f. A = S*⁻¹ S (the shrunk covariance the test uses
 * against the unshrunk training covariance, taken as the truth: with A = I the law is χ²_p, as
 * Hotelling's). γ_d² and κ_d are the squared skewness and excess kurtosis of the studentised mean
 * difference of n and m rows per coordinate, from the rows' (MvdRowShape: γ², κ; m and n the
 * effective sizes, over the VIF; the sixth cumulant left out):
 * γ_d = γ ((1/n² − 1/m²)/(1/n + 1/m)^{3/2} + 3/(m √(1/n + 1/m))), the mean difference's own
 * skewness and the training mean's covariance with the training variance (μ₃/m), which skews the
 * studentised difference about as much again; κ_d = κ ((1/n³ + 1/m³)/(1/n + 1/m)² + 3/m), the
 * mean difference's own and the training variance's noise beyond the normal's (var(s²)/σ⁴ =
 * (2 + κ)/m, the 2/m being Hotelling's F's). λ = 1 + κ/m: the inverse of a covariance estimated
 * from heavy-tailed rows is larger on average than the normal's, E[S⁻¹] ≈ Σ⁻¹ (1 + (p + 1)/m + κ/m)
 * (the (p + 1)/m is Hotelling's F's), so T² is read as (T² / λ). Measured (bench:detection, same
 * seeds) without the two covariance terms the lognormal cells stayed at 2.0–3.25 α at high.
 */
export interface MvdMeanTestLaw {
  /** λ c. */
  readonly scale: number;
  /** f. */
  readonly degrees: number;
  /** λ δ. */
  readonly offset: number;
  /** λ = 1 + κ/m. */
  readonly inflation: number;
  /** The rows' shape the law carries. */
  readonly shape: MvdRowShape;
}

/**
 * Fits MvdMeanTestLaw: `shrunkFactor` is S*'s Cholesky factor, `covariance` S, `shape` the rows'
 * (multivariateShape), m and n the effective sizes.
 */
export function mvdMeanTestLaw(
  shrunkFactor: Matrix,
  covariance: Matrix,
  shape: MvdRowShape,
  m: number,
  n: number,
): MvdMeanTestLaw {
  const p = shrunkFactor.rows;
  const factor = shrunkFactor;
  // A = S*⁻¹ S, column by column through S*'s Cholesky factor.
  const a = new Float64Array(p * p);
  const column = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    for (let i = 0; i < p; i++) column[i] = covariance.data[i * p + j] as number;
    const solved = choleskySolve(factor, column);
    for (let i = 0; i < p; i++) a[i * p + j] = solved[i] as number;
  }
  let trace1 = 0;
  let trace2 = 0;
  let trace3 = 0;
  const a2 = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    trace1 += a[i * p + i] as number;
    for (let j = 0; j < p; j++) {
      let s = 0;
      for (let k = 0; k < p; k++) s += (a[i * p + k] as number) * (a[k * p + j] as number);
      a2[i * p + j] = s;
    }
    trace2 += a2[i * p + i] as number;
  }
  for (let i = 0; i < p; i++)
    for (let k = 0; k < p; k++) trace3 += (a2[i * p + k] as number) * (a[k * p + i] as number);
  // The mean difference's shape from the rows'.
  const sizes = 1 / n + 1 / m;
  const skewFactor = (1 / (n * n) - 1 / (m * m)) / sizes ** 1.5 + 3 / (m * Math.sqrt(sizes));
  const skewnessSquared = shape.skewnessSquared * skewFactor * skewFactor;
  const excess = shape.excessKurtosis * ((1 / n ** 3 + 1 / m ** 3) / (sizes * sizes) + 3 / m);
  const k1 = trace1;
  const k2 = (2 + excess) * trace2;
  const k3 = (8 + 12 * excess + 10 * skewnessSquared) * trace3;
  const scale = k3 / (4 * k2);
  const degrees = (8 * k2 ** 3) / (k3 * k3);
  const inflation = 1 + shape.excessKurtosis / m;
  return {
    scale: inflation * scale,
    degrees,
    offset: inflation * (k1 - scale * degrees),
    inflation,
    shape,
  };
}

/**
 * MvdRowShape of a window's rows: training z (m × p) and evaluation y (n × p), signal-major. The
 * N = m + n rows are centred on their mean and whitened by the Cholesky factor of their covariance
 * (divisor N); b₁'s third-moment tensor is summed over j ≤ k ≤ l (N p(p + 1)(p + 2)/6
 * multiply-adds). A singular window covariance gives the normal shape (every field 0).
 */
export function multivariateShape(
  z: Float64Array,
  m: number,
  y: Float64Array,
  n: number,
  p: number,
): MvdRowShape {
  const count = m + n;
  // p whitened columns, then one scratch column for the products u_j u_k.
  const u = new Float64Array((p + 1) * count);
  for (let j = 0; j < p; j++) {
    u.set(z.subarray(j * m, (j + 1) * m), j * count);
    u.set(y.subarray(j * n, (j + 1) * n), j * count + m);
  }
  centreColumnsInPlace(u, count, p);
  const gram = gramOfColumns(u, count, p);
  let factor: Matrix;
  try {
    factor = choleskyDecompose(
      createMatrix(
        p,
        p,
        gram.map((c) => c / count),
      ),
    );
  } catch (error) {
    if (error instanceof StatsError && error.code === "NOT_POSITIVE_DEFINITE") {
      return {
        skewnessSquared: 0,
        excessKurtosis: 0,
        mardiaSkewness: 0,
        skewnessVector: 0,
        mardiaKurtosis: 0,
      };
    }
    throw error;
  }
  // Whiten: u = L⁻¹ x, the p columns in place (the scratch column after them is left alone).
  choleskyForwardColumns(factor, u.subarray(0, p * count), count);
  const norms = new Float64Array(count);
  for (let j = 0; j < p; j++) {
    const start = j * count;
    for (let r = 0; r < count; r++) norms[r] = (norms[r] as number) + (u[start + r] as number) ** 2;
  }
  let kurtosis = 0;
  for (let r = 0; r < count; r++) kurtosis += (norms[r] as number) ** 2;
  kurtosis /= count;
  let skewnessVector = 0;
  for (let j = 0; j < p; j++) {
    let s = 0;
    const start = j * count;
    for (let r = 0; r < count; r++) s += (norms[r] as number) * (u[start + r] as number);
    skewnessVector += (s / count) ** 2;
  }
  // b₁ = Σ_jkl (mean of u_j u_k u_l)², over j ≤ k ≤ l with the multiplicity of each index set.
  const scratch = p * count;
  let skewness = 0;
  for (let j = 0; j < p; j++) {
    const sj = j * count;
    for (let k = j; k < p; k++) {
      const sk = k * count;
      for (let r = 0; r < count; r++) u[scratch + r] = (u[sj + r] as number) * (u[sk + r] as number);
      // Σ over l ≥ k of (mean u_j u_k u_l)²: the l = k term, then the l > k terms (multiplicity 3
      // when j = k, else 6), four columns a pass so each product is loaded once for four sums.
      const first = dotOf(u, scratch, k * count, count) / count;
      skewness += (j === k ? 1 : 3) * first * first;
      const weight = j === k ? 3 : 6;
      let q = k + 1;
      for (; q + 3 < p; q += 4) {
        const q0 = q * count;
        const q1 = q0 + count;
        const q2 = q1 + count;
        const q3 = q2 + count;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let r = 0; r < count; r++) {
          const v = u[scratch + r] as number;
          s0 += v * (u[q0 + r] as number);
          s1 += v * (u[q1 + r] as number);
          s2 += v * (u[q2 + r] as number);
          s3 += v * (u[q3 + r] as number);
        }
        skewness += (weight * (s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3)) / (count * count);
      }
      for (; q < p; q++) {
        const mean = dotOf(u, scratch, q * count, count) / count;
        skewness += weight * mean * mean;
      }
    }
  }
  const normalSkewness = (p * (p + 2) * ((count + 1) * (p + 1) - 6)) / ((count + 1) * (count + 3));
  const normalVector = (2 * p * (p + 2)) / (count + p + 8);
  const normalKurtosis = (p * (p + 2) * (count - 1)) / (count + 1);
  return {
    skewnessSquared: Math.max(
      0,
      (4 * (skewness - normalSkewness) + 6 * (skewnessVector - normalVector)) / (10 * p),
    ),
    excessKurtosis: Math.max(0, (kurtosis - normalKurtosis) / p),
    mardiaSkewness: skewness,
    skewnessVector,
    mardiaKurtosis: kurtosis,
  };
}

/**
 * T² of each training row against the mean and S* of the other folds (contiguous blocks of rows in
 * record order, so neighbouring alike records do not sit on both sides). `columns` is m × p
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
  const out = new Float64Array(m);
  const evaluationOut = new Float64Array(n);
  const fullGram = gramOfColumns(columns, m, p);
  const fullSums = new Float64Array(p);
  for (let j = 0; j < p; j++) fullSums[j] = sumOf(columns, j * m, m);
  const rowSquares = new Float64Array(m);
  for (let fold = 0; fold < MVD_CROSS_VALIDATION_FOLDS; fold++) {
    const a = Math.floor((fold * m) / MVD_CROSS_VALIDATION_FOLDS);
    const b = Math.floor(((fold + 1) * m) / MVD_CROSS_VALIDATION_FOLDS);
    const foldCount = b - a;
    const restCount = m - foldCount;
    const evaluationCount = fold < n ? Math.floor((n - 1 - fold) / MVD_CROSS_VALIDATION_FOLDS) + 1 : 0;
    if (foldCount === 0 && evaluationCount === 0) continue;
    const held = new Float64Array(foldCount * p);
    for (let j = 0; j < p; j++) held.set(columns.subarray(j * m + a, j * m + b), j * foldCount);
    const foldGram = gramOfColumns(held, foldCount, p);
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
    // Σᵢ (Σⱼ (zᵢⱼ − μⱼ)²)² over the other folds' rows, for the shrinkage.
    rowSquares.fill(0);
    for (let j = 0; j < p; j++) {
      const start = j * m;
      const mu = restMeans[j] as number;
      for (let i = 0; i < m; i++) {
        const v = (columns[start + i] as number) - mu;
        rowSquares[i] = (rowSquares[i] as number) + v * v;
      }
    }
    let rowSquareSum = 0;
    for (let i = 0; i < m; i++) {
      if (i >= a && i < b) continue;
      rowSquareSum += (rowSquares[i] as number) * (rowSquares[i] as number);
    }
    const delta = shrinkageFromSums(rowSquareSum, gram, restCount, p);
    const shrunk = shrinkCovariance(
      createMatrix(
        p,
        p,
        gram.map((c) => c / (restCount - 1)),
      ),
      delta,
    );
    if (foldCount > 0) {
      for (let j = 0; j < p; j++) {
        const mu = restMeans[j] as number;
        for (let i = j * foldCount; i < (j + 1) * foldCount; i++) held[i] = (held[i] as number) - mu;
      }
      out.set(hotellingT2OfColumns(held, foldCount, shrunk).t2, a);
    }
    if (evaluationCount > 0) {
      // Evaluation rows fold, fold + 5, … against this fold's fit.
      const rows = new Float64Array(evaluationCount * p);
      for (let j = 0; j < p; j++) {
        const mu = restMeans[j] as number;
        for (let r = 0; r < evaluationCount; r++) {
          rows[j * evaluationCount + r] =
            (evaluation[j * n + fold + r * MVD_CROSS_VALIDATION_FOLDS] as number) - mu;
        }
      }
      const t2 = hotellingT2OfColumns(rows, evaluationCount, shrunk).t2;
      for (let r = 0; r < evaluationCount; r++) {
        evaluationOut[fold + r * MVD_CROSS_VALIDATION_FOLDS] = t2[r] as number;
      }
    }
  }
  return { training: out, evaluation: evaluationOut };
}
