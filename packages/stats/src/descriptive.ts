import { assertFinite, StatsError } from "./statsError.js";

/**
 * One-signal summaries used by SVD and CAP (docs/monitoring.md "SVD", "CAP"). Every function throws a
 * StatsError (EMPTY_INPUT, TOO_FEW_VALUES, NON_FINITE) instead of returning NaN.
 */

function requireValues(values: ArrayLike<number>, minimum: number, what: string): void {
  if (values.length === 0) throw new StatsError("EMPTY_INPUT", `${what} needs at least one value`);
  if (values.length < minimum) {
    throw new StatsError("TOO_FEW_VALUES", `${what} needs at least ${minimum} values, got ${values.length}`);
  }
  assertFinite(values, what);
}

/** Arithmetic mean; exactly the common value when all values are equal (no rounding drift). */
export function mean(values: ArrayLike<number>): number {
  requireValues(values, 1, "mean");
  return meanOf(values);
}

function meanOf(values: ArrayLike<number>): number {
  const first = values[0] as number;
  let sum = 0;
  let isConstant = true;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    sum += x;
    if (x !== first) isConstant = false;
  }
  return isConstant ? first : sum / values.length;
}

/**
 * Sample standard deviation with the n − 1 denominator (NumPy `std(ddof=1)`), two-pass so a large
 * common offset (a torque of 12.3 N·m ± 0.01) does not cancel digits. Exactly 0 for equal values:
 * summing [0.1, 0.1, 0.1] does not give 0.3, and a sd of 1e-17 would hide a constant signal
 * (docs/monitoring.md "SVD": a zero scale means NO_DATA "constant signal").
 */
export function sampleStandardDeviation(values: ArrayLike<number>): number {
  requireValues(values, 2, "sample standard deviation");
  const mu = meanOf(values);
  let ss = 0;
  for (let i = 0; i < values.length; i++) {
    const d = (values[i] as number) - mu;
    ss += d * d;
  }
  return Math.sqrt(ss / (values.length - 1));
}

/** Median (mean of the two middle values for an even count), like NumPy `median`. */
export function median(values: ArrayLike<number>): number {
  requireValues(values, 1, "median");
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Median absolute deviation from the median, unscaled. Multiply by 1.4826 for a consistent
 * estimate of σ under normality (the SVD scale fallback, docs/monitoring.md "SVD").
 */
export function medianAbsoluteDeviation(values: ArrayLike<number>): number {
  const centre = median(values);
  const deviations = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) deviations[i] = Math.abs((values[i] as number) - centre);
  return median(deviations);
}

/**
 * Pearson's kurtosis m₄ / m₂² with biased moments (SciPy `kurtosis(fisher=False, bias=True)`): 3
 * for normal data, 8.9 for a lognormal of σ 0.5, 9 for Student's t with 5 df. 3 for a constant
 * series (no evidence of tails). Throws EMPTY_INPUT or NON_FINITE.
 */
export function sampleKurtosis(values: ArrayLike<number>): number {
  requireValues(values, 1, "kurtosis");
  const n = values.length;
  const mu = meanOf(values);
  let m2 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - mu;
    const d2 = d * d;
    m2 += d2;
    m4 += d2 * d2;
  }
  return m2 === 0 ? 3 : (n * m4) / (m2 * m2);
}

/**
 * The shape of a sample for capability uncertainty: the skewness g₁ = m₃ / m₂^{3/2} (biased
 * moments, SciPy `skew(bias=True)`) and the kurtosis 3 + G₂ with G₂ the bias-adjusted excess
 * kurtosis (SciPy `kurtosis(fisher=True, bias=False)`, unbiased on normal data, larger than the
 * biased estimate on heavy-tailed data). A constant series has skewness 0 and kurtosis 3. Needs at
 * least 4 values; throws EMPTY_INPUT, TOO_FEW_VALUES or NON_FINITE.
 */
export function sampleShape(values: ArrayLike<number>): { skewness: number; kurtosis: number } {
  requireValues(values, 4, "shape");
  const n = values.length;
  const mu = meanOf(values);
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - mu;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  if (m2 === 0) return { skewness: 0, kurtosis: 3 };
  m2 /= n;
  m3 /= n;
  m4 /= n;
  const g2 = m4 / (m2 * m2) - 3;
  const excess = (((n + 1) * g2 + 6) * (n - 1)) / ((n - 2) * (n - 3));
  return { skewness: m3 / m2 ** 1.5, kurtosis: 3 + excess };
}
