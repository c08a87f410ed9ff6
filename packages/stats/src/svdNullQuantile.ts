import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { fittedAutocorrelations } from "./dependence.js";
import { mean as sampleMean, sampleStandardDeviation } from "./descriptive.js";
import { normalDensity, normalUpperQuantile } from "./distributions.js";
import { seededUniform } from "./seededUniform.js";
import { StatsError } from "./statsError.js";
import type { ValueGrid } from "./valueGrid.js";

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
 * q_α(F̂), the (1 − α) quantile of ∫|B(F̂(x))| dx / s (docs/monitoring.md "SVD"), as
 * k_α · E_F̂ / E_Φ,m: the normal case's quantile (the k of the table) scaled by the law's mean
 * under the training data's own shape, relative to a normal sample of the same size. Exact for the
 * normal; for skewed and heavy-tailed F̂ the mean carries the shape (a 20,000-draw simulation of
 * the functional differs by a few per cent,
 * docs/decisions/0094-svd-null-quantile-from-the-training-data-s-law.md). Deterministic, one sort, no cache
 * per monitor. With the training values' `grid` (valueGrid), the normal sample they are judged
 * against is read on that grid too (normalGridReference); null: the continuous one.
 */
export function svdNullQuantile(
  training: ArrayLike<number>,
  alertThreshold: AlertThreshold,
  grid: ValueGrid | null = null,
): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const reference = grid === null ? null : normalGridReference(training, grid);
  return (
    (level.svdK * bridgeMeanRatio(training) * dispersionRatio(training, alertThreshold, reference)) /
    (reference === null ? normalReferenceRatio(training.length) : bridgeMeanRatio(reference))
  );
}

/**
 * The normal's expected sample of the training values' size (Blom scores) at their mean and sd,
 * read on their grid (each score rounded to the nearest origin + k · step): the reference a gauge's
 * readings are judged against. The law's mean and CV read on tied values are those of a few steps
 * (a 0.5 σ gauge: 8–10 distinct values of 25), and a normal sample of the same size read at the
 * same resolution has them too; against the continuous reference the ties raised the CV's
 * reading about 2 % and a 0.5 σ gauge at 25 + 25 breached 0.74α at medium
 * (docs/decisions/0304-svd-pseudo-cycle-law-simulated.md). Null when the rounded scores are
 * constant (a grid as coarse as the spread: the continuous reference stays).
 */
export function normalGridReference(training: ArrayLike<number>, grid: ValueGrid): Float64Array | null {
  const m = training.length;
  if (m < 2) throw new StatsError("TOO_FEW_VALUES", "the reference needs at least 2 values");
  if (!(grid.step > 0))
    throw new StatsError("INVALID_ARGUMENT", `the grid's step must be > 0, got ${grid.step}`);
  const centre = sampleMean(training);
  const sd = sampleStandardDeviation(training);
  const reference = Float64Array.from({ length: m }, (_, i) => {
    const value = centre - sd * normalUpperQuantile((i + 1 - 0.375) / (m + 0.25));
    return grid.origin + grid.step * Math.round((value - grid.origin) / grid.step);
  });
  return (reference[m - 1] as number) > (reference[0] as number) ? reference : null;
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
  const { weight, tBlock, sigma, mean } = bridgeBlocks(x, bridgeBlockEdges(m, BRIDGE_CV_BLOCKS), (t) =>
    Math.sqrt(t * (1 - t)),
  );
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

/**
 * The law's blocks over the sorted values x: each block's total step Δx, its Δx-weighted t = i/m and
 * sd(t), and the law's mean √(2/π) Σᵢ Δx₍ᵢ₎ sd(tᵢ). sd is the limit process's standard deviation at
 * t (the bridge's √(t(1 − t)), or a dependent kernel's).
 */
function bridgeBlocks(
  x: Float64Array,
  edges: number[],
  sd: (t: number) => number,
): { weight: number[]; tBlock: number[]; sigma: number[]; mean: number } {
  const m = x.length;
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
      if (d === 0) continue;
      const t = i / m;
      w += d;
      wt += d * t;
      ws += d * sd(t);
    }
    if (w > 0) {
      weight.push(w);
      tBlock.push(wt / w);
      sigma.push(ws / w);
      mean += ws;
    }
  }
  if (!(mean > 0)) throw new StatsError("INVALID_ARGUMENT", "the bridge law needs values that vary");
  return { weight, tBlock, sigma, mean: mean * Math.sqrt(2 / Math.PI) };
}

