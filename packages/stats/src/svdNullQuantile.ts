import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { sampleStandardDeviation } from "./descriptive.js";
import { normalUpperQuantile } from "./distributions.js";
import { StatsError } from "./statsError.js";

/**
 * E ∫|B(Φ(x))| dx = √(2/π) ∫ √(Φ(x)(1 − Φ(x))) dx for the standard normal Φ (B a Brownian
 * bridge): the mean of the limit law of √n_eff · W₁ / σ whose (1 − α) quantiles are the SVD k of
 * the table. The integral, 1.6147438534296692, is SciPy `quad` to 1e-14.
 */
export const NORMAL_BRIDGE_MEAN = Math.sqrt(2 / Math.PI) * 1.6147438534296692;

/**
 * E ∫|B(F̂(x))| dx / s for the training values' empirical distribution F̂, relative to the normal:
 * √(2/π) Σᵢ √(tᵢ (1 − tᵢ)) (x₍ᵢ₊₁₎ − x₍ᵢ₎) / s / NORMAL_BRIDGE_MEAN with tᵢ = i/m (F̂ is a step
 * function, so the integral is this sum exactly, E|B(t)| = √(2/π) √(t(1 − t))). About 1 for
 * normal data; it is what the shape of the data (skew, heavy tails) does to the null distribution's
 * scale. Throws TOO_FEW_VALUES (< 2 values) and INVALID_ARGUMENT for constant values.
 */
export function bridgeMeanRatio(training: ArrayLike<number>): number {
  const s = sampleStandardDeviation(training);
  if (!(s > 0)) throw new StatsError("INVALID_ARGUMENT", "the bridge ratio needs values that vary");
  const x = Float64Array.from(training).sort();
  const m = x.length;
  let sum = 0;
  for (let i = 1; i < m; i++) {
    const t = i / m;
    sum += Math.sqrt(t * (1 - t)) * ((x[i] as number) - (x[i - 1] as number));
  }
  return (Math.sqrt(2 / Math.PI) * sum) / s / NORMAL_BRIDGE_MEAN;
}

/** normalReferenceRatio by size: a few window sizes per plant, each computed once. */
const referenceRatios = new Map<number, number>();

/**
 * bridgeMeanRatio of the normal's expected sample of m values (Blom scores
 * Φ⁻¹((i − 0.375)/(m + 0.25))): what a normal sample of that size gives, below 1 because m values
 * do not reach the tails (0.94 for m = 75, 0.99 for m = 2400). Dividing by it keeps a normal
 * training set of any size at the k of the table.
 */
export function normalReferenceRatio(m: number): number {
  if (!Number.isInteger(m) || m < 2)
    throw new StatsError("INVALID_ARGUMENT", `m must be an integer ≥ 2, got ${m}`);
  let ratio = referenceRatios.get(m);
  if (ratio === undefined) {
    const scores = Float64Array.from(
      { length: m },
      (_, i) => -normalUpperQuantile((i + 1 - 0.375) / (m + 0.25)),
    );
    ratio = bridgeMeanRatio(scores);
    referenceRatios.set(m, ratio);
  }
  return ratio;
}

/**
 * q_α(F̂), the (1 − α) quantile of ∫|B(F̂(x))| dx / s (monitoring.md "SVD"), as
 * k_α · E_F̂ / E_Φ,m: the normal case's quantile (the k of the table) scaled by the law's mean
 * under the training data's own shape, relative to a normal sample of the same size. Exact for the
 * normal; for skewed and heavy-tailed F̂ the mean carries the shape (a 20,000-draw simulation of
 * the functional differs by a few per cent, docs/decisions.md). Deterministic, one sort, no cache
 * per monitor.
 */
export function svdNullQuantile(training: ArrayLike<number>, alertThreshold: AlertThreshold): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  return (level.svdK * bridgeMeanRatio(training)) / normalReferenceRatio(training.length);
}
