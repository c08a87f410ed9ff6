import { D2_MOVING_RANGE } from "./capability.js";
import { normalUpperQuantile, normalUpperTail } from "./distributions.js";
import { ar1SpreadCorrection } from "./evaluateCapCalibrated.js";

/** Where the suggested limits' σ comes from. */
export type ControlLimitsBasis = "moving_range" | "overall";

/** A pair of control limits and the share of in-control points expected beyond them. */
export type ControlLimitPair = {
  readonly lcl: number;
  readonly ucl: number;
  /** Expected per-point false-alarm rate (expectedExceedanceRate): 0.0027 for limits at ±3 σ known exactly. */
  readonly expectedFalseAlarmRate: number;
};

export type SuggestedControlLimits = {
  /** Finite values used. */
  readonly n: number;
  readonly mean: number;
  /** Mean moving range / 1.128 (σ within, individuals chart). */
  readonly sigmaWithin: number;
  /** Sample standard deviation (n − 1) of the period. */
  readonly sigmaOverall: number;
  /**
   * The process σ the overall limits use: sigmaOverall / ar1SpreadCorrection(min(φ, 0.95), n) — alike
   * neighbours leave s short of σ (E[s²] = σ² (1 − 2 Σ (n − k) φᵏ / (n (n − 1)))).
   */
  readonly sigmaProcess: number;
  /** Lag-1 autocorrelation φ of the values in record order (0 with fewer than 3 or all alike). */
  readonly lag1Autocorrelation: number;
  /** sigmaOverall / sigmaWithin (1 for independent normal values; √(1/(1 − φ)) for an AR(1)); null when σ within is 0. */
  readonly sigmaRatio: number | null;
  /**
   * Neighbouring parts are alike enough to matter (isAutocorrelationMaterial): the moving range
   * would understate σ, so the suggestion is the overall limits.
   */
  readonly isAutocorrelated: boolean;
  readonly basis: ControlLimitsBasis;
  /** The suggestion: the moving-range limits, or the overall ones when isAutocorrelated. */
  readonly lcl: number;
  readonly ucl: number;
  readonly expectedFalseAlarmRate: number;
  /** mean ± 3 σ within, with the rate an AR(1) of the measured φ would give them. */
  readonly movingRange: ControlLimitPair;
  /** mean ± 3 σ process, with its rate. */
  readonly overall: ControlLimitPair;
};

/** Rule 1's rate at limits at ±3 σ known exactly: 2Φ(−3) = 0.27 %. */
export const NOMINAL_FALSE_ALARM_RATE = 2 * normalUpperTail(3);

/**
 * "Noticeably more than 0.27 %": the moving-range limits of an AR(1) of the measured φ flag at
 * least twice the nominal rate (ARL₀ 185 instead of 370), which is φ ≥ 0.14 — the point where
 * a user would see twice the false signals a textbook chart promises.
 */
export const AUTOCORRELATION_RATE_FACTOR = 2;

/**
 * And φ must be evidence, not noise: above z_{0.99}/√n (the lag-1 autocorrelation of n independent
 * values is about N(0, 1/n)), so an independent process is told its parts are alike in at most
 * 1 % of periods. With 100 values that asks φ > 0.23, with 300 or more the rate factor decides.
 */
export const AUTOCORRELATION_SIGNIFICANCE_Z = normalUpperQuantile(0.01);

/**
 * Efficiency of σ from the moving range against s for independent normal values:
 * Var(MR̄/1.128) ≈ σ² (2π/3 + √3 − 3)/(n − 1) against σ²/(2 (n − 1)) — 0.605, so the moving-range
 * σ is worth about 0.6 (n − 1) degrees of freedom (Cryer & Ryan 1990).
 */
export const MOVING_RANGE_EFFICIENCY = 0.5 / ((2 * Math.PI) / 3 + Math.sqrt(3) - 3);

/** φ is kept inside this for the AR(1) formulas (they blow up at ±1). */
const MAX_COEFFICIENT = 0.95;

