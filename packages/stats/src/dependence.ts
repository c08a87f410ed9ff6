import {
  arSpectrumRatio,
  fitSine,
  PERIODIC_ALPHA,
  PERIODIC_SCREEN_ALPHA,
  type PeriodicComponent,
  periodicPeak,
  periodicPValue,
} from "./periodicComponent.js";
import { assertFinite, StatsError } from "./statsError.js";
import { ar1Coefficient, MAX_AR1_COEFFICIENT, pooledAr1Coefficient } from "./varianceInflation.js";

/**
 * Dependence between neighbouring records, with the autoregressive order chosen by the data
 * (issue 29, docs/monitoring.md "Sensitivity", Dependence). A lag-1 fit cannot represent a cycle (a
 * temperature cycle of 100 records reads as a strong AR(1) and over-corrects a long window) nor a
 * second-order process; an AR(p) of the order the Bayesian information criterion picks can, and its
 * long-run variance is the VIF the evaluations divide by.
 *
 * - The order: BIC over 0 … maxOrder of Burg's fits (Burg's reflection coefficients stay inside
 *   the unit circle and are far less biased than Yule–Walker's on short, strongly dependent series).
 * - Orders 0 and 1 keep the product's established lag-1 estimate (ar1Coefficient: bias-corrected,
 *   significance-tested, ≤ 0.9), so data an AR(1) describes is treated exactly as before.
 * - Order p ≥ 2: Burg's coefficients; VIF = (1 − Σ φᵢ ρᵢ)/(1 − Σ φᵢ)² (the spectral density at 0
 *   over the variance), kept ≤ MAX_VIF like the lag-1 fit's.
 */

/** The largest VIF an estimate is kept to: that of an AR(1) of 0.9, so a trend cannot silence a monitor. */
export const MAX_VIF = (1 + MAX_AR1_COEFFICIENT) / (1 - MAX_AR1_COEFFICIENT);

/** Highest AR order tried: min(10, max(1, ⌊m/10⌋)). */
export function maxArOrder(m: number): number {
  return Math.min(10, Math.max(1, Math.floor(m / 10)));
}

export interface BurgFit {
  /** Reflection coefficients κ₁ … κ_p (partial autocorrelations), |κ| < 1. */
  readonly reflections: Float64Array;
  /** AR coefficients of each order k = 1 … maxOrder: coefficients[k − 1] has length k. */
  readonly coefficients: readonly Float64Array[];
  /** Innovation variance over the series' variance after each order 0 … maxOrder: Π (1 − κⱼ²). */
  readonly innovationRatios: Float64Array;
}

/**
 * Burg's method on one or more series pooled (signal-major `columns`, `count` series of m values;
 * each centred on its own mean): κₖ = 2 Σ fₜ bₜ₋₁ / Σ (fₜ² + bₜ₋₁²) over every series, the forward
 * and backward prediction errors updated as in the single-series algorithm. Pooling steadies the
 * estimate for a monitor's many signals of one line.
 */
export function burgFit(columns: ArrayLike<number>, m: number, count: number, maxOrder: number): BurgFit {
  if (!Number.isInteger(maxOrder) || maxOrder < 1)
    throw new StatsError("INVALID_ARGUMENT", `maxOrder must be an integer ≥ 1, got ${maxOrder}`);
  if (!Number.isInteger(m) || m <= maxOrder + 1)
    throw new StatsError("TOO_FEW_VALUES", `an AR(${maxOrder}) fit needs more than ${maxOrder + 1} values`);
  if (columns.length < m * count)
    throw new StatsError("INVALID_ARGUMENT", `expected ${m * count} values, got ${columns.length}`);
  for (let i = 0; i < m * count; i++)
    if (!Number.isFinite(columns[i] as number))
      throw new StatsError("NON_FINITE", `AR fit input has a non-finite value (${columns[i]}) at index ${i}`);
  const forward = new Float64Array(m * count);
  const backward = new Float64Array(m * count);
  for (let j = 0; j < count; j++) {
    let sum = 0;
    for (let t = 0; t < m; t++) sum += columns[j * m + t] as number;
    const mu = sum / m;
    for (let t = 0; t < m; t++) {
      const v = (columns[j * m + t] as number) - mu;
      forward[j * m + t] = v;
      backward[j * m + t] = v;
    }
  }
  const reflections = new Float64Array(maxOrder);
  const coefficients: Float64Array[] = [];
  const innovationRatios = new Float64Array(maxOrder + 1);
  innovationRatios[0] = 1;
  let phi = new Float64Array(0);
  for (let k = 1; k <= maxOrder; k++) {
    // Errors of order k − 1: forward f at t = k … m − 1, backward b at t − 1.
    let num = 0;
    let den = 0;
    for (let j = 0; j < count; j++) {
      const o = j * m;
      for (let t = k; t < m; t++) {
        const f = forward[o + t] as number;
        const b = backward[o + t - 1] as number;
        num += f * b;
        den += f * f + b * b;
      }
    }
    const kappa = den === 0 ? 0 : (2 * num) / den;
    reflections[k - 1] = kappa;
    const next = new Float64Array(k);
    for (let i = 0; i < k - 1; i++) next[i] = (phi[i] as number) - kappa * (phi[k - 2 - i] as number);
    next[k - 1] = kappa;
    phi = next;
    coefficients.push(next);
    innovationRatios[k] = (innovationRatios[k - 1] as number) * (1 - kappa * kappa);
    // Update the errors in place, from the end so b[t − 1] is still of order k − 1.
    for (let j = 0; j < count; j++) {
      const o = j * m;
      for (let t = m - 1; t >= k; t--) {
        const f = forward[o + t] as number;
        const b = backward[o + t - 1] as number;
        forward[o + t] = f - kappa * b;
        backward[o + t] = b - kappa * f;
      }
    }
  }
  return { reflections, coefficients, innovationRatios };
}

