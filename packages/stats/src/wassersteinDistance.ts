import { assertFinite, StatsError } from "./statsError.js";

export interface WassersteinOptions {
  /** Non-negative weight per value of `u` (same length); all 1 when left out. */
  readonly uWeights?: ArrayLike<number>;
  /** Non-negative weight per value of `v` (same length); all 1 when left out. */
  readonly vWeights?: ArrayLike<number>;
}

interface SortedSample {
  readonly values: Float64Array;
  /** Cumulative weight after each sorted value, divided by the total: the empirical CDF. */
  readonly cdf: Float64Array;
}

/**
 * 1-D Wasserstein (earth mover's) distance between two empirical distributions, SciPy's
 * `scipy.stats.wasserstein_distance` definition: ∫ |U(x) − V(x)| dx over the merged sample, with U
 * and V the (weighted) empirical CDFs. The samples may differ in size. Result is in the units of
 * the values (docs/monitoring.md "SVD" divides it by the training scale).
 *
 * Throws StatsError EMPTY_INPUT, NON_FINITE, DIMENSION_MISMATCH (weights vs values) or
 * INVALID_ARGUMENT (a negative or non-finite weight, or weights summing to 0).
 */
export function wassersteinDistance(
  u: ArrayLike<number>,
  v: ArrayLike<number>,
  options: WassersteinOptions = {},
): number {
  const a = sortSample(u, options.uWeights, "u");
  const b = sortSample(v, options.vWeights, "v");
  const av = a.values;
  const bv = b.values;
  const na = av.length;
  const nb = bv.length;

  // Walk the merged sorted sample once. Between two neighbouring points x_k < x_{k+1} both CDFs
  // are constant (right-continuous, counting values ≤ x_k), so the integral is a sum of
  // |U − V| · (x_{k+1} − x_k), the same sum SciPy's _cdf_distance forms.
  let i = 0;
  let j = 0;
  let previous = Math.min(av[0] as number, bv[0] as number);
  while (i < na && (av[i] as number) <= previous) i++;
  while (j < nb && (bv[j] as number) <= previous) j++;
  let sum = 0;
  while (i < na || j < nb) {
    const nextA = i < na ? (av[i] as number) : Number.POSITIVE_INFINITY;
    const nextB = j < nb ? (bv[j] as number) : Number.POSITIVE_INFINITY;
    const next = Math.min(nextA, nextB);
    const cdfA = i === 0 ? 0 : (a.cdf[i - 1] as number);
    const cdfB = j === 0 ? 0 : (b.cdf[j - 1] as number);
    sum += Math.abs(cdfA - cdfB) * (next - previous);
    while (i < na && (av[i] as number) <= next) i++;
    while (j < nb && (bv[j] as number) <= next) j++;
    previous = next;
  }
  return sum;
}

function sortSample(
  values: ArrayLike<number>,
  weights: ArrayLike<number> | undefined,
  name: string,
): SortedSample {
  const n = values.length;
  if (n === 0)
    throw new StatsError("EMPTY_INPUT", `Wasserstein distance needs at least one value in ${name}`);
  assertFinite(values, name);
  if (weights === undefined) {
    const sorted = Float64Array.from(values).sort();
    const cdf = new Float64Array(n);
    // i / n exactly as SciPy divides the searchsorted index by the size.
    for (let k = 0; k < n; k++) cdf[k] = (k + 1) / n;
    return { values: sorted, cdf };
  }
  if (weights.length !== n) {
    throw new StatsError("DIMENSION_MISMATCH", `${name} has ${n} values but ${weights.length} weights`);
  }
  for (let k = 0; k < n; k++) {
    const w = weights[k] as number;
    if (!Number.isFinite(w) || w < 0) {
      throw new StatsError("INVALID_ARGUMENT", `weight ${k} of ${name} must be finite and ≥ 0, got ${w}`);
    }
  }
  const order = Array.from({ length: n }, (_, k) => k);
  order.sort((p, q) => (values[p] as number) - (values[q] as number));
  const sorted = new Float64Array(n);
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const index = order[k] as number;
    sorted[k] = values[index] as number;
    total += weights[index] as number;
    cumulative[k] = total;
  }
  if (!(total > 0) || !Number.isFinite(total)) {
    throw new StatsError("INVALID_ARGUMENT", `the weights of ${name} must sum to a positive finite number`);
  }
  for (let k = 0; k < n; k++) cumulative[k] = (cumulative[k] as number) / total;
  return { values: sorted, cdf: cumulative };
}
