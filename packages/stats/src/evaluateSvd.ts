import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { mean, medianAbsoluteDeviation, sampleStandardDeviation } from "./descriptive.js";
import { type EvaluatedState, finiteValues, type NoDataEvaluation, noData } from "./evaluation.js";
import { StatsError } from "./statsError.js";
import { wassersteinDistance } from "./wassersteinDistance.js";
import { MIN_EVALUATION_RECORDS, MIN_SVD_TRAINING_RECORDS } from "./windowMinimums.js";

/** 1.4826 × MAD estimates σ for normal data (monitoring.md "SVD", scale fallback). */
const MAD_TO_SIGMA = 1.4826;
/** Threshold floor: below it a distance is too small to matter whatever the sample sizes. */
const MIN_SVD_THRESHOLD = 0.1;

export interface SvdEvaluation {
  readonly state: EvaluatedState;
  /** W̃ > threshold. */
  readonly breach: boolean;
  /** W̃ = W₁ / scale, in training standard deviations (a pure mean shift of d σ gives about d). */
  readonly score: number;
  /** max(k / √n_eff, 0.1). */
  readonly threshold: number;
  /** W₁ in the signal's units. */
  readonly w1: number;
  /** The divisor of W₁, in the signal's units. */
  readonly scale: number;
  /** "sd" = training sample sd (n − 1); "mad" = 1.4826 × MAD because the sd was 0. */
  readonly scaleSource: "sd" | "mad";
  /** The alert-threshold constant k (2.1 / 2.7 / 3.4). */
  readonly k: number;
  /** m·n / (m + n). */
  readonly nEff: number;
  /** Training records used. */
  readonly m: number;
  /** Evaluation records used. */
  readonly n: number;
  readonly trainingMean: number;
  readonly trainingSd: number;
  readonly evaluationMean: number;
  readonly evaluationSd: number;
  /** Indices of missing or non-finite values that were left out (monitoring.md "The window"). */
  readonly leftOut: { readonly training: readonly number[]; readonly evaluation: readonly number[] };
}

/**
 * SVD (WASSERSTEIN) evaluation of one signal, exactly monitoring.md "SVD": W̃ = W₁(training,
 * evaluation) / scale against max(k/√n_eff, 0.1). Missing or non-finite values are left out and
 * listed. NO_DATA when training < 10 or evaluation < 25 values remain (TRAINING_TOO_SMALL,
 * EVALUATION_TOO_SMALL) or when both the sd and the MAD of the training set are 0
 * (CONSTANT_SIGNAL, reason "constant signal").
 */
export function evaluateSvd(
  training: ArrayLike<number>,
  evaluation: ArrayLike<number>,
  alertThreshold: AlertThreshold,
): SvdEvaluation | NoDataEvaluation {
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

  const trainingSd = sampleStandardDeviation(train.values);
  let scale = trainingSd;
  let scaleSource: "sd" | "mad" = "sd";
  if (scale === 0) {
    scale = MAD_TO_SIGMA * medianAbsoluteDeviation(train.values);
    scaleSource = "mad";
  }
  // sampleStandardDeviation is exactly 0 only when every training value is equal, and then the MAD
  // is 0 as well: the MAD step is kept because the spec defines it, but it cannot rescue a scale.
  if (scale === 0) return noData("CONSTANT_SIGNAL", "constant signal");

  const w1 = wassersteinDistance(train.values, ev.values);
  const score = w1 / scale;
  const nEff = (m * n) / (m + n);
  const threshold = Math.max(level.svdK / Math.sqrt(nEff), MIN_SVD_THRESHOLD);
  const breach = score > threshold;
  return {
    state: breach ? "BREACH" : "OK",
    breach,
    score,
    threshold,
    w1,
    scale,
    scaleSource,
    k: level.svdK,
    nEff,
    m,
    n,
    trainingMean: mean(train.values),
    trainingSd,
    evaluationMean: mean(ev.values),
    evaluationSd: sampleStandardDeviation(ev.values),
    leftOut: { training: train.leftOut, evaluation: ev.leftOut },
  };
}
