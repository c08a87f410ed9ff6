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
  return (
    (level.svdK * bridgeMeanRatio(training) * dispersionRatio(training, alertThreshold)) /
    normalReferenceRatio(training.length)
  );
}

/**
 * Coefficient of variation of ∫|B(Φ(x))| dx (B a Brownian bridge, Φ the standard normal): its sd,
 * 0.44539959825249, over its mean. SciPy/NumPy double sum on a 6,001-point grid over ±9.
 */
export const NORMAL_BRIDGE_CV = 0.34570536537021;

/** Blocks of the variance's double sum beyond this many steps (logit-spaced, fine in the tails). */
const BRIDGE_CV_BLOCKS = 120;

/**
 * Coefficient of variation (sd / mean) of ∫|B(F̂(x))| dx for the training values' empirical
 * distribution F̂: Var = Σᵢ Σⱼ Δx₍ᵢ₎ Δx₍ⱼ₎ Cov(|B(tᵢ)|, |B(tⱼ)|), where for a bivariate normal with
 * correlation ρ, Cov(|X|, |Y|) = (2/π) σₓ σᵧ (√(1 − ρ²) + ρ arcsin ρ − 1) and
 * ρ = √(tᵢ (1 − tⱼ) / (tⱼ (1 − tᵢ))) for tᵢ ≤ tⱼ. Scale-free. Beyond BRIDGE_CV_BLOCKS steps the
 * steps are merged into blocks evenly spaced in logit(t) (each block: total Δx, Δx-weighted t and
 * √(t(1 − t))). Heavy tails put more of the law's weight where the bridge is nearly independent of
 * the centre, so its CV is below the normal's 0.346 (t₅: about 0.31).
 */
export function bridgeLawCv(training: ArrayLike<number>): number {
  const x = Float64Array.from(training).sort();
  const m = x.length;
  if (m < 2) throw new StatsError("TOO_FEW_VALUES", "the bridge law needs at least 2 values");
  // Block edges over the step indices 1..m − 1.
  const edges: number[] = [1];
  if (m - 1 > BRIDGE_CV_BLOCKS) {
    const top = Math.log(m - 1);
    for (let k = 1; k < BRIDGE_CV_BLOCKS; k++) {
      const u = -top + (2 * top * k) / BRIDGE_CV_BLOCKS;
      const index = Math.round(m / (1 + Math.exp(-u)));
      if (index > (edges[edges.length - 1] as number) && index < m) edges.push(index);
    }
  } else {
    for (let i = 2; i < m; i++) edges.push(i);
  }
  edges.push(m);
  const weight: number[] = [];
  const tBlock: number[] = [];
  const sigma: number[] = [];
  let mean = 0;
  for (let b = 0; b + 1 < edges.length; b++) {
    let w = 0;
    let wt = 0;
    let ws = 0;
    for (let i = edges[b] as number; i < (edges[b + 1] as number); i++) {
      const d = (x[i] as number) - (x[i - 1] as number);
      const t = i / m;
      w += d;
      wt += d * t;
      ws += d * Math.sqrt(t * (1 - t));
    }
    if (w > 0) {
      weight.push(w);
      tBlock.push(wt / w);
      sigma.push(ws / w);
      mean += ws;
    }
  }
  if (!(mean > 0)) throw new StatsError("INVALID_ARGUMENT", "the bridge law needs values that vary");
  mean *= Math.sqrt(2 / Math.PI);
  let variance = 0;
  const count = weight.length;
  for (let a = 0; a < count; a++) {
    const ta = tBlock[a] as number;
    const wa = (weight[a] as number) * (sigma[a] as number);
    variance += wa * wa * (1 - 2 / Math.PI);
    for (let b = a + 1; b < count; b++) {
      const tb = tBlock[b] as number;
      const rho = Math.sqrt((ta * (1 - tb)) / (tb * (1 - ta)));
      const c = Math.sqrt(Math.max(0, 1 - rho * rho)) + rho * Math.asin(Math.min(1, rho)) - 1;
      variance += 2 * wa * (weight[b] as number) * (sigma[b] as number) * (2 / Math.PI) * c;
    }
  }
  return Math.sqrt(variance) / mean;
}

/** bridgeLawCv of the normal's expected sample of m values (Blom scores), by size. */
const referenceCvs = new Map<number, number>();

export function normalReferenceCv(m: number): number {
  if (!Number.isInteger(m) || m < 2)
    throw new StatsError("INVALID_ARGUMENT", `m must be an integer ≥ 2, got ${m}`);
  let cv = referenceCvs.get(m);
  if (cv === undefined) {
    const scores = Float64Array.from(
      { length: m },
      (_, i) => -normalUpperQuantile((i + 1 - 0.375) / (m + 0.25)),
    );
    cv = bridgeLawCv(scores);
    referenceCvs.set(m, cv);
  }
  return cv;
}

/**
 * (1 + c_α CV_F̂) / (1 + c_α CV_Φ,m), c_α = (k_α / NORMAL_BRIDGE_MEAN − 1) / NORMAL_BRIDGE_CV: the
 * null law's (1 − α) quantile read as mean × (1 + c_α CV), c_α fitted so the normal gives the k of
 * the table. The mean ratio alone carried the normal's quantile-to-mean ratio to every shape: on t₅
 * the law is less dispersed (CV 0.31 against 0.35) and 3000 × 0.2 breached 0.40 α at medium.
 */
export function dispersionRatio(training: ArrayLike<number>, alertThreshold: AlertThreshold): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const c = (level.svdK / NORMAL_BRIDGE_MEAN - 1) / NORMAL_BRIDGE_CV;
  return (1 + c * bridgeLawCv(training)) / (1 + c * normalReferenceCv(training.length));
}
