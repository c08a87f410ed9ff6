import betainc from "@stdlib/math-base-special-betainc";
import { StatsError } from "./statsError.js";

/**
 * P(Binomial(n, α) ≥ k), the MVD p-value of k exceedances among n evaluation rows
 * (the MVD test of issue 29's first rounds; the calibrated MVD combines p_mean and p_struct instead). Computed as the regularised incomplete beta I_α(k, n − k + 1)
 * rather than 1 − CDF(k − 1), which would lose every digit of a p-value near 1e-12.
 * k ≤ 0 gives 1 and k > n gives 0. Throws INVALID_ARGUMENT for a non-integer or negative n, a
 * non-integer k, or α outside [0, 1].
 */
export function binomialUpperTail(n: number, alpha: number, k: number): number {
  if (!Number.isInteger(n) || n < 0)
    throw new StatsError("INVALID_ARGUMENT", `n must be an integer ≥ 0, got ${n}`);
  if (!Number.isInteger(k)) throw new StatsError("INVALID_ARGUMENT", `k must be an integer, got ${k}`);
  if (!(alpha >= 0 && alpha <= 1)) {
    throw new StatsError("INVALID_ARGUMENT", `α must lie in [0, 1], got ${alpha}`);
  }
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (alpha === 0) return 0;
  if (alpha === 1) return 1;
  return betainc(alpha, k, n - k + 1, true, false);
}
