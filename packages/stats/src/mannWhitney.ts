import { normalUpperTail, studentTUpperTail } from "./distributions.js";
import { assertRankTestSamples } from "./statsError.js";

export interface MannWhitneyResult {
  /** U of the first sample: pairs (xᵢ, yⱼ) with xᵢ > yⱼ, ties counting one half. */
  readonly u: number;
  /** (U − n m / 2 − ½) / √(Var U · VIF), the continuity-corrected statistic. */
  readonly z: number;
  /** One-sided P(the first sample is not larger), from z (normal, or Student's t with ν). */
  readonly pValue: number;
}

/**
 * One-sided Mann–Whitney test that `x` tends to be larger than `y` (docs/monitoring.md "MVD" step 4):
 * normal approximation with the tie correction Var U = n m / 12 · ((N + 1) − Σ(t³ − t)/(N(N − 1)))
 * and a continuity correction of ½, as SciPy `mannwhitneyu(alternative="greater")`. `vif`
 * multiplies the variance (the sizes divided by the VIF when neighbouring values are alike);
 * `degreesOfFreedom` (the VIF's, Infinity when it was not estimated) turns z into a t statistic.
 * Throws EMPTY_INPUT for an empty sample and NON_FINITE.
 */
export function mannWhitneyGreater(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  vif = 1,
  degreesOfFreedom = Number.POSITIVE_INFINITY,
): MannWhitneyResult {
  const n = x.length;
  const m = y.length;
  assertRankTestSamples(x, y, vif);
  const total = n + m;
  // Two native numeric sorts and one merge: the rank sum of x with average ranks for ties, and
  // Σ(t³ − t) over the tie groups of the pooled sample.
  const xs = Float64Array.from(x).sort();
  const ys = Float64Array.from(y).sort();
  let rankSumX = 0;
  let ties = 0;
  let i = 0;
  let j = 0;
  let position = 0;
  while (i < n || j < m) {
    const v = Math.min(
      i < n ? (xs[i] as number) : Number.POSITIVE_INFINITY,
      j < m ? (ys[j] as number) : Number.POSITIVE_INFINITY,
    );
    let countX = 0;
    let countY = 0;
    while (i < n && xs[i] === v) {
      i++;
      countX++;
    }
    while (j < m && ys[j] === v) {
      j++;
      countY++;
    }
    const t = countX + countY;
    // Positions position + 1 … position + t share the average rank.
    rankSumX += countX * (position + (t + 1) / 2);
    ties += t * t * t - t;
    position += t;
  }
  const u = rankSumX - (n * (n + 1)) / 2;
  const variance = ((n * m) / 12) * (total + 1 - ties / (total * (total - 1))) * vif;
  if (!(variance > 0)) return { u, z: 0, pValue: 1 };
  const z = (u - (n * m) / 2 - 0.5) / Math.sqrt(variance);
  const pValue =
    degreesOfFreedom === Number.POSITIVE_INFINITY
      ? normalUpperTail(z)
      : studentTUpperTail(z, degreesOfFreedom);
  return { u, z, pValue };
}
