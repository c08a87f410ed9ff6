import { normalUpperQuantile, normalUpperTail } from "./distributions.js";
import { StatsError } from "./statsError.js";

/** Gauss–Legendre nodes and weights on [−1, 1] (Newton on Pₙ from Chebyshev starts). */
function gaussLegendre(order: number): { nodes: Float64Array; weights: Float64Array } {
  const nodes = new Float64Array(order);
  const weights = new Float64Array(order);
  for (let i = 0; i < Math.ceil(order / 2); i++) {
    let x = Math.cos((Math.PI * (i + 0.75)) / (order + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1;
      let p1 = x;
      for (let k = 2; k <= order; k++) {
        const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = (order * (x * p1 - p0)) / (x * x - 1);
      const step = p1 / derivative;
      x -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    nodes[i] = -x;
    nodes[order - 1 - i] = x;
    const w = 2 / ((1 - x * x) * derivative * derivative);
    weights[i] = w;
    weights[order - 1 - i] = w;
  }
  return { nodes, weights };
}

const RULE = gaussLegendre(48);

/** Φ(h), the standard normal CDF. */
const normalCdf = (h: number) => normalUpperTail(-h);

/**
 * Owen's T(h, a) = (1/2π) ∫₀ᵃ exp(−h²(1 + x²)/2) / (1 + x²) dx for a ≥ 0 (SciPy
 * `special.owens_t`): 48-point Gauss–Legendre on [0, a] for a ≤ 1, and for a > 1 the identity
 * T(h, a) = ½Φ(|h|) + ½Φ(a|h|) − Φ(|h|) Φ(a|h|) − T(a|h|, 1/a) (T is even in h).
 */
export function owensT(h: number, a: number): number {
  if (Number.isNaN(h) || !(a >= 0))
    throw new StatsError("INVALID_ARGUMENT", `Owen's T needs a ≥ 0, got ${a}`);
  const x = Math.abs(h);
  if (a === 0) return 0;
  if (a > 1) {
    if (a === Number.POSITIVE_INFINITY) return 0.5 * normalUpperTail(x);
    const ah = a * x;
    const px = normalCdf(x);
    const pah = normalCdf(ah);
    return 0.5 * px + 0.5 * pah - px * pah - owensT(ah, 1 / a);
  }
  const half = a / 2;
  let sum = 0;
  for (let i = 0; i < RULE.nodes.length; i++) {
    const t = half * ((RULE.nodes[i] as number) + 1);
    const q = 1 + t * t;
    sum += ((RULE.weights[i] as number) * Math.exp(-0.5 * x * x * q)) / q;
  }
  return (sum * half) / (2 * Math.PI);
}

/**
 * P(max(Z₁, Z₂) > c) for a standard bivariate normal pair with correlation ρ:
 * Φ̄(c) + 2 T(c, √((1 − ρ)/(1 + ρ))).
 */
export function bivariateMaxUpperTail(c: number, rho: number): number {
  if (!(rho >= -1 && rho <= 1)) throw new StatsError("INVALID_ARGUMENT", `ρ must lie in [−1, 1], got ${rho}`);
  if (rho === 1) return normalUpperTail(c);
  const a = rho === -1 ? Number.POSITIVE_INFINITY : Math.sqrt((1 - rho) / (1 + rho));
  return normalUpperTail(c) + 2 * owensT(c, a);
}

/**
 * The critical value c of two one-sided tests whose statistics are standard bivariate normal with
 * correlation ρ, so that either exceeds c with probability α: P(max(Z₁, Z₂) > c) = α (between
 * z_{1−α} at ρ = 1 and z_{1−α/2} at ρ = −1). Newton from z_{1−α} on the closed-form slope
 * −2 φ(c) Φ(a c), then bisection safeguards; |error| < 1e-13.
 */
export function twoSidedCriticalValue(alpha: number, rho: number): number {
  if (!(alpha > 0 && alpha < 0.5))
    throw new StatsError("INVALID_ARGUMENT", `α must lie in (0, ½), got ${alpha}`);
  if (!(rho >= -1 && rho <= 1)) throw new StatsError("INVALID_ARGUMENT", `ρ must lie in [−1, 1], got ${rho}`);
  let low = normalUpperQuantile(alpha);
  if (rho === 1) return low;
  let high = normalUpperQuantile(alpha / 2);
  const a = rho === -1 ? Number.POSITIVE_INFINITY : Math.sqrt((1 - rho) / (1 + rho));
  let c = low;
  for (let iteration = 0; iteration < 100; iteration++) {
    const f = bivariateMaxUpperTail(c, rho) - alpha;
    if (f > 0) low = c;
    else high = c;
    const slope = ((-2 * Math.exp(-0.5 * c * c)) / Math.sqrt(2 * Math.PI)) * normalCdf(a * c);
    let next = c - f / slope;
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (Math.abs(next - c) < 1e-14 || high - low < 1e-14) return next;
    c = next;
  }
  return c;
}

/** Owen's T for any real a (±∞ included): T(h, −a) = −T(h, a). */
function owensTSigned(h: number, a: number): number {
  return a < 0 ? -owensT(h, -a) : owensT(h, a);
}

/** The a of Owen's formula for Φ₂: (k − ρh)/(h√(1 − ρ²)), ±∞ at h = 0. */
function owenArgument(h: number, k: number, rho: number, root: number): number {
  const numerator = k - rho * h;
  if (h === 0) return numerator >= 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return numerator / (h * root);
}

/**
 * Φ₂(h, k; ρ) = P(Z₁ ≤ h, Z₂ ≤ k) for a standard bivariate normal pair with correlation ρ, |ρ| < 1
 * (Owen 1956): ½Φ(h) + ½Φ(k) − T(h, a_h) − T(k, a_k) − β, a_h = (k − ρh)/(h√(1 − ρ²)),
 * a_k = (h − ρk)/(k√(1 − ρ²)), β = ½ when h k < 0 or (h k = 0 and h + k < 0), else 0;
 * ¼ + asin(ρ)/(2π) at h = k = 0.
 */
export function bivariateNormalCdf(h: number, k: number, rho: number): number {
  if (!(rho > -1 && rho < 1)) throw new StatsError("INVALID_ARGUMENT", `ρ must lie in (−1, 1), got ${rho}`);
  if (Number.isNaN(h) || Number.isNaN(k)) throw new StatsError("INVALID_ARGUMENT", "h and k must be numbers");
  if (h === 0 && k === 0) return 0.25 + Math.asin(rho) / (2 * Math.PI);
  const root = Math.sqrt(1 - rho * rho);
  const beta = h * k < 0 || (h * k === 0 && h + k < 0) ? 0.5 : 0;
  return (
    0.5 * normalCdf(h) +
    0.5 * normalCdf(k) -
    owensTSigned(h, owenArgument(h, k, rho, root)) -
    owensTSigned(k, owenArgument(k, h, rho, root)) -
    beta
  );
}

/**
 * The critical value c of two one-sided tests whose statistics are standard bivariate normal with
 * correlation ρ, the second side's null `gap` standard errors further away: P(Z₁ > c or
 * Z₂ > c + gap) = α (twoSidedCriticalValue at gap 0, z_{1−α} as the gap grows). Bisection
 * between the two, |error| < 1e-13.
 */
export function gappedCriticalValue(alpha: number, rho: number, gap: number): number {
  if (!(gap >= 0)) throw new StatsError("INVALID_ARGUMENT", `the gap must be ≥ 0, got ${gap}`);
  if (!(alpha > 0 && alpha < 0.5))
    throw new StatsError("INVALID_ARGUMENT", `α must lie in (0, ½), got ${alpha}`);
  if (!(rho >= -1 && rho <= 1)) throw new StatsError("INVALID_ARGUMENT", `ρ must lie in [−1, 1], got ${rho}`);
  let low = normalUpperQuantile(alpha);
  let high = twoSidedCriticalValue(alpha, rho);
  if (gap === 0) return high;
  const r = Math.max(-1 + 1e-12, Math.min(1 - 1e-12, rho));
  const either = (c: number) => 1 - bivariateNormalCdf(c, c + gap, r);
  for (let iteration = 0; iteration < 200 && high - low > 1e-14; iteration++) {
    const mid = 0.5 * (low + high);
    if (either(mid) > alpha) low = mid;
    else high = mid;
  }
  return 0.5 * (low + high);
}