/** Block edges over the step indices 1 … m − 1: every step up to `blocks`, else logit-spaced. */
function bridgeBlockEdges(m: number, blocks: number): number[] {
  const edges: number[] = [1];
  if (m - 1 > blocks) {
    const top = Math.log(m - 1);
    for (let k = 1; k < blocks; k++) {
      const u = -top + (2 * top * k) / blocks;
      const index = Math.round(m / (1 + Math.exp(-u)));
      if (index > (edges[edges.length - 1] as number) && index < m) edges.push(index);
    }
  } else {
    for (let i = 2; i < m; i++) edges.push(i);
  }
  edges.push(m);
  return edges;
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
 * `reference`: the sample whose CV stands for the normal's (normalGridReference for values on a
 * grid); null: the normal's expected sample of the training values' size (normalReferenceCv).
 */
export function dispersionRatio(
  training: ArrayLike<number>,
  alertThreshold: AlertThreshold,
  reference: ArrayLike<number> | null = null,
): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const c = (level.svdK / NORMAL_BRIDGE_MEAN - 1) / NORMAL_BRIDGE_CV;
  const referenceCv = reference === null ? normalReferenceCv(training.length) : bridgeLawCv(reference);
  return (1 + c * bridgeLawCv(training)) / (1 + c * referenceCv);
}

/**
 * Slopes of the dependent limit law's (1 − α) quantile-to-mean ratio against its CV, by level:
 * fitted to 400,000 draws of the Gaussian process of √n_eff (F_m − G_n) of an AR(1) series
 * (ρ 0.2, 0.5, 0.8; m × n 75 × 25, 120 × 30, 2400 × 600), docs/decisions/0133-svd-dependent-kernel.md.
 * The independent bridge's c_α (dispersionRatio) is 1.82 / 3.17 / 4.74: it read the dependent law's
 * 95 % quantile 2 % low.
 */
export const AR1_BRIDGE_SLOPES: Readonly<Record<AlertThreshold, number>> = {
  low: 2.2,
  medium: 3.3,
  high: 4.6,
};

/**
 * Blocks of ar1BridgeLaw's double sum (each pair costs one Mehler series): 60 moves the factor by
 * at most 0.2 % from 120 (m 75–2400, ρ 0.3–0.9), a quarter of the work.
 */
const AR1_BRIDGE_BLOCKS = 60;

/** A Mehler term counts while ρˡ ≥ 1e-12; a lag while ρᵏ ≥ 1e-16. */
const MEHLER_TOLERANCE = 1e-12;

/**
 * Mean and CV of ∫|Z(x)| dx where Z is the limit of √n_eff (F_m − G_n) for m training values
 * followed by n evaluation values of one AR(1) series with coefficient ρ (Gaussian copula: the
 * indicators 1{xᵢ ≤ x} at lag k correlate through Φ₂(zₛ, zₜ; ρᵏ)). Its kernel is
 * Γ(s, t) = min(s, t) − s t + Σₖ wₖ (Φ₂(zₛ, zₜ; ρᵏ) − s t), z = Φ⁻¹, with the window's lag
 * weights wₖ = 2 n_eff ((m − k)₊/m² + (n − k)₊/n² − min(k, m, n, m + n − k)₊/(m n)) (the pairs at
 * lag k inside each block, less those across the blocks), summed through Mehler's series
 * Φ₂(a, b; r) − Φ(a)Φ(b) = Σₗ rˡ/l! φ(a)φ(b) Heₗ₋₁(a) Heₗ₋₁(b), so Σₖ wₖ (…) = Σₗ Sₗ hₗ(a) hₗ(b),
 * Sₗ = Σₖ wₖ ρᵏˡ. Mean = √(2/π) Σᵢ Δx₍ᵢ₎ √Γ(tᵢ, tᵢ); variance as bridgeLawCv's double sum with
 * the kernel's correlations (blocks as there, 60 of them). ρ = 0 is the bridge itself: the mean
 * of bridgeMeanRatio and, up to 60 steps, the CV of bridgeLawCv. Scale-free. The mean's VIF scales the
 * whole law by √((1 + ρ)/(1 − ρ)); the indicators of alike neighbours are less alike than the
 * values (most in the tails), so this law's mean grows less and its CV more.
 */