/** Innovation ratios below this (a deterministic series) end the order search. */
const MIN_INNOVATION_RATIO = 1e-8;

/**
 * The order the Bayesian information criterion picks among 0 … maxOrder for m values:
 * argmin m ln vₖ + k ln m, vₖ = innovationRatios[k]. BIC rather than AICc: AICc picked a second
 * order in about 30 % of AR(1) windows of 75–120 records, and the extra coefficient's noise
 * in the VIF raised SVD's false-breach rate on AR(1) φ 0.5 at 75 × 25 from 1.45α to 1.85α at
 * medium; BIC keeps AR(1) data at order 1 (about 95 %) and still finds AR(2) and cycles. The
 * penalty counts m values even for pooled series (signals of one line are cross-correlated, so p
 * of them hold fewer than p·m independent values).
 */
export function bicOrder(innovationRatios: ArrayLike<number>, m: number): number {
  let best = 0;
  let bestScore = 0;
  for (let k = 1; k < innovationRatios.length; k++) {
    if (m - k - 1 <= 0) break;
    const v = innovationRatios[k] as number;
    // A series (nearly) exactly predictable: no order past this one means anything.
    if (!(v > MIN_INNOVATION_RATIO)) break;
    const score = m * Math.log(v) + k * Math.log(m);
    if (score < bestScore) {
      best = k;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Autocorrelations ρ(1) … ρ(lags) of the stationary AR process with coefficients φ (ρ(0) = 1):
 * ρ(1 … p) from the Yule–Walker equations ρ(k) = Σᵢ φᵢ ρ(|k − i|) solved by elimination, then the
 * recursion ρ(k) = Σᵢ φᵢ ρ(k − i). Throws INVALID_ARGUMENT when the system is singular.
 */
export function arAutocorrelations(coefficients: ArrayLike<number>, lags: number): Float64Array {
  const p = coefficients.length;
  const out = new Float64Array(lags);
  if (p === 0 || lags === 0) return out;
  // Unknowns ρ(1) … ρ(p): for k = 1 … p, ρ(k) − Σᵢ φᵢ ρ(|k − i|) = φₖ·ρ(0) terms moved right.
  const a = new Float64Array(p * p);
  const rhs = new Float64Array(p);
  for (let k = 1; k <= p; k++) {
    const row = (k - 1) * p;
    a[row + k - 1] = (a[row + k - 1] as number) + 1;
    for (let i = 1; i <= p; i++) {
      const lag = Math.abs(k - i);
      const phi = coefficients[i - 1] as number;
      if (lag === 0) rhs[k - 1] = (rhs[k - 1] as number) + phi;
      else a[row + lag - 1] = (a[row + lag - 1] as number) - phi;
    }
  }
  const rho = solveDense(a, rhs, p);
  const all = new Float64Array(Math.max(lags, p) + 1);
  all[0] = 1;
  for (let k = 1; k <= p; k++) all[k] = rho[k - 1] as number;
  for (let k = p + 1; k <= lags; k++) {
    let s = 0;
    for (let i = 1; i <= p; i++) s += (coefficients[i - 1] as number) * (all[k - i] as number);
    all[k] = s;
  }
  out.set(all.subarray(1, lags + 1));
  return out;
}

function solveDense(a: Float64Array, b: Float64Array, p: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < p; c++) {
    let pivot = c;
    for (let r = c + 1; r < p; r++)
      if (Math.abs(m[r * p + c] as number) > Math.abs(m[pivot * p + c] as number)) pivot = r;
    const pv = m[pivot * p + c] as number;
    if (Math.abs(pv) < 1e-14)
      throw new StatsError("INVALID_ARGUMENT", "the AR coefficients are not stationary");
    if (pivot !== c) {
      for (let j = 0; j < p; j++) {
        const t = m[c * p + j] as number;
        m[c * p + j] = m[pivot * p + j] as number;
        m[pivot * p + j] = t;
      }
      const t = x[c] as number;
      x[c] = x[pivot] as number;
      x[pivot] = t;
    }
    for (let r = c + 1; r < p; r++) {
      const f = (m[r * p + c] as number) / pv;
      if (f === 0) continue;
      for (let j = c; j < p; j++) m[r * p + j] = (m[r * p + j] as number) - f * (m[c * p + j] as number);
      x[r] = (x[r] as number) - f * (x[c] as number);
    }
  }
  for (let r = p - 1; r >= 0; r--) {
    let s = x[r] as number;
    for (let j = r + 1; j < p; j++) s -= (m[r * p + j] as number) * (x[j] as number);
    x[r] = s / (m[r * p + r] as number);
  }
  return x;
}

/** (1 − Σ φᵢ ρᵢ)/(1 − Σ φᵢ)²: the long-run variance of an AR(p) over its variance (1 + 2 Σₖ ρ(k)). */
export function arLongRunVif(coefficients: ArrayLike<number>): number {
  const p = coefficients.length;
  if (p === 0) return 1;
  const rho = arAutocorrelations(coefficients, p);
  let sumPhi = 0;
  let v = 1;
  for (let i = 0; i < p; i++) {
    const phi = coefficients[i] as number;
    sumPhi += phi;
    v -= phi * (rho[i] as number);
  }
  return v / ((1 - sumPhi) * (1 - sumPhi));
}

/**
 * Degrees of freedom of an AR(p) fit's VIF, 2 / Var(ln VIF̂) with Var(ln VIF̂) = gᵀ Cov(φ̂) g,
 * Cov(φ̂) = v Rₚ⁻¹ / m (the fit's asymptotic law; v the innovation ratio, Rₚ the Toeplitz matrix of
 * ρ(0 … p − 1)), g the gradient of ln VIF in φ (central differences). For p = 1 it is
 * m (1 − φ²)/2, the lag-1 fit's.
 */
export function arVifDegrees(coefficients: ArrayLike<number>, m: number): number {
  const p = coefficients.length;
  if (p === 0) return Number.POSITIVE_INFINITY;
  const phi = Float64Array.from(coefficients);
  const rho = arAutocorrelations(phi, p);
  let v = 1;
  for (let i = 0; i < p; i++) v -= (phi[i] as number) * (rho[i] as number);
  const gradient = new Float64Array(p);
  const h = 1e-6;
  for (let i = 0; i < p; i++) {
    const up = Float64Array.from(phi);
    const down = Float64Array.from(phi);
    up[i] = (up[i] as number) + h;
    down[i] = (down[i] as number) - h;
    gradient[i] = (Math.log(arLongRunVif(up)) - Math.log(arLongRunVif(down))) / (2 * h);
  }
  // Rₚ⁻¹ g by solving Rₚ x = g.
  const toeplitz = new Float64Array(p * p);
  for (let r = 0; r < p; r++)
    for (let c = 0; c < p; c++) toeplitz[r * p + c] = r === c ? 1 : (rho[Math.abs(r - c) - 1] as number);
  const x = solveDense(toeplitz, gradient, p);
  let quadratic = 0;
  for (let i = 0; i < p; i++) quadratic += (gradient[i] as number) * (x[i] as number);
  const variance = (v * quadratic) / m;
  return variance > 0 ? 2 / variance : Number.POSITIVE_INFINITY;
}

export interface Dependence {
  /** The AR order the data chose by BIC (0: independent). */
  readonly order: number;
  /** φ₁ … φ_order (for order 1 the bias-corrected lag-1 coefficient). */
  readonly coefficients: Float64Array;
  /** Long-run variance over variance, ≥ 1, ≤ MAX_VIF. */
  readonly vif: number;
  /** The VIF before the MAX_VIF cap (what the data says; labels use it). */
  readonly uncappedVif: number;
  /** Degrees of freedom of the VIF estimate (Infinity at order 0). */
  readonly degrees: number;
  /** m / uncappedVif: how many independent values the m values are worth. */
  readonly effectiveSize: number;
  /** ρ(k) of the fitted process for k = 1 … (until negligible): the kernel the SVD law and the window VIF use. */
  readonly autocorrelations: Float64Array;
  /**
   * How much alike values inflate a second moment's variance (1 + 2 Σₖ ρ(k)² for a Gaussian
   * process; with a periodic component, the residuals' share of it and the sine's cross term).
   */
  readonly secondMomentVif: number;
  /**
   * The narrowest VIF a window may be given: 1 (never narrower than independent values) unless a
   * periodic component was found, then the residuals' share of the variance — whole periods
   * average out of a mean, and only the residuals are left in it.
   */
  readonly vifFloor: number;
  /** The periodic component found beside the AR process (estimateDependence with `periodic`), or null. */
  readonly periodic: PeriodicComponent | null;
}

/** A fit's autocorrelations must be below DECAY_TOLERANCE from this lag on (roots well inside the unit circle). */
const DECAY_LAGS = 300;
const DECAY_TOLERANCE = 1e-6;

/** Lags of an ACF kept until |ρ(k)| has stayed below this for a whole period of the fit. */
const ACF_TOLERANCE = 1e-10;
const MAX_ACF_LAGS = 20_000;

/** ρ(1 …) of an AR fit, as far as it is not negligible (at most `limit` lags). */
export function fittedAutocorrelations(coefficients: ArrayLike<number>, limit = MAX_ACF_LAGS): Float64Array {
  const p = coefficients.length;
  if (p === 0) return new Float64Array(0);
  if (p === 1) {
    const r = coefficients[0] as number;
    if (r === 0) return new Float64Array(0);
    const lags = Math.min(limit, Math.ceil(Math.log(1e-16) / Math.log(Math.abs(r))));
    const out = new Float64Array(lags);
    let power = 1;
    for (let k = 0; k < lags; k++) {
      power *= r;
      out[k] = power;
    }
    return out;
  }
  const all = arAutocorrelations(coefficients, limit);
  // Cut after the last lag whose |ρ| reaches the tolerance.
  let last = 0;
  for (let k = 0; k < all.length; k++) if (Math.abs(all[k] as number) >= ACF_TOLERANCE) last = k + 1;
  return all.slice(0, last);
}

function dependenceOf(fit: BurgFit | null, lag1: number, m: number): Dependence {
  const order = fit === null ? 0 : bicOrder(fit.innovationRatios, m);
  if (order <= 1 || fit === null) {
    // The established lag-1 estimate (bias-corrected, significance-tested, ≤ 0.9).
    const r = lag1;
    const vif = (1 + r) / (1 - r);
    return {
      order: r === 0 ? 0 : 1,
      coefficients: r === 0 ? new Float64Array(0) : Float64Array.of(r),
      vif,
      uncappedVif: vif,
      degrees: r === 0 ? Number.POSITIVE_INFINITY : (m * (1 - r * r)) / 2,
      effectiveSize: m / vif,
      autocorrelations: fittedAutocorrelations(r === 0 ? [] : [r]),
      secondMomentVif: r === 0 ? 1 : (1 + r * r) / (1 - r * r),
      vifFloor: 1,
      periodic: null,
    };
  }
  const coefficients = fit.coefficients[order - 1] as Float64Array;
  try {
    // A fit whose dependence has not died out after DECAY_LAGS lags (a root near the unit circle:
    // a series a few sines describe, or a trend) is kept to the lag-1 estimate, whose coefficient
    // is capped at 0.9 — as an AR(1) of 0.9 has died out to 2e-14 by then.
    const tail = arAutocorrelations(coefficients, DECAY_LAGS + 100).subarray(DECAY_LAGS);
    if (tail.some((r) => !(Math.abs(r) < DECAY_TOLERANCE))) return dependenceOf(null, lag1, m);
    const raw = arLongRunVif(coefficients);
    // A long-run variance below the variance (negative dependence, or a fit by chance on
    // independent values) counts as independent: never a narrower threshold, and nothing
    // estimated to pay for.
    if (!(Number.isFinite(raw) && raw > 1)) return dependenceOf(null, 0, m);
    const degrees = arVifDegrees(coefficients, m);
    const autocorrelations = fittedAutocorrelations(coefficients);
    if (Number.isNaN(degrees)) throw new StatsError("INVALID_ARGUMENT", "no degrees of freedom for this fit");
    return {
      order,
      coefficients: Float64Array.from(coefficients),
      vif: Math.min(raw, MAX_VIF),
      uncappedVif: raw,
      degrees,
      effectiveSize: m / raw,
      autocorrelations,
      secondMomentVif: secondMomentVif(autocorrelations),
      vifFloor: 1,
      periodic: null,
    };
  } catch {
    // A fit on the edge of stationarity (a series a few sines describe exactly: every reflection
    // near ±1) has no usable long-run variance: the lag-1 estimate stands in.
    return dependenceOf(null, lag1, m);
  }
}

export interface DependenceOptions {
  /**
   * Search for a periodic component first (fitPeriodicComponent, from MIN_PERIODIC_RECORDS
   * values): when one is significant at PERIODIC_ALPHA, the dependence is the sine's plus the AR
   * process of what is left. For the mean-type uses (a window's VIF, SVD's law, a capability's
   * mean and spread); the control rules' null keeps the plain AR fit.
   */
  readonly periodic?: boolean;
}

/**
 * The dependence of one series in record order: the AR order BIC picks (Burg, up to
 * maxArOrder(m)); orders 0 and 1 answer the established lag-1 fit (ar1Coefficient), or `lag1`
 * when the caller has its own lag-1 estimate (MVD's T² series). Fewer than 4
 * values, or a constant series: independent.
 */
export function estimateDependence(
  values: ArrayLike<number>,
  lag1?: number,
  options: DependenceOptions = {},
): Dependence {
  const m = values.length;
  assertFinite(values, "dependence input");
  const maxOrder = maxArOrder(m);
  const varying = !isConstant(values, 0, m);
  const fit = m >= 4 && m > maxOrder + 1 && varying ? burgFit(values, m, 1, maxOrder) : null;
  const plainLag1 = lag1 ?? (m >= 4 ? ar1Coefficient(values) : 0);
  if (options.periodic !== true || !varying) return dependenceOf(fit, plainLag1, m);
  return withPeriodic(values, m, 1, fit, plainLag1, (residuals) => ar1Coefficient(residuals));
}

/**
 * One dependence for a monitor's p signals (m values each, signal-major, each centred on its own
 * mean): Burg pooled over the signals, the order by BIC on m, the lag-1 case through
 * `pooledLag1` (pooledAr1Coefficient's estimate, passed by the caller that already has it). With
 * `periodic`, one frequency for all signals (each its own amplitude and phase), the likelihood
 * ratio of the pooled fits counted as one series' (signals of one line move together).
 */
export function estimatePooledDependence(
  columns: Float64Array,
  m: number,
  p: number,
  pooledLag1: number,
  options: DependenceOptions = {},
): Dependence {
  const maxOrder = maxArOrder(m);
  let anyVarying = false;
  for (let j = 0; j < p && !anyVarying; j++) anyVarying = !isConstant(columns, j * m, m);
  const fit = m >= 4 && m > maxOrder + 1 && anyVarying ? burgFit(columns, m, p, maxOrder) : null;
  if (options.periodic !== true || !anyVarying) return dependenceOf(fit, pooledLag1, m);
  return withPeriodic(columns, m, p, fit, pooledLag1, (residuals) => pooledAr1Coefficient(residuals, m, p));
}

/**
 * The dependence with a periodic component looked for first: the plain fit's (`plainFit`,
 * `plainLag1`) unless the strongest slow sinusoid (fitPeriodicComponent) is significant; then the
 * sine's plus the AR process of its residuals: ρ(k) = (1 − s) ρₑ(k) + s cos(ωk), s the sine's share
 * of the variance; the long-run VIF (at frequency 0, where the sine has no power) (1 − s) VIFₑ; the
 * second-moment VIF (1 − s)² Σ₂ₑ + 2 s (1 − s) fₑ(ω) (a fixed sine's own square is no random term;
 * its product with the residuals is); the VIF's floor 1 − s.
 */
function withPeriodic(
  values: ArrayLike<number>,
  m: number,
  count: number,
  plainFit: BurgFit | null,
  plainLag1: number,
  residualLag1: (residuals: Float64Array) => number,
): Dependence {
  const without = dependenceOf(plainFit, plainLag1, m);
  const peak = periodicPeak(values, m, count);
  if (peak === null) return without;
  // A screen first: the peak's periodogram against the plain fit's spectrum there, lenient
  // (PERIODIC_SCREEN_ALPHA), so the test's second Burg fit runs only where a line may be.
  const screen =
    peak.periodogram /
    (peak.variance *
      arSpectrumRatio(without.coefficients, innovationRatioOf(without.coefficients), peak.frequency));
  if (!(periodicPValue(screen, peak.searched) < PERIODIC_SCREEN_ALPHA)) return without;
  const sine = fitSine(values, m, count, peak.frequency);
  const fit = { ...sine, frequency: peak.frequency };
  let sumSquares = 0;
  for (let i = 0; i < fit.residuals.length; i++) sumSquares += (fit.residuals[i] as number) ** 2;
  const residualVariance = sumSquares / (count * (m - 3));
  if (!(residualVariance > 0)) return without;
  // The test: half the likelihood ratio of the AR fits (Burg, the order by BIC) without and with
  // the sine, m ln(v₀/v₁)/2 with v the innovation variance (divisor m) — about Exp(1) at a fixed
  // frequency where there is no line, the largest of `searched` such at the peak. Counted once for
  // pooled signals (a line's signals move together). Against the plain fit's spectrum at the peak
  // instead (the screen's statistic), an AR fit that had bent itself toward the line hid a sine of
  // half the noise's variance in 2–12 % of 480-value windows.
  let variance = 0;
  for (let j = 0; j < count; j++) {
    let sum = 0;
    for (let t = 0; t < m; t++) sum += values[j * m + t] as number;
    const mu = sum / m;
    for (let t = 0; t < m; t++) variance += ((values[j * m + t] as number) - mu) ** 2;
  }
  variance /= count * m;
  const residualFit = burgFit(fit.residuals, m, count, maxArOrder(m));
  const ratioAtBic = (f: BurgFit | null) =>
    f === null ? 1 : (f.innovationRatios[bicOrder(f.innovationRatios, m)] as number);
  const statistic =
    (m / 2) *
    Math.log((variance * ratioAtBic(plainFit)) / ((sumSquares / (count * m)) * ratioAtBic(residualFit)));
  const pValue = periodicPValue(statistic, peak.searched);
  if (!(pValue < PERIODIC_ALPHA)) return without;
  const residual = dependenceOf(residualFit, residualLag1(fit.residuals), m);
  const spectrum = arSpectrumRatio(
    residual.coefficients,
    innovationRatioOf(residual.coefficients),
    fit.frequency,
  );
  const sineVariance = (fit.amplitude * fit.amplitude) / 2;
  const share = sineVariance / (sineVariance + residualVariance);
  const lags = Math.min(MAX_ACF_LAGS, 4 * m);
  const autocorrelations = new Float64Array(lags);
  const own = residual.autocorrelations;
  for (let k = 1; k <= lags; k++)
    autocorrelations[k - 1] =
      (1 - share) * (k <= own.length ? (own[k - 1] as number) : 0) + share * Math.cos(fit.frequency * k);
  const uncappedVif = (1 - share) * residual.uncappedVif;
  return {
    order: residual.order,
    coefficients: residual.coefficients,
    vif: Math.min((1 - share) * residual.vif, MAX_VIF),
    uncappedVif,
    degrees: residual.degrees,
    effectiveSize: m / uncappedVif,
    autocorrelations,
    secondMomentVif: (1 - share) ** 2 * residual.secondMomentVif + 2 * share * (1 - share) * spectrum,
    vifFloor: 1 - share,
    periodic: {
      frequency: fit.frequency,
      period: (2 * Math.PI) / fit.frequency,
      amplitude: fit.amplitude,
      coefficients: fit.coefficients,
      residualAutocorrelations: residual.autocorrelations,
      share,
      residualVariance,
      statistic,
      pValue,
    },
  };
}

/** 1 − Σ φᵢ ρᵢ: an AR process's innovation variance over its variance (1 for no coefficients). */
function innovationRatioOf(coefficients: ArrayLike<number>): number {
  const rho = arAutocorrelations(coefficients, coefficients.length);
  let v = 1;
  for (let i = 0; i < coefficients.length; i++) v -= (coefficients[i] as number) * (rho[i] as number);
  return v;
}

function isConstant(values: ArrayLike<number>, start: number, length: number): boolean {
  const first = values[start] as number;
  for (let i = 1; i < length; i++) if ((values[start + i] as number) !== first) return false;
  return true;
}

/**
 * The VIF of the difference of means of m training values followed by n evaluation values of one
 * stationary series with autocorrelations ρ(1 …) (zero beyond the array): n_eff Var(ȳ − x̄)/σ² =
 * 1 + Σₖ wₖ ρ(k), wₖ as ar1WindowVif's (the pairs at lag k inside each block, less those across).
 * Kept in [floor, MAX_VIF]: a cycle can put the sum below 1 (whole periods average out of both
 * means), but a fit can also do so by chance on independent values, and a threshold is never made
 * narrower than independent data's — `floor` 1, or a Dependence's vifFloor when a periodic
 * component was found (the residuals' share: what whole periods cannot average out).
 */
export function windowVif(autocorrelations: ArrayLike<number>, m: number, n: number, floor = 1): number {
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 1 || n < 1)
    throw new StatsError("INVALID_ARGUMENT", `m and n must be integers ≥ 1, got ${m} and ${n}`);
  const lags = Math.min(m + n - 1, autocorrelations.length);
  const nEff = (m * n) / (m + n);
  let vif = 1;
  for (let k = 1; k <= lags; k++) {
    const within = Math.max(m - k, 0) / (m * m) + Math.max(n - k, 0) / (n * n);
    const across = Math.max(0, Math.min(k, m, n, m + n - k)) / (m * n);
    vif += 2 * nEff * (within - across) * (autocorrelations[k - 1] as number);
  }
  return Math.min(Math.max(vif, floor), MAX_VIF);
}

/**
 * n Var(x̄)/σ² over one block of n values of a process of autocorrelations ρ(1 …): 1 + 2 Σₖ<ₙ
 * (1 − k/n) ρ(k), kept in [floor, MAX_VIF] as windowVif's (a periodic component's whole periods
 * average out of the block's mean; the floor, a Dependence's vifFloor, keeps what they cannot).
 */
export function blockVif(autocorrelations: ArrayLike<number>, n: number, floor = 1): number {
  if (!Number.isInteger(n) || n < 1)
    throw new StatsError("INVALID_ARGUMENT", `n must be an integer ≥ 1, got ${n}`);
  let sum = 0;
  const lags = Math.min(n - 1, autocorrelations.length);
  for (let k = 1; k <= lags; k++) sum += (1 - k / n) * (autocorrelations[k - 1] as number);
  return Math.min(Math.max(1 + 2 * sum, floor), MAX_VIF);
}

/**
 * Each held-out row's expected squared deviation from its fold's fit, over the fit's expected
 * variance, for one stationary series of autocorrelations ρ(1 …) (zero beyond the array): m training
 * rows at times 0 … m − 1 cut into `folds` contiguous folds (fold f from ⌊f m/folds⌋), n evaluation
 * rows at times m … m + n − 1, evaluation row i judged by fold i mod folds. A row at time t against a
 * fit on the rest R of the training rows (the rows outside its fold): (1 + V − 2 Cₜ) / (|R| (1 − V) /
 * (|R| − 1)), V = Var(x̄_R)/σ², Cₜ = Cov(xₜ, x̄_R)/σ². Independent rows: (|R| + 1)/|R| for every row;
 * with dependence a training row beside its rest sits closer to the rest's mean than an evaluation
 * row after it, so their T² are comparable only each over its own factor.
 */
export function heldOutDeviationFactors(
  autocorrelations: ArrayLike<number>,
  m: number,
  n: number,
  folds: number,
): { training: Float64Array; evaluation: Float64Array } {
  if (
    !Number.isInteger(m) ||
    !Number.isInteger(n) ||
    !Number.isInteger(folds) ||
    m < folds ||
    n < 0 ||
    folds < 2
  )
    throw new StatsError(
      "INVALID_ARGUMENT",
      `need integers m ≥ folds ≥ 2 and n ≥ 0, got ${m}, ${n}, ${folds}`,
    );
  const total = m + n;
  // cumulative[k] = Σ_{l ≤ k} ρ(l), ρ(0) = 1.
  const cumulative = new Float64Array(total);
  cumulative[0] = 1;
  for (let k = 1; k < total; k++)
    cumulative[k] =
      (cumulative[k - 1] as number) +
      (k <= autocorrelations.length ? (autocorrelations[k - 1] as number) : 0);
  const upTo = (k: number) => (k < 0 ? 0 : (cumulative[Math.min(k, total - 1)] as number));
  // Σ_{j ∈ [c, d)} ρ(|t − j|).
  const rowSum = (t: number, c: number, d: number): number => {
    if (d <= c) return 0;
    if (t < c) return upTo(d - 1 - t) - upTo(c - 1 - t);
    if (t >= d) return upTo(t - c) - upTo(t - d);
    return upTo(t - c) + upTo(d - 1 - t) - 1;
  };
  const edges = Array.from({ length: folds + 1 }, (_, f) => Math.floor((f * m) / folds));
  const training = new Float64Array(m);
  const evaluation = new Float64Array(n);
  for (let f = 0; f < folds; f++) {
    const a = edges[f] as number;
    const b = edges[f + 1] as number;
    const rest = m - (b - a);
    let pairs = 0;
    for (let t = 0; t < a; t++) pairs += rowSum(t, 0, a) + rowSum(t, b, m);
    for (let t = b; t < m; t++) pairs += rowSum(t, 0, a) + rowSum(t, b, m);
    const v = pairs / (rest * rest);
    const fitVariance = (rest * (1 - v)) / (rest - 1);
    const factor = (t: number) => (1 + v - (2 * (rowSum(t, 0, a) + rowSum(t, b, m))) / rest) / fitVariance;
    for (let t = a; t < b; t++) training[t] = factor(t);
    for (let i = f; i < n; i += folds) evaluation[i] = factor(m + i);
  }
  return { training, evaluation };
}

/**
 * The Wishart degrees of freedom a covariance pooled over blocks of rows (each block about its own
 * mean) is worth for its inverse, when every signal follows this AR dependence (no periodic
 * component): Hotelling's law reads E[S⁻¹], which alike rows inflate less than a Wishart of the
 * rows' second-moment count (N / (1 + 2 Σ ρ²), which matches the entries' variance) says once p is a
 * fair share of it. The centred scatter is Σᵢ λᵢ zᵢ zᵢᵀ with λ the eigenvalues of the centred
 * autocorrelation matrix — per block of L rows about f(πj/L), j = 1 … L − 1, f the AR spectrum
 * (arSpectrumRatio, mean 1). Its inverse's deterministic equivalent is I/τ, τ = (1/N) Σᵢ λᵢ / (1 + λᵢ
 * p/(N τ)), N the rows; a Wishart of ν degrees has τ = 1 − p/ν, so ν = p g/(g − 1), g = λ̄/τ (λ̄ = Σλ/N).
 * Independent rows: N − blocks, Hotelling's own. Measured (two blocks, AR(1), the ν that matches
 * E[T²] of the MVD mean test): φ 0.7 over 120 + 30 rows, p = 20, 62.9 against 61.6 here and 51.2 from
 * the second-moment count; φ 0.9 over 480 + 120, p = 20, 72.5 against 74.7 and 63.0.
 */
export function inverseCovarianceDegrees(
  coefficients: ArrayLike<number>,
  blocks: readonly number[],
  p: number,
): number {
  if (!Number.isInteger(p) || p < 1)
    throw new StatsError("INVALID_ARGUMENT", `p must be an integer ≥ 1, got ${p}`);
  if (blocks.some((l) => !Number.isInteger(l) || l < 1))
    throw new StatsError("INVALID_ARGUMENT", `blocks must be integers ≥ 1, got ${blocks.join(", ")}`);
  const rows = blocks.reduce((a, b) => a + b, 0);
  const independent = rows - blocks.length;
  if (coefficients.length === 0) return independent;
  const ratio = innovationRatioOf(coefficients);
  const lambdas: number[] = [];
  for (const l of blocks)
    for (let j = 1; j < l; j++) lambdas.push(arSpectrumRatio(coefficients, ratio, (Math.PI * j) / l));
  if (p >= lambdas.length) return 0;
  let total = 0;
  for (const l of lambdas) total += l;
  const mean = total / rows;
  // τ ↦ (1/N) Σ λ/(1 + λ p/(N τ)) is increasing and concave in τ with one positive fixed point below λ̄.
  let tau = mean;
  for (let iteration = 0; iteration < 1000; iteration++) {
    let next = 0;
    for (const l of lambdas) next += l / (1 + (l * p) / (rows * tau));
    next /= rows;
    const done = Math.abs(next - tau) <= 1e-13 * tau;
    tau = next;
    if (done) break;
  }
  const g = mean / tau;
  return g > 1 ? (p * g) / (g - 1) : Number.POSITIVE_INFINITY;
}

/**
 * How many times the variance of a lag-1 autocorrelation estimate of T² = Σⱼ wⱼ² (p independent
 * Gaussian series wⱼ of autocorrelations ρ(1 …), zero beyond the array) exceeds Bartlett's count for
 * a linear series of T²'s own autocorrelations ρ(k)²: 1 + K/(p G). T² is no linear series: its fourth
 * cumulants, cum(w₀², w_a², w_s², w_t²) = 16 Σ over the three 4-cycles of ρ products, add to the
 * sample autocovariances' covariances, n Cov(γ̂(a), γ̂(b)) = Σₖ [γ(k)γ(k + b − a) + γ(k + b)γ(k − a) +
 * κ(a, k, k + b)] with γ(k) = 2ρ(k)² (Bartlett's part, G, grows as p², the cumulants', K, as p); for
 * r̂ = γ̂(1)/γ̂(0) each is the combination V₁₁ − 2r V₁₀ + r² V₀₀, r = ρ(1)². 1 for independent series,
 * never below 1.
 * The degrees of freedom of a VIF estimated from the T² series divide by it (AR(1) φ 0.9 signals,
 * p = 5: 1.72, measured over 4,000 simulated series of 480 values 1.70; p = 20: 1.18 and 1.25).
 */
export function squaredSeriesLag1VarianceRatio(autocorrelations: ArrayLike<number>, p: number): number {
  if (!(p >= 1)) throw new StatsError("INVALID_ARGUMENT", `p must be at least 1, got ${p}`);
  assertFinite(autocorrelations, "autocorrelations");
  const lags = autocorrelations.length;
  const rho = (k: number): number => {
    const a = Math.abs(k);
    return a === 0 ? 1 : a <= lags ? (autocorrelations[a - 1] as number) : 0;
  };
  const gamma = (k: number): number => 2 * rho(k) ** 2;
  // cum(w₀², w_a², w_s², w_t²) for unit-variance jointly Gaussian w: 16 Σ over the three 4-cycles.
  const cumulant = (a: number, s: number, t: number): number =>
    16 *
    (rho(a) * rho(s - a) * rho(t - s) * rho(t) +
      rho(a) * rho(t - a) * rho(t - s) * rho(s) +
      rho(s) * rho(s - a) * rho(t - a) * rho(t));
  let g11 = 0;
  let g10 = 0;
  let g00 = 0;
  let k11 = 0;
  let k10 = 0;
  let k00 = 0;
  for (let k = -lags - 2; k <= lags + 2; k++) {
    const gk = gamma(k);
    g00 += 2 * gk * gk;
    g11 += gk * gk + gamma(k + 1) * gamma(k - 1);
    g10 += 2 * gk * gamma(k - 1);
    k00 += cumulant(0, k, k);
    k11 += cumulant(1, k, k + 1);
    k10 += cumulant(1, k, k);
  }
  const r = gamma(1) / gamma(0);
  const bartlett = g11 - 2 * r * g10 + r * r * g00;
  const fourth = k11 - 2 * r * k10 + r * r * k00;
  return bartlett > 0 ? Math.max(1, 1 + fourth / (p * bartlett)) : 1;
}

/** 1 + 2 Σₖ ρ(k)²: how much alike rows inflate a second moment's variance ((1 + ρ²)/(1 − ρ²) for an AR(1)). */
export function secondMomentVif(autocorrelations: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < autocorrelations.length; k++) s += (autocorrelations[k] as number) ** 2;
  return 1 + 2 * s;
}

/**
 * The innovations of an AR fit: xₜ − μ − Σ φᵢ (xₜ₋ᵢ − μ) for t ≥ p, μ the values' mean (the values
 * themselves, centred, for an empty fit).
 */
export function arResiduals(values: ArrayLike<number>, coefficients: ArrayLike<number>): number[] {
  const p = coefficients.length;
  let mean = 0;
  for (let i = 0; i < values.length; i++) mean += values[i] as number;
  mean /= Math.max(1, values.length);
  const out: number[] = [];
  for (let t = p; t < values.length; t++) {
    let e = (values[t] as number) - mean;
    for (let i = 0; i < p; i++) e -= (coefficients[i] as number) * ((values[t - 1 - i] as number) - mean);
    out.push(e);
  }
  return out;
}
