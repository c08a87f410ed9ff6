import betainc from "@stdlib/math-base-special-betainc";
import erfc from "@stdlib/math-base-special-erfc";
import erfcinv from "@stdlib/math-base-special-erfcinv";
import gammainc from "@stdlib/math-base-special-gammainc";
import { fQuantile } from "./quantiles.js";
import { StatsError } from "./statsError.js";

/**
 * Tail probabilities and quantiles the calibrated evaluations need, through @stdlib (Apache-2.0),
 * computed on the upper tail directly so a p-value of 1e-12 keeps its digits.
 */

/** P(Z > z) for a standard normal Z (SciPy `norm.sf`). */
export function normalUpperTail(z: number): number {
  if (Number.isNaN(z)) throw new StatsError("INVALID_ARGUMENT", "z must be a number");
  return 0.5 * erfc(z / Math.SQRT2);
}

/** φ(z), the standard normal density (SciPy `norm.pdf`). */
export function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** z with P(Z > z) = p (SciPy `norm.isf`), p in (0, 1). */
export function normalUpperQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new StatsError("INVALID_ARGUMENT", `probability must lie in (0, 1), got ${p}`);
  return Math.SQRT2 * erfcinv(2 * p);
}

/** P(F > x) for F ~ F(d1, d2) (SciPy `f.sf`): I_{d2/(d2 + d1 x)}(d2/2, d1/2). */
export function fUpperTail(x: number, d1: number, d2: number): number {
  if (!(d1 > 0) || !(d2 > 0) || !Number.isFinite(d1) || !Number.isFinite(d2)) {
    throw new StatsError("INVALID_ARGUMENT", `degrees of freedom must be positive, got ${d1} and ${d2}`);
  }
  if (Number.isNaN(x)) throw new StatsError("INVALID_ARGUMENT", "x must be a number");
  if (x <= 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  return betainc(d2 / (d2 + d1 * x), d2 / 2, d1 / 2, true, false);
}

/** P(X > x) for X ~ χ²(k) (SciPy `chi2.sf`): the upper regularised gamma Q(k/2, x/2). */
export function chiSquareUpperTail(x: number, k: number): number {
  if (!(k > 0) || !Number.isFinite(k))
    throw new StatsError("INVALID_ARGUMENT", `degrees of freedom must be positive, got ${k}`);
  if (Number.isNaN(x)) throw new StatsError("INVALID_ARGUMENT", "x must be a number");
  if (x <= 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  return gammainc(x / 2, k / 2, true, true);
}

/** P(T > t) for Student's t with ν degrees of freedom (SciPy `t.sf`); ν = Infinity is the normal. */
export function studentTUpperTail(t: number, nu: number): number {
  if (nu === Number.POSITIVE_INFINITY) return normalUpperTail(t);
  if (!(nu > 0)) throw new StatsError("INVALID_ARGUMENT", `degrees of freedom must be positive, got ${nu}`);
  if (Number.isNaN(t)) throw new StatsError("INVALID_ARGUMENT", "t must be a number");
  const half = 0.5 * betainc(nu / (nu + t * t), nu / 2, 0.5, true, false);
  return t >= 0 ? half : 1 - half;
}

/**
 * t_{ν, 1−α/2} / z_{1−α/2}: how much wider a two-sided threshold gets when the VIF it is scaled by
 * was estimated with ν degrees of freedom (1 for ν = Infinity). Through the F quantile:
 * t²_{ν, 1−α/2} = F⁻¹(1 − α; 1, ν).
 */
export function vifWidening(nu: number, alpha: number): number {
  if (nu === Number.POSITIVE_INFINITY) return 1;
  if (!(alpha > 0 && alpha < 1))
    throw new StatsError("INVALID_ARGUMENT", `α must lie in (0, 1), got ${alpha}`);
  return Math.sqrt(fQuantile(1 - alpha, 1, nu)) / normalUpperQuantile(alpha / 2);
}