export function ar1BridgeLaw(
  training: ArrayLike<number>,
  coefficient: number,
  n: number,
): { mean: number; cv: number } {
  if (!(coefficient >= 0 && coefficient < 1))
    throw new StatsError("INVALID_ARGUMENT", `the AR(1) coefficient must lie in [0, 1), got ${coefficient}`);
  return dependentBridgeLaw(training, fittedAutocorrelations(coefficient > 0 ? [coefficient] : []), n);
}

/** Most Mehler terms a kernel is summed to (an AR(1) of 0.9 needs 263). */
const MAX_MEHLER_TERMS = 400;

/**
 * ar1BridgeLaw for any stationary dependence given by its autocorrelations ρ(1 …) (zero beyond the
 * array; an AR(p) fit's, estimateDependence): Φ₂(zₛ, zₜ; ρ(k)) in the kernel, Sₗ = Σₖ wₖ ρ(k)ˡ.
 * A cycle's negative ρ(k) enter with their sign. For ρ(k) = ρᵏ it is ar1BridgeLaw.
 */
export function dependentBridgeLaw(
  training: ArrayLike<number>,
  autocorrelations: ArrayLike<number>,
  n: number,
): { mean: number; cv: number } {
  const x = Float64Array.from(training).sort();
  const m = x.length;
  if (m < 2) throw new StatsError("TOO_FEW_VALUES", "the bridge law needs at least 2 values");
  if (!Number.isInteger(n) || n < 1)
    throw new StatsError("INVALID_ARGUMENT", `n must be an integer ≥ 1, got ${n}`);
  const { terms, mehler, hermite, kernelDiagonal } = dependentKernel(m, n, autocorrelations);
  const { weight, tBlock, sigma, mean } = bridgeBlocks(x, bridgeBlockEdges(m, AR1_BRIDGE_BLOCKS), (t) =>
    Math.sqrt(kernelDiagonal(t)),
  );
  const count = weight.length;
  const functions: Float64Array[] = [];
  const diagonal: number[] = [];
  for (let a = 0; a < count; a++) {
    diagonal.push(kernelDiagonal(tBlock[a] as number));
    // kernelDiagonal has just left the block's Mehler functions in `hermite`: keep a copy.
    functions.push(Float64Array.from(hermite));
  }
  let variance = 0;
  const scaled = new Float64Array(terms);
  for (let a = 0; a < count; a++) {
    const ta = tBlock[a] as number;
    const wa = (weight[a] as number) * (sigma[a] as number);
    const ha = functions[a] as Float64Array;
    for (let l = 0; l < terms; l++) scaled[l] = (mehler[l] as number) * (ha[l] as number);
    variance += wa * wa * (1 - 2 / Math.PI);
    for (let b = a + 1; b < count; b++) {
      const tb = tBlock[b] as number;
      const hb = functions[b] as Float64Array;
      let g = Math.min(ta, tb) - ta * tb;
      for (let l = 0; l < terms; l++) g += (scaled[l] as number) * (hb[l] as number);
      const rho = Math.min(1, g / Math.sqrt((diagonal[a] as number) * (diagonal[b] as number)));
      const c = Math.sqrt(Math.max(0, 1 - rho * rho)) + rho * Math.asin(rho) - 1;
      variance += 2 * wa * (weight[b] as number) * (sigma[b] as number) * (2 / Math.PI) * c;
    }
  }
  return { mean, cv: Math.sqrt(Math.max(0, variance)) / mean };
}

/**
 * The dependent bridge's kernel for m training and n evaluation values: the Mehler series' number
 * of terms and weights (mehlerWeights), and its diagonal g(t, t) = t(1 − t) + Σₗ Sₗ hₗ(t)², which
 * leaves the Mehler functions hₗ(t) of its last t in `hermite`.
 */
