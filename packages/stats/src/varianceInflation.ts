import { assertFinite, StatsError } from "./statsError.js";

/**
 * Dependence between neighbouring records (docs/monitoring.md "Sensitivity", Dependence): the variance
 * inflation factor VIF = Var(mean of m autocorrelated values) / (σ² / m), so m / VIF is the
 * effective number of independent values. Estimated per signal from its training values in record
 * order.
 */

/** Largest AR(1) coefficient an estimate is kept to: VIF ≤ 19, so a trend cannot silence a monitor. */
export const MAX_AR1_COEFFICIENT = 0.9;

export type VifMethod = "ar1" | "bartlett";

/**
 * ρ̂ₖ = Σₜ (xₜ − x̄)(xₜ₊ₖ − x̄) / Σₜ (xₜ − x̄)² for k = 1 … maxLag (NumPy reference `autocorrelations`);
 * all 0 for a constant series. Throws TOO_FEW_VALUES when maxLag ≥ the number of values.
 */
export function autocorrelations(values: ArrayLike<number>, maxLag: number): Float64Array {
  const m = values.length;
  if (!Number.isInteger(maxLag) || maxLag < 1) {
    throw new StatsError("INVALID_ARGUMENT", `maxLag must be an integer ≥ 1, got ${maxLag}`);
  }
  if (m <= maxLag) {
    throw new StatsError(
      "TOO_FEW_VALUES",
      `autocorrelations to lag ${maxLag} need more than ${maxLag} values`,
    );
  }
  assertFinite(values, "autocorrelation input");
  let sum = 0;
  for (let i = 0; i < m; i++) sum += values[i] as number;
  const mu = sum / m;
  const d = new Float64Array(m);
  let c0 = 0;
  for (let i = 0; i < m; i++) {
    const v = (values[i] as number) - mu;
    d[i] = v;
    c0 += v * v;
  }
  const out = new Float64Array(maxLag);
  if (c0 === 0) return out;
  for (let k = 1; k <= maxLag; k++) {
    let c = 0;
    for (let i = 0; i + k < m; i++) c += (d[i] as number) * (d[i + k] as number);
    out[k - 1] = c / c0;
  }
  return out;
}

/** A lag-1 autocorrelation counts only above 1.645/√m (one-sided 5 %): see ar1Coefficient. */
export const AR1_SIGNIFICANCE_Z = 1.645;

/**
 * The AR(1) coefficient the evaluations' VIF is built on: ρ̃ = (m ρ̂₁ + 1)/(m − 3) — ρ̂₁ is biased
 * by about −(1 + 3ρ)/m, which matters with 75 training records — used only when it is significant
 * (ρ̃ > 1.645/√m, else 0) and kept ≤ 0.9. The significance step keeps independent data at VIF 1:
 * an estimate floored at 0 but otherwise kept would average 1.11 on 75 independent values and
 * make every test quieter than its α (docs/decisions/0092-vif-from-an-ar-1-fit.md).
 * 0 for a constant or < 4-value series.
 */
export function ar1Coefficient(values: ArrayLike<number>): number {
  const m = values.length;
  if (m < 4) return 0;
  const r1 = autocorrelations(values, 1)[0] as number;
  if (r1 === 0) return 0;
  const r = (m * r1 + 1) / (m - 3);
  if (r <= AR1_SIGNIFICANCE_Z / Math.sqrt(m)) return 0;
  return Math.min(r, MAX_AR1_COEFFICIENT);
}

/**
 * VIF of a series in record order, ≥ 1.
 * - "ar1" (the evaluations' choice, docs/decisions/0092-vif-from-an-ar-1-fit.md): (1 + ρ̃)/(1 − ρ̃)
 *   with ρ̃ = ar1Coefficient.
 * - "bartlett": 1 + 2 Σₖ (1 − k/(L+1)) ρ̂ₖ with L = max(1, min(10, ⌊m/10⌋)), kept ≥ 1 (the
 *   design's first formula; it under-corrects an AR(1) of φ 0.5, 2.5 for 3, see
 *   docs/decisions/0092-vif-from-an-ar-1-fit.md).
 * Series of fewer than 4 values answer 1 (no estimate is possible).
 */
export function varianceInflationFactor(values: ArrayLike<number>, method: VifMethod = "ar1"): number {
  const m = values.length;
  if (m < 4) return 1;
  if (method === "bartlett") {
    const lags = Math.max(1, Math.min(10, Math.floor(m / 10)));
    const rho = autocorrelations(values, lags);
    let s = 0;
    for (let k = 1; k <= lags; k++) s += (1 - k / (lags + 1)) * (rho[k - 1] as number);
    return Math.max(1, 1 + 2 * s);
  }
  const r = ar1Coefficient(values);
  return (1 + r) / (1 - r);
}

