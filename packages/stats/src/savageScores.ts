import { normalUpperQuantile, normalUpperTail, studentTUpperTail } from "./distributions.js";
import { assertRankTestSamples, StatsError } from "./statsError.js";

export interface SavageResult {
  /** S = the first sample's Savage scores summed (average scores over ties). */
  readonly statistic: number;
  /** (S − E S) / √(Var S · VIF), E and Var exact under the permutation null. */
  readonly z: number;
  /** Skewness of S under the permutation null (exact third moment), × √VIF. */
  readonly skewness: number;
  /** One-sided P(the first sample is not larger in its upper ranks), Pearson III null. */
  readonly pValue: number;
}

/**
 * One-sided two-sample rank test that `x` tends to be larger than `y`, weighing the upper ranks
 * (monitoring.md "MVD" step 4; docs/decisions.md "Detection quality"): Savage (exponential)
 * scores a(i) = Σ_{j=N−i+1}^{N} 1/j − 1 of the pooled ascending ranks i, average scores over tie
 * groups, S the sum over x — locally most powerful for a change of scale of exponential-like
 * values such as T². Under the permutation null S's mean, variance and third central moment are
 * exact for a sample of n drawn without replacement from the N scores:
 *   E S = n ā,  Var S = n (N − n)/(N − 1) · σ²,  κ₃ = n (N − n)(N − 2n)/((N − 1)(N − 2)) · μ₃
 * (σ², μ₃ the scores' central moments with divisor N). `vif` multiplies the variance and VIF² the
 * third moment (blocks of alike neighbours: the skewness grows by √VIF); with finite
 * `degreesOfFreedom` z is first carried to the normal scale through Student's t (same tail
 * probability). The p-value is the upper tail of the standardised Pearson type III law with S's
 * skewness (the sum of exponential scores is gamma-like), through the Wilson–Hilferty cube root.
 * Throws EMPTY_INPUT for an empty sample and NON_FINITE.
 */
export function savageGreater(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  vif = 1,
  degreesOfFreedom = Number.POSITIVE_INFINITY,
): SavageResult {
  const n = x.length;
  const m = y.length;
  assertRankTestSamples(x, y, vif);
  const total = n + m;
  // tail[k] = H_N − H_{N−k} = Σ_{j=N−k+1}^{N} 1/j: the score of ascending rank k is tail[k] − 1.
  const tail = new Float64Array(total + 1);
  for (let k = 1; k <= total; k++) tail[k] = (tail[k - 1] as number) + 1 / (total - k + 1);
  const xs = Float64Array.from(x).sort();
  const ys = Float64Array.from(y).sort();
  // One merge: each tie group's average score, summed over x and accumulated for the moments.
  let statistic = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
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
    let score = 0;
    for (let k = position + 1; k <= position + t; k++) score += (tail[k] as number) - 1;
    score /= t;
    statistic += countX * score;
    s1 += t * score;
    s2 += t * score * score;
    s3 += t * score * score * score;
    position += t;
  }
  const mean = s1 / total;
  const variance = s2 / total - mean * mean;
  const third = s3 / total - 3 * mean * (s2 / total) + 2 * mean * mean * mean;
  const varS = ((n * (total - n)) / (total - 1)) * variance * vif;
  if (!(varS > 0)) return { statistic, z: 0, skewness: 0, pValue: 1 };
  const thirdS =
    total > 2 ? ((n * (total - n) * (total - 2 * n)) / ((total - 1) * (total - 2))) * third * vif * vif : 0;
  const z = (statistic - n * mean) / Math.sqrt(varS);
  const skewness = thirdS / varS ** 1.5;
  let zNormal = z;
  if (degreesOfFreedom !== Number.POSITIVE_INFINITY) {
    const p = studentTUpperTail(z, degreesOfFreedom);
    if (p <= 0) return { statistic, z, skewness, pValue: 0 };
    if (p >= 1) return { statistic, z, skewness, pValue: 1 };
    zNormal = normalUpperQuantile(p);
  }
  return { statistic, z, skewness, pValue: pearson3UpperTail(zNormal, skewness) };
}

/**
 * P(X > z) for X standardised (mean 0, sd 1) Pearson type III with skewness γ: X = (G − k)/√k,
 * G ~ Gamma(k), k = 4/γ² (reflected for γ < 0), the gamma tail through Wilson–Hilferty,
 * Φ̄(3√k ((g/k)^{1/3} − 1 + 1/(9k))); the normal tail for |γ| < 1e-8.
 */
export function pearson3UpperTail(z: number, skewness: number): number {
  if (Number.isNaN(z) || Number.isNaN(skewness))
    throw new StatsError("INVALID_ARGUMENT", "z and skewness must be numbers");
  if (Math.abs(skewness) < 1e-8) return normalUpperTail(z);
  const k = 4 / (skewness * skewness);
  const root = Math.sqrt(k);
  const wilsonHilferty = (g: number) => 3 * root * (Math.cbrt(g / k) - 1 + 1 / (9 * k));
  if (skewness > 0) {
    const g = k + z * root;
    return g <= 0 ? 1 : normalUpperTail(wilsonHilferty(g));
  }
  const g = k - z * root;
  return g <= 0 ? 0 : normalUpperTail(-wilsonHilferty(g));
}