function dependentKernel(
  m: number,
  n: number,
  autocorrelations: ArrayLike<number>,
): { terms: number; mehler: Float64Array; hermite: Float64Array; kernelDiagonal: (t: number) => number } {
  const lags = Math.min(m + n - 1, autocorrelations.length);
  let largest = 0;
  for (let k = 0; k < lags; k++) largest = Math.max(largest, Math.abs(autocorrelations[k] as number));
  if (largest >= 1) throw new StatsError("INVALID_ARGUMENT", "autocorrelations must lie inside (−1, 1)");
  const terms =
    largest > 0 ? Math.min(MAX_MEHLER_TERMS, Math.ceil(Math.log(MEHLER_TOLERANCE) / Math.log(largest))) : 0;
  const mehler = mehlerWeights(m, n, autocorrelations, lags, terms);
  const hermite = new Float64Array(terms);
  const kernelDiagonal = (t: number): number => {
    let g = t * (1 - t);
    if (terms > 0) {
      mehlerFunctions(t, hermite);
      for (let l = 0; l < terms; l++) g += (mehler[l] as number) * (hermite[l] as number) ** 2;
    }
    return g;
  };
  return { terms, mehler, hermite, kernelDiagonal };
}

/** Sₗ = Σₖ wₖ ρ(k)ˡ for l = 1 … terms, wₖ the window's lag weights (ar1BridgeLaw). */
function mehlerWeights(
  m: number,
  n: number,
  autocorrelations: ArrayLike<number>,
  lags: number,
  terms: number,
): Float64Array {
  const out = new Float64Array(terms);
  if (terms === 0) return out;
  const nEff = (m * n) / (m + n);
  const lagWeight = new Float64Array(lags);
  const power = new Float64Array(lags);
  for (let k = 1; k <= lags; k++) {
    const within = Math.max(m - k, 0) / (m * m) + Math.max(n - k, 0) / (n * n);
    const across = Math.max(0, Math.min(k, m, n, m + n - k)) / (m * n);
    lagWeight[k - 1] = 2 * nEff * (within - across);
    power[k - 1] = 1;
  }
  for (let l = 1; l <= terms; l++) {
    let s = 0;
    for (let k = 0; k < lags; k++) {
      const next = (power[k] as number) * (autocorrelations[k] as number);
      power[k] = next;
      s += (lagWeight[k] as number) * next;
    }
    out[l - 1] = s;
  }
  return out;
}

/**
 * hₗ(t) = φ(z) Heₗ₋₁(z)/√(l!) at z = Φ⁻¹(t), l = 1 … out.length, through the normalised Hermite
 * recursion uⱼ₊₁ = (z uⱼ − √j uⱼ₋₁)/√(j + 1) (uⱼ = Heⱼ/√(j!)), hₗ = φ(z) uₗ₋₁/√l.
 */
function mehlerFunctions(t: number, out: Float64Array): void {
  const z = -normalUpperQuantile(t);
  const density = normalDensity(z);
  let previous = 0;
  let u = 1;
  for (let l = 1; l <= out.length; l++) {
    out[l - 1] = (density * u) / Math.sqrt(l);
    const next = (z * u - Math.sqrt(l - 1) * previous) / Math.sqrt(l);
    previous = u;
    u = next;
  }
}

/**
 * The threshold's factor for autocorrelation: the dependent law's (1 − α) quantile over the
 * independent one's for the same F̂, E_ρ (k_α/E_Φ + b_α (CV_ρ − CV_Φ)) / (E₀ (k_α/E_Φ + b_α (CV₀ − CV_Φ)))
 * (ar1BridgeLaw, b_α = AR1_BRIDGE_SLOPES), 1 at ρ = 0. It replaces √VIF: about 1.61 / 1.64 / 1.67
 * at low / medium / high for ρ 0.5 and 120 × 30, where √VIF is 1.73
 * (docs/decisions/0133-svd-dependent-kernel.md).
 */