/**
 * Degrees of freedom of the "ar1" VIF estimate, m (1 − ρ̃²)/2 (its relative variance is about
 * 4 / (m (1 − ρ²))); Infinity when no autocorrelation was found. A test that divides by an
 * estimated VIF is a t-test rather than a z-test with these degrees of freedom.
 */
export function vifDegreesOfFreedom(values: ArrayLike<number>): number {
  const r = ar1Coefficient(values);
  return r === 0 ? Number.POSITIVE_INFINITY : (values.length * (1 - r * r)) / 2;
}

/** The "ar1" VIF and its degrees of freedom from one AR(1) fit (varianceInflationFactor, vifDegreesOfFreedom). */
export function vifEstimate(values: ArrayLike<number>): {
  vif: number;
  degrees: number;
  coefficient: number;
} {
  const r = ar1Coefficient(values);
  return {
    vif: (1 + r) / (1 - r),
    degrees: r === 0 ? Number.POSITIVE_INFINITY : (values.length * (1 - r * r)) / 2,
    coefficient: r,
  };
}

/**
 * One AR(1) coefficient for a monitor's p signals (m values each, signal-major `columns`): the
 * lag-1 autocovariances and the variances summed over the signals (each centred on its own mean),
 * r̄ = Σⱼ c₁ⱼ / Σⱼ c₀ⱼ, then as ar1Coefficient: ρ̃ = (m r̄ + 1)/(m − 3), kept only above 1.645/√m,
 * ≤ 0.9. Pooling steadies the estimate (one signal's ρ̂ of 75 values varies by ±27 %) and keeps
 * one signal that passes the significance step by chance from widening the whole covariance.
 */
export function pooledAr1Coefficient(columns: Float64Array, m: number, p: number): number {
  if (m < 4 || p < 1) return 0;
  assertFinite(columns.subarray(0, m * p), "autocorrelation input");
  let c0 = 0;
  let c1 = 0;
  for (let j = 0; j < p; j++) {
    const start = j * m;
    let sum = 0;
    for (let i = 0; i < m; i++) sum += columns[start + i] as number;
    const mu = sum / m;
    let previous = (columns[start] as number) - mu;
    c0 += previous * previous;
    for (let i = 1; i < m; i++) {
      const v = (columns[start + i] as number) - mu;
      c0 += v * v;
      c1 += previous * v;
      previous = v;
    }
  }
  if (c0 === 0 || c1 === 0) return 0;
  const r = (m * (c1 / c0) + 1) / (m - 3);
  if (r <= AR1_SIGNIFICANCE_Z / Math.sqrt(m)) return 0;
  return Math.min(r, MAX_AR1_COEFFICIENT);
}

/** The VIF (1 + ρ)/(1 − ρ) and the degrees of freedom m (1 − ρ²)/2 (Infinity at ρ = 0) of a coefficient ρ. */
export function vifOfCoefficient(coefficient: number, m: number): { vif: number; degrees: number } {
  const r = coefficient;
  return {
    vif: (1 + r) / (1 - r),
    degrees: r === 0 ? Number.POSITIVE_INFINITY : (m * (1 - r * r)) / 2,
  };
}

/**
 * The VIF of the difference of means of m training values followed by n evaluation values of one
 * AR(1) series: n_eff Var(ȳ − x̄)/σ² = 1 + Σₖ wₖ ρᵏ with n_eff = m n/(m + n) and
 * wₖ = 2 n_eff ((m − k)₊/m² + (n − k)₊/n² − min(k, m, n, m + n − k)₊/(m n)) (the pairs at lag k
 * inside each block, less those across; lags while ρᵏ ≥ 1e-16). Below (1 + ρ)/(1 − ρ): a block of
 * n values has fewer pairs at each lag than the infinite series, and the neighbours across the
 * boundary move the two means together (2.86 for ρ 0.5 and 120 × 30, against 3). 1 at ρ = 0.
 */
export function ar1WindowVif(coefficient: number, m: number, n: number): number {
  if (!(coefficient >= 0 && coefficient < 1))
    throw new StatsError("INVALID_ARGUMENT", `the AR(1) coefficient must lie in [0, 1), got ${coefficient}`);
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 1 || n < 1)
    throw new StatsError("INVALID_ARGUMENT", `m and n must be integers ≥ 1, got ${m} and ${n}`);
  if (coefficient === 0) return 1;
  const lags = Math.min(m + n - 1, Math.ceil(Math.log(1e-16) / Math.log(coefficient)));
  const nEff = (m * n) / (m + n);
  let vif = 1;
  let power = 1;
  for (let k = 1; k <= lags; k++) {
    power *= coefficient;
    const within = Math.max(m - k, 0) / (m * m) + Math.max(n - k, 0) / (n * n);
    const across = Math.max(0, Math.min(k, m, n, m + n - k)) / (m * n);
    vif += 2 * nEff * (within - across) * power;
  }
  return vif;
}