/**
 * Control limits of an individuals chart from a period the user marks as stable (issue #14
 * "Suggest control limits"), which measures the period's autocorrelation first (issue #29): the
 * moving range sees only neighbour-to-neighbour variation, so when neighbouring parts are alike
 * (an AR(1) of φ: E[MR̄/1.128] = σ √(1 − φ)) limits from it flag 2Φ(−3 √(1 − φ)) of in-control
 * points — 3.4 %, 10 % and 34 % at φ 0.5, 0.7, 0.9. Where that matters (isAutocorrelationMaterial)
 * the suggestion is mean ± 3 σ from the overall σ instead; both pairs come with their expected
 * per-point false-alarm rate. Values in record order; non-finite values are left out (their
 * neighbours then form the moving range). Null with fewer than 2 finite values (no moving range).
 */
export function suggestControlLimits(values: ArrayLike<number>): SuggestedControlLimits | null {
  const x: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) x.push(v);
  }
  const n = x.length;
  if (n < 2) return null;
  let sum = 0;
  let rangeSum = 0;
  for (let i = 0; i < n; i++) {
    sum += x[i] as number;
    if (i > 0) rangeSum += Math.abs((x[i] as number) - (x[i - 1] as number));
  }
  const mean = sum / n;
  const sigmaWithin = rangeSum / (n - 1) / D2_MOVING_RANGE;
  let squares = 0;
  for (const v of x) squares += (v - mean) ** 2;
  const sigmaOverall = Math.sqrt(squares / (n - 1));
  const phi = lag1Autocorrelation(x);
  const isAutocorrelated = isAutocorrelationMaterial(phi, n);
  const sigmaProcess = sigmaOverall / ar1SpreadCorrection(Math.min(phi, MAX_COEFFICIENT), n);
  const movingRange: ControlLimitPair = {
    lcl: mean - 3 * sigmaWithin,
    ucl: mean + 3 * sigmaWithin,
    expectedFalseAlarmRate: expectedExceedanceRate(n, phi, "moving_range"),
  };
  const overall: ControlLimitPair = {
    lcl: mean - 3 * sigmaProcess,
    ucl: mean + 3 * sigmaProcess,
    expectedFalseAlarmRate: expectedExceedanceRate(n, phi, "overall"),
  };
  const chosen = isAutocorrelated ? overall : movingRange;
  return {
    n,
    mean,
    sigmaWithin,
    sigmaOverall,
    sigmaProcess,
    lag1Autocorrelation: phi,
    sigmaRatio: sigmaWithin > 0 ? sigmaOverall / sigmaWithin : null,
    isAutocorrelated,
    basis: isAutocorrelated ? "overall" : "moving_range",
    lcl: chosen.lcl,
    ucl: chosen.ucl,
    expectedFalseAlarmRate: chosen.expectedFalseAlarmRate,
    movingRange,
    overall,
  };
}

/**
 * The sample lag-1 autocorrelation Σ (x_t − x̄)(x_{t+1} − x̄) / Σ (x_t − x̄)² (NumPy/statsmodels'
 * acf at lag 1); 0 with fewer than 3 values or no spread.
 */
export function lag1Autocorrelation(values: readonly number[]): number {
  const n = values.length;
  if (n < 3) return 0;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= n;
  let denominator = 0;
  let numerator = 0;
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - mean;
    denominator += d * d;
    if (i + 1 < n) numerator += d * ((values[i + 1] as number) - mean);
  }
  return denominator > 0 ? numerator / denominator : 0;
}

/**
 * The rule the suggestion switches on: the moving-range limits of an AR(1) of φ would flag at
 * least AUTOCORRELATION_RATE_FACTOR × 0.27 % of points (2Φ(−3 √(1 − φ)), limits known exactly),
 * and φ > AUTOCORRELATION_SIGNIFICANCE_Z / √n.
 */
export function isAutocorrelationMaterial(phi: number, n: number): boolean {
  if (!(phi > AUTOCORRELATION_SIGNIFICANCE_Z / Math.sqrt(n))) return false;
  const rate = 2 * normalUpperTail(3 * Math.sqrt(1 - Math.min(phi, MAX_COEFFICIENT)));
  return rate >= AUTOCORRELATION_RATE_FACTOR * NOMINAL_FALSE_ALARM_RATE;
}