export function svdDependenceFactor(
  training: ArrayLike<number>,
  dependence: number | ArrayLike<number>,
  n: number,
  alertThreshold: AlertThreshold,
): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  if (typeof dependence === "number" && !(dependence >= 0 && dependence < 1))
    throw new StatsError("INVALID_ARGUMENT", `the AR(1) coefficient must lie in [0, 1), got ${dependence}`);
  const autocorrelations =
    typeof dependence === "number" ? fittedAutocorrelations(dependence > 0 ? [dependence] : []) : dependence;
  if (autocorrelations.length === 0) return 1;
  const slope = AR1_BRIDGE_SLOPES[alertThreshold];
  const ratio = level.svdK / NORMAL_BRIDGE_MEAN;
  const dependent = dependentBridgeLaw(training, autocorrelations, n);
  const independent = dependentBridgeLaw(training, [], n);
  return (
    (dependent.mean * (ratio + slope * (dependent.cv - NORMAL_BRIDGE_CV))) /
    (independent.mean * (ratio + slope * (independent.cv - NORMAL_BRIDGE_CV)))
  );
}

/** Blocks of the simulated law (simulatedDependenceFactor): one Cholesky row each, 30 of them. */
const SIMULATED_LAW_BLOCKS = 30;
/** Fewest draws of the simulated law; at high 20/α = 20,000, so its quantile is the 20th largest draw. */
export const SIMULATED_LAW_DRAWS = 10_000;
/** Fixed seed: the same training values give the same threshold. */
const SIMULATED_LAW_SEED = 20261128;

/** True when an autocorrelation is negative: a fit with complex roots (a pseudo-cycle) or a negative root. */
export function changesSign(autocorrelations: ArrayLike<number>): boolean {
  for (let k = 0; k < autocorrelations.length; k++) if ((autocorrelations[k] as number) < 0) return true;
  return false;
}

/**
 * The block law of ∫|Z| dx for sorted values x under the kernel of `autocorrelations` (none: the
 * bridge), as dependentBridgeLaw builds it with `blocks` blocks: each block's weight Δx · sd and
 * the lower Cholesky factor of the blocks' correlation matrix (row-major, count × count; a
 * pivot below 1e-12 is kept at 1e-12, the kernel being a truncated series).
 */
function blockLaw(
  x: Float64Array,
  autocorrelations: ArrayLike<number>,
  n: number,
  blocks: number,
): { coefficient: Float64Array; cholesky: Float64Array; count: number } {
  const m = x.length;
  const { terms, mehler, hermite, kernelDiagonal } = dependentKernel(m, n, autocorrelations);
  // Each block's sd at its Δx-weighted t (dependentBridgeLaw averages the steps' sd: one Mehler
  // series a step, the cost of this simulation's setup at 2400 values, for a difference well
  // inside its noise).
  const { weight, tBlock } = bridgeBlocks(x, bridgeBlockEdges(m, blocks), () => 1);
  const count = weight.length;
  const functions: Float64Array[] = [];
  const diagonal: number[] = [];
  const sigma: number[] = [];
  for (let a = 0; a < count; a++) {
    const g = kernelDiagonal(tBlock[a] as number);
    diagonal.push(g);
    sigma.push(Math.sqrt(g));
    functions.push(Float64Array.from(hermite));
  }
  const correlation = new Float64Array(count * count);
  for (let a = 0; a < count; a++) {
    correlation[a * count + a] = 1;
    const ta = tBlock[a] as number;
    const ha = functions[a] as Float64Array;
    for (let b = a + 1; b < count; b++) {
      const tb = tBlock[b] as number;
      const hb = functions[b] as Float64Array;
      let g = Math.min(ta, tb) - ta * tb;
      for (let l = 0; l < terms; l++) g += (mehler[l] as number) * (ha[l] as number) * (hb[l] as number);
      const r = Math.max(-1, Math.min(1, g / Math.sqrt((diagonal[a] as number) * (diagonal[b] as number))));
      correlation[a * count + b] = r;
      correlation[b * count + a] = r;
    }
  }
  const cholesky = new Float64Array(count * count);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j <= i; j++) {
      let s = correlation[i * count + j] as number;
      for (let k = 0; k < j; k++)
        s -= (cholesky[i * count + k] as number) * (cholesky[j * count + k] as number);
      if (i === j) cholesky[i * count + i] = Math.sqrt(Math.max(s, 1e-12));
      else cholesky[i * count + j] = s / (cholesky[j * count + j] as number);
    }
  }
  const coefficient = Float64Array.from(
    { length: count },
    (_, b) => (weight[b] as number) * (sigma[b] as number),
  );
  return { coefficient, cholesky, count };
}

