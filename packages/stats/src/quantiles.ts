import chiSquareQuantileImpl from "@stdlib/stats-base-dists-chisquare-quantile";
import fQuantileImpl from "@stdlib/stats-base-dists-f-quantile";
import { StatsError } from "./statsError.js";

/**
 * Distribution quantiles (inverse CDFs) from @stdlib (Apache-2.0), which agree with SciPy's
 * `f.ppf` / `chi2.ppf` to ~1e-15 relative on the reference vectors. @stdlib answers NaN for a bad
 * argument; these wrappers throw INVALID_ARGUMENT instead so no NaN escapes.
 */

function checkProbability(p: number): void {
  if (!(p >= 0 && p <= 1))
    throw new StatsError("INVALID_ARGUMENT", `probability must lie in [0, 1], got ${p}`);
}

function checkDegrees(value: number, name: string): void {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new StatsError("INVALID_ARGUMENT", `${name} must be a positive finite number, got ${value}`);
  }
}

/** F⁻¹(p; d1, d2): the p-quantile of the F distribution with d1 and d2 degrees of freedom. */
export function fQuantile(p: number, d1: number, d2: number): number {
  checkProbability(p);
  checkDegrees(d1, "d1");
  checkDegrees(d2, "d2");
  return fQuantileImpl(p, d1, d2);
}

/** χ²⁻¹(p; k): the p-quantile of the chi-square distribution with k degrees of freedom. */
export function chiSquareQuantile(p: number, k: number): number {
  checkProbability(p);
  checkDegrees(k, "k");
  return chiSquareQuantileImpl(p, k);
}