/**
 * Expected per-point false-alarm rate of limits x̄ ± 3 σ̂ estimated from n values of a stationary
 * normal AR(1) of coefficient φ (clamped to ±0.95), for a new in-control point: what the limits
 * will flag, the period's own estimation error included.
 *
 *   rate = E[2Φ(−3 c w / √(1 + τ²))], w² ~ χ²_ν / ν
 *
 * with τ² = Var(x̄)/σ² = (1 + 2 Σ_{k<n} (1 − k/n) φᵏ)/n (the mean's error moves both limits; for a
 * given w, E over x̄ of Φ(x̄ − 3w) + Φ(−x̄ − 3w) is 2Φ(−3w/√(1 + τ²))), and σ̂'s error as a χ² of
 * ν = e (n − 1)(1 − φ²)/(1 + φ²) degrees of freedom (the variance's effective size; e = 1 for the
 * overall σ, MOVING_RANGE_EFFICIENCY for the moving range's). c is what σ̂ estimates in σ: 1 for
 * the overall σ (corrected for alike neighbours), √(1 − φ) for the moving range. With n large
 * and φ 0 it is 0.27 %. The χ² expectation is a trapezoid sum over y = ln(w²) on the χ² density's
 * own normalised weights (a smooth, fast-decaying integrand: the sum converges geometrically).
 */
export function expectedExceedanceRate(n: number, phi: number, basis: ControlLimitsBasis): number {
  if (!(n >= 2)) return Number.NaN;
  const r = Math.max(-MAX_COEFFICIENT, Math.min(MAX_COEFFICIENT, phi));
  let meanFactor = 1;
  let power = 1;
  for (let k = 1; k < n; k++) {
    power *= r;
    meanFactor += 2 * (1 - k / n) * power;
  }
  const tau2 = Math.max(0, meanFactor) / n;
  const c = basis === "overall" ? 1 : Math.sqrt(1 - r);
  const efficiency = basis === "overall" ? 1 : MOVING_RANGE_EFFICIENCY;
  const nu = (efficiency * (n - 1) * (1 - r * r)) / (1 + r * r);
  const a = (3 * c) / Math.sqrt(1 + tau2);
  return chiSquareScaleExpectation(nu, (w) => 2 * normalUpperTail(a * w));
}

/**
 * E[g(√(V/ν))] for V ~ χ²_ν: with y = ln(V/ν) the density is ∝ exp((ν/2)(y − eʸ + 1)) (1 at its
 * mode y = 0); a trapezoid sum over where that exceeds e^−80, normalised by the same sum.
 */
function chiSquareScaleExpectation(nu: number, g: (w: number) => number): number {
  const half = nu / 2;
  const logWeight = (y: number) => half * (y - Math.exp(y) + 1);
  const cutoff = -80;
  const edge = (from: number, to: number) => {
    // The y between `from` (log weight above the cutoff) and `to` (below) where it crosses.
    let inside = from;
    let outside = to;
    for (let i = 0; i < 200; i++) {
      const mid = 0.5 * (inside + outside);
      if (logWeight(mid) > cutoff) inside = mid;
      else outside = mid;
    }
    return outside;
  };
  let low = -1;
  while (logWeight(low) > cutoff) low *= 2;
  let high = 1;
  while (logWeight(high) > cutoff) high *= 2;
  const yLow = edge(0, low);
  const yHigh = edge(0, high);
  // The peak's width is about √(2/ν): at least 40 steps across it, and 400 over the range.
  const steps = Math.ceil(Math.max(400, (40 * (yHigh - yLow)) / Math.sqrt(2 / nu)));
  const h = (yHigh - yLow) / steps;
  let total = 0;
  let weights = 0;
  for (let i = 0; i <= steps; i++) {
    const y = yLow + i * h;
    const w = Math.exp(logWeight(y)) * (i === 0 || i === steps ? 0.5 : 1);
    weights += w;
    total += w * g(Math.exp(y / 2));
  }
  return total / weights;
}