/**
 * The threshold's factor for a dependence whose autocorrelations change sign (a fit with complex
 * roots: a pseudo-cycle), read off the law itself: the (1 − α) quantile of ∫|Z| dx under the
 * fit's kernel over the same quantile under the independent bridge, both simulated on the same
 * seeded normal draws (max(SIMULATED_LAW_DRAWS, ⌈20/α⌉) unless `drawCount` says; the blocks of
 * dependentBridgeLaw, 30), so their ratio keeps little of the simulation's noise (about 1 % at low
 * and medium, a few per cent at high). svdDependenceFactor reads each quantile
 * from the law's mean and CV with slopes fitted on AR(1) laws, whose CV grows with a fatter upper
 * tail; a pseudo-cycle's CV grows through the even Mehler terms (Σₖ ρ(k)² is large where Σₖ ρ(k)
 * is not) and its upper tail stays near the independent law's: AR(2) φ 1.6, −0.8 over 2400 + 600
 * gives 1.56 / 1.52 / 1.48 here at low / medium / high, the moment reading 1.59 / 1.60 / 1.60
 * (docs/decisions/0304-svd-pseudo-cycle-law-simulated.md). 1 without autocorrelations.
 */
export function simulatedDependenceFactor(
  training: ArrayLike<number>,
  autocorrelations: ArrayLike<number>,
  n: number,
  alertThreshold: AlertThreshold,
  drawCount?: number,
): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const draws = drawCount ?? Math.max(SIMULATED_LAW_DRAWS, Math.ceil(20 / level.alpha));
  if (!Number.isInteger(n) || n < 1)
    throw new StatsError("INVALID_ARGUMENT", `n must be an integer ≥ 1, got ${n}`);
  if (!Number.isInteger(draws) || draws < 100)
    throw new StatsError("INVALID_ARGUMENT", `draws must be an integer ≥ 100, got ${draws}`);
  if (autocorrelations.length === 0) return 1;
  const x = Float64Array.from(training).sort();
  if (x.length < 2) throw new StatsError("TOO_FEW_VALUES", "the bridge law needs at least 2 values");
  const dependent = blockLaw(x, autocorrelations, n, SIMULATED_LAW_BLOCKS);
  const independent = blockLaw(x, [], n, SIMULATED_LAW_BLOCKS);
  const count = dependent.count;
  const z = new Float64Array(count + 1);
  const drawsDependent = new Float64Array(draws);
  const drawsIndependent = new Float64Array(draws);
  const uniform = seededUniform(SIMULATED_LAW_SEED);
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < count; i += 2) {
      // Box–Muller, two normals a pair of uniforms.
      const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
      const angle = 2 * Math.PI * uniform();
      z[i] = radius * Math.cos(angle);
      z[i + 1] = radius * Math.sin(angle);
    }
    drawsDependent[d] = blockDraw(dependent, z);
    drawsIndependent[d] = blockDraw(independent, z);
  }
  drawsDependent.sort();
  drawsIndependent.sort();
  const index = Math.min(draws - 1, Math.ceil((1 - level.alpha) * draws) - 1);
  return (drawsDependent[index] as number) / (drawsIndependent[index] as number);
}

/** Σ_b coefficient_b |(L z)_b|: one draw of a block law from standard normals z. */
function blockDraw(
  law: { coefficient: Float64Array; cholesky: Float64Array; count: number },
  z: Float64Array,
): number {
  const { coefficient, cholesky, count } = law;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    let y = 0;
    const row = i * count;
    for (let k = 0; k <= i; k++) y += (cholesky[row + k] as number) * (z[k] as number);
    sum += (coefficient[i] as number) * Math.abs(y);
  }
  return sum;
}
