import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { type Dependence, estimateDependence } from "./dependence.js";
import { mean, sampleShape, sampleStandardDeviation } from "./descriptive.js";
import { vifWidening } from "./distributions.js";
import { type EvaluatedState, finiteValues, type NoDataEvaluation, noData } from "./evaluation.js";
import { StatsError } from "./statsError.js";
import {
  bridgeMeanRatio,
  changesSign,
  dispersionRatio,
  normalGridReference,
  normalReferenceRatio,
  simulatedDependenceFactor,
  svdDependenceFactor,
} from "./svdNullQuantile.js";
import { valueGrid } from "./valueGrid.js";
import { wassersteinDistance } from "./wassersteinDistance.js";
import { MIN_EVALUATION_RECORDS, MIN_SVD_TRAINING_RECORDS } from "./windowMinimums.js";

/** Threshold floor (docs/monitoring.md "SVD"): a move of less than a tenth of a σ is not worth an alert. */
export const MIN_SVD_THRESHOLD = 0.1;

export interface SvdCalibratedEvaluation {
  readonly state: EvaluatedState;
  /** W̃ > threshold. */
  readonly breach: boolean;
  /** W̃ = W₁ / s, in training standard deviations. */
  readonly score: number;
  /** max(q_α(F̂) · dependenceFactor · widening / √n_eff, 0.1). */
  readonly threshold: number;
  /** True when the 0.1 floor decided the threshold. */
  readonly isThresholdFloored: boolean;
  readonly alpha: number;
  /** q_α(F̂): the null quantile from the training data's own shape (svdNullQuantile). */
  readonly nullQuantile: number;
  /**
   * E_F̂ / E_Φ,m of the null law: about 1 for normal data, what skew and tails do to the threshold
   * (values on a grid: against the normal sample read on that grid, normalGridReference).
   */
  readonly shapeRatio: number;
  /**
   * (1 + c_α CV_F̂) / (1 + c_α CV_Φ,m): the null law's quantile-to-mean ratio under the training
   * data's shape relative to a normal sample of the same size (below 1 for heavy tails).
   */
  readonly dispersionRatio: number;
  /** The training values' variance inflation factor (the AR order they choose, a cycle allowed for; ≥ 1): "neighbouring parts are alike". */
  readonly vif: number;
  /** The AR order the training values chose (0: independent; estimateDependence). */
  readonly arOrder: number;
  /** m / VIF (before the VIF's cap): how many independent values the training set is worth. */
  readonly effectiveSize: number;
  /** The training values' dependence as estimated (levelSupport reads it). */
  readonly dependence: Dependence;
  /**
   * What the autocorrelation does to the threshold (svdDependenceFactor): the null law under the
   * AR(1) fit's dependent kernel against the independent one, 1 without autocorrelation; below √VIF
   * (about 1.64 where √VIF is 1.73 at ρ 0.5). For a fit whose autocorrelations change sign (no
   * periodic component) the two laws' quantiles are simulated (simulatedDependenceFactor).
   */
  readonly dependenceFactor: number;
  /** Kurtosis (3 + bias-adjusted excess) of the training and evaluation values together, kept ≥ 3. */
  readonly kurtosis: number;
  /**
   * ν of the threshold: 1/ν = 1/ν_VIF + (κ − 1)(1 + ρ²)/(2(m − 1)(1 − ρ²)) + 4ρ/(m(1 − ρ²)), the
   * uncertainty of the VIF, of s (fewer degrees for alike neighbours) and their covariance.
   */
  readonly degrees: number;
  /** t_{ν,1−α/2}/z_{1−α/2}: what estimating the VIF and s costs the threshold. */
  readonly vifWidening: number;
  /** W₁ in the signal's units. */
  readonly w1: number;
  /** s, the training sample sd (n − 1), in the signal's units. */
  readonly scale: number;
  /** m·n / (m + n). */
  readonly nEff: number;
  readonly m: number;
  readonly n: number;
  readonly trainingMean: number;
  readonly trainingSd: number;
  readonly evaluationMean: number;
  readonly evaluationSd: number;
  readonly leftOut: { readonly training: readonly number[]; readonly evaluation: readonly number[] };
}

/**
 * ν of the threshold: 1/ν = 1/ν_VIF + (κ − 1) Σ₂/(2(m − 1)) (+ 4ρ/(m(1 − ρ²)) for an AR(1)),
 * Σ₂ = 1 + 2 Σₖ ρ(k)² (the variance of s² grows by it; (1 + ρ²)/(1 − ρ²) for an AR(1)). For an
 * AR(1) ρ̂ and s move together (Cov(ρ̂, ln s) = ρ/m, and ln √VIF moves 1/(1 − ρ²) per unit of ρ̂);
 * for higher orders that covariance has no such closed form and is left out (their ν_VIF already
 * carries every coefficient's uncertainty). Independent data: 2(m − 1)/(κ − 1).
 */
