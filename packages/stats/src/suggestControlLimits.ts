import { D2_MOVING_RANGE } from "./capability.js";

export type SuggestedControlLimits = {
  /** Finite values used. */
  readonly n: number;
  readonly mean: number;
  /** Mean moving range / 1.128 (σ within, individuals chart). */
  readonly sigmaWithin: number;
  readonly lcl: number;
  readonly ucl: number;
};

/**
 * Control limits of an individuals chart from a period the user marks as stable (issue #14
 * "Suggest control limits"): mean ± 3 σ within, σ within = mean moving range / 1.128. Values in
 * record order; non-finite values are left out (their neighbours then form the moving range).
 * Null with fewer than 2 finite values (no moving range).
 */
export function suggestControlLimits(values: ArrayLike<number>): SuggestedControlLimits | null {
  let n = 0;
  let sum = 0;
  let rangeSum = 0;
  let previous: number | null = null;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (!Number.isFinite(x)) continue;
    n++;
    sum += x;
    if (previous !== null) rangeSum += Math.abs(x - previous);
    previous = x;
  }
  if (n < 2) return null;
  const mean = sum / n;
  const sigmaWithin = rangeSum / (n - 1) / D2_MOVING_RANGE;
  return { n, mean, sigmaWithin, lcl: mean - 3 * sigmaWithin, ucl: mean + 3 * sigmaWithin };
}