export function svdThresholdDegrees(dependence: Dependence, kurtosis: number, m: number): number {
  const acf = dependence.autocorrelations;
  if (dependence.periodic !== null)
    // A periodic component: the residuals' VIF ν and the second moment's own VIF.
    return 1 / (1 / dependence.degrees + ((kurtosis - 1) * dependence.secondMomentVif) / (2 * (m - 1)));
  if (dependence.order === 0 || acf.length === 0) return (2 * (m - 1)) / (kurtosis - 1);
  if (dependence.order === 1) {
    const rho = dependence.coefficients[0] as number;
    return (
      1 /
      (1 / dependence.degrees +
        ((kurtosis - 1) * (1 + rho * rho)) / (2 * (m - 1) * (1 - rho * rho)) +
        (4 * rho) / (m * (1 - rho * rho)))
    );
  }
  let sumSquares = 0;
  for (let k = 0; k < acf.length; k++) sumSquares += (acf[k] as number) ** 2;
  return 1 / (1 / dependence.degrees + ((kurtosis - 1) * (1 + 2 * sumSquares)) / (2 * (m - 1)));
}

/**
 * The threshold's parts before the floor, for m training and n evaluation values whose training
 * values are `training` (their shape and, in record order, their dependence), the kurtosis read on
 * `training` and `evaluation` together.
 */
function svdThresholdParts(
  training: ArrayLike<number>,
  evaluation: ArrayLike<number>,
  dependence: Dependence,
  m: number,
  n: number,
  alertThreshold: AlertThreshold,
) {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold] as (typeof ALERT_THRESHOLD_LEVELS)[AlertThreshold];
  // Values read on a grid (a gauge's resolution) are judged against a normal sample of their size
  // read on the same grid: ties change the law's mean and CV as read on F̂, and the normal's alike
  // (docs/decisions/0304-svd-pseudo-cycle-law-simulated.md). Off a grid: the continuous reference.
  const grid = valueGrid(training);
  const reference = grid === null ? null : normalGridReference(training, grid);
  const shapeRatio =
    bridgeMeanRatio(training) /
    (reference === null ? normalReferenceRatio(training.length) : bridgeMeanRatio(reference));
  const dispersion = dispersionRatio(training, alertThreshold, reference);
  const nullQuantile = level.svdK * shapeRatio * dispersion;
  // The dependence: the null law under the fit's own kernel (the indicators of alike neighbours
  // are less alike than the values), not the mean's √VIF (docs/decisions/0133-svd-dependent-kernel.md).
  // Never narrower than for independent data: a high order the criterion picks by chance on
  // independent values can put the factor below 1. With a periodic component, never narrower than
  // its residuals alone (√ of their share of the variance): whole periods leave both windows'
  // distributions alike.
  // An AR fit whose autocorrelations change sign (a pseudo-cycle) has its law's quantile simulated:
  // the mean-and-CV reading's slopes were fitted on AR(1) laws and read a cycle's quantile too high
  // (docs/decisions/0304-svd-pseudo-cycle-law-simulated.md). Non-negative autocorrelations and a
  // periodic component keep that reading unchanged.
  const acf = dependence.autocorrelations;
  const dependenceFactor = Math.max(
    Math.sqrt(dependence.vifFloor),
    dependence.periodic === null && changesSign(acf)
      ? simulatedDependenceFactor(training, acf, n, alertThreshold)
      : svdDependenceFactor(training, acf, n, alertThreshold),
  );
  // Two estimates divide the score: s, with ν = 2(m − 1)/(κ − 1) degrees of freedom (m − 1 for
  // normal independent data, fewer for heavy tails), and the dependence fit. Pay for both as a
  // t-test pays for an estimated variance.
  // κ of training and evaluation values together, bias-adjusted (the training values' own,
  // biased kurtosis missed the tail 25 skewed evaluation values reach: lognormal 100 × 0.25 4.25 α
  // at high), kept ≥ 3.
  const kurtosis = Math.max(3, sampleShape([...Array.from(training), ...Array.from(evaluation)]).kurtosis);
  const degrees = svdThresholdDegrees(dependence, kurtosis, m);
  const widening = vifWidening(degrees, level.alpha);
  const nEff = (m * n) / (m + n);
  const raw = (nullQuantile * dependenceFactor * widening) / Math.sqrt(nEff);
  return { nullQuantile, shapeRatio, dispersion, dependenceFactor, kurtosis, degrees, widening, raw };
}

/**
 * What an SVD monitor's threshold would be, before its floor, for a window of m training and n
 * evaluation records of a signal like `values` (a stretch of its history in record order, the
 * monitor form's preview period): the training values' shape and dependence read on the stretch,
 * the window's own m and n for n_eff and the widening. Below MIN_SVD_THRESHOLD the floor decides and
 * the level's α is not what the monitor holds (levelSupport "floor"). Null for fewer than 4 values
 * or a constant stretch.
 */
export function svdExpectedThreshold(
  values: ArrayLike<number>,
  m: number,
  n: number,
  alertThreshold: AlertThreshold,
  dependence: Dependence = estimateDependence(values, undefined, { periodic: true }),
): number | null {
  if (values.length < 4 || !(sampleStandardDeviation(values) > 0) || m < 2 || n < 1) return null;
  return svdThresholdParts(values, [], dependence, m, n, alertThreshold).raw;
}

/**
 * SVD (WASSERSTEIN) evaluation with the threshold taken from the training data (docs/monitoring.md
 * "Sensitivity", "SVD"): W̃ = W₁ / s against max(q_α(F̂) · f_ρ / √n_eff, 0.1), where q_α(F̂)
 * carries the data's shape and f_ρ (svdDependenceFactor) its autocorrelation, widened by t/z for
 * the uncertainty of s and of the AR(1) fit. NO_DATA when training < 10 or evaluation < 25
 * values remain, or for constant training values ("constant signal"; the training sd is 0 exactly
 * when every value is equal, and then the MAD is 0 too). (The uncorrected method, evaluateSvd, was
 * removed in issue 29.)
 */
export function evaluateSvdCalibrated(
  training: ArrayLike<number>,
  evaluation: ArrayLike<number>,
  alertThreshold: AlertThreshold,
): SvdCalibratedEvaluation | NoDataEvaluation {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const train = finiteValues(training);
  const ev = finiteValues(evaluation);
  const m = train.values.length;
  const n = ev.values.length;
  if (m < MIN_SVD_TRAINING_RECORDS) {
    return noData(
      "TRAINING_TOO_SMALL",
      `training set has ${m} values; SVD needs at least ${MIN_SVD_TRAINING_RECORDS}`,
    );
  }
  if (n < MIN_EVALUATION_RECORDS) {
    return noData(
      "EVALUATION_TOO_SMALL",
      `evaluation set has ${n} values; at least ${MIN_EVALUATION_RECORDS} are needed`,
    );
  }
  const scale = sampleStandardDeviation(train.values);
  if (scale === 0) return noData("CONSTANT_SIGNAL", "constant signal");

  const w1 = wassersteinDistance(train.values, ev.values);
  const score = w1 / scale;
  const nEff = (m * n) / (m + n);
  // The dependence reads the values in record order (finiteValues keeps it): the AR order the
  // data chooses (estimateDependence), so a cycle or a second-order process is represented, and an
  // AR(1) is treated as before.
  // From MIN_PERIODIC_RECORDS values a periodic component is looked for first: a slow cycle is
  // then the sine plus its residuals' AR process, not a strong dependence at frequency 0.
  const dependence = estimateDependence(train.values, undefined, { periodic: true });
  const vif = dependence.vif;
  const { nullQuantile, shapeRatio, dispersion, dependenceFactor, kurtosis, degrees, widening, raw } =
    svdThresholdParts(train.values, ev.values, dependence, m, n, alertThreshold);
  const threshold = Math.max(raw, MIN_SVD_THRESHOLD);
  const breach = score > threshold;
  return {
    state: breach ? "BREACH" : "OK",
    breach,
    score,
    threshold,
    isThresholdFloored: raw < MIN_SVD_THRESHOLD,
    alpha: level.alpha,
    nullQuantile,
    shapeRatio,
    dispersionRatio: dispersion,
    vif,
    arOrder: dependence.order,
    effectiveSize: dependence.effectiveSize,
    dependence,
    dependenceFactor,
    kurtosis,
    degrees,
    vifWidening: widening,
    w1,
    scale,
    nEff,
    m,
    n,
    trainingMean: mean(train.values),
    trainingSd: scale,
    evaluationMean: mean(ev.values),
    evaluationSd: sampleStandardDeviation(ev.values),
    leftOut: { training: train.leftOut, evaluation: ev.leftOut },
  };
}
