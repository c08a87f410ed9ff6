import { cubeSumOfPairs } from "./kernels/kernels.js";
import { StatsError } from "./statsError.js";

/**
 * Mardia's multivariate skewness b₁ = (1/N²) Σᵢⱼ rᵢⱼ³ of N whitened rows uᵢ (mean 0, covariance I),
 * rᵢⱼ = uᵢᵀuⱼ, in either of two forms that give the same value up to rounding:
 * - "tensor": Σ_jkl (mean of u_j u_k u_l)² over the third-moment tensor, summed over j ≤ k ≤ l with
 *   each index set's multiplicity: N p(p + 1)(p + 2)/6 multiply-adds, O(N p³);
 * - "gram": the N × N inner products themselves, cubed and summed, (Σᵢ rᵢᵢ³ + 2 Σ_{i<j} rᵢⱼ³)/N²:
 *   N(N − 1)/2 · p multiply-adds, O(N² p), the Gram matrix never stored.
 * The tensor is cheaper while p is small against N (3,000 rows: up to p ≈ 35), the Gram form beyond
 * (3,000 rows: p = 1,000 costs 4.5e9 multiply-adds against 5e11 for the tensor).
 * mardiaSkewnessForm picks by a cost estimate with both loops' measured speed.
 */
export type MardiaSkewnessForm = "tensor" | "gram";

/**
 * The cost model behind mardiaSkewnessForm, in multiply-adds of the Gram form's loop (the
 * WebAssembly kernel, kernels.ts). The tensor form builds a product column for each j ≤ k
 * (N p(p + 1)/2) and sums it against each l ≥ k (N p(p + 1)(p + 2)/6) in scalar JavaScript, about
 * 9× the Gram kernel's time per multiply-add; the Gram form pays about ten more per pair for the
 * cube, the block's set-up and its sums. Measured (CPU, N = 150, 600, 3,000 and 10,000, p = 5–150,
 * load average 6): Gram 0.10–0.14 ns per multiply-add from p = 20 on, tensor 0.87–1.07 ns; the
 * model picks the faster form in every cell but one near tie (N = 3,000, p = 30: tensor 14.3
 * against Gram 15.4 ms, picked right).
 */
const TENSOR_COST = 9;
const GRAM_PAIR_OVERHEAD = 10;

/** The cheaper form for N rows of p signals (see MardiaSkewnessForm and TENSOR_COST). */
export function mardiaSkewnessForm(count: number, p: number): MardiaSkewnessForm {
  const tensor = TENSOR_COST * count * ((p * (p + 1)) / 2 + (p * (p + 1) * (p + 2)) / 6);
  const gram = ((count * (count - 1)) / 2) * (p + GRAM_PAIR_OVERHEAD);
  return gram < tensor ? "gram" : "tensor";
}

/**
 * b₁ of `count` whitened rows stored row-major (`rows`: count rows of p values), with `norms` their
 * squared lengths rᵢᵢ, by `form` (the cheaper by default).
 */
export function mardiaSkewness(
  rows: Float64Array,
  count: number,
  p: number,
  norms: Float64Array,
  form: MardiaSkewnessForm = mardiaSkewnessForm(count, p),
): number {
  if (rows.length !== count * p || norms.length !== count) {
    throw new StatsError(
      "DIMENSION_MISMATCH",
      `expected ${count} rows of ${p} values and ${count} norms, got ${rows.length} values and ${norms.length} norms`,
    );
  }
  if (form === "gram") return mardiaSkewnessGram(rows, count, p, norms);
  // The tensor's sums run down each signal's values: signal-major.
  const columns = new Float64Array(count * p);
  for (let r = 0; r < count; r++)
    for (let j = 0; j < p; j++) columns[j * count + r] = rows[r * p + j] as number;
  return mardiaSkewnessTensor(columns, count, p);
}

/** The tensor form: Σ_jkl (mean of u_j u_k u_l)², over j ≤ k ≤ l with each index set's multiplicity. */
function mardiaSkewnessTensor(u: Float64Array, count: number, p: number): number {
  // The products u_j u_k, one column at a time.
  const product = new Float64Array(count);
  let skewness = 0;
  for (let j = 0; j < p; j++) {
    const sj = j * count;
    for (let k = j; k < p; k++) {
      const sk = k * count;
      for (let r = 0; r < count; r++) product[r] = (u[sj + r] as number) * (u[sk + r] as number);
      // Σ over l ≥ k of (mean u_j u_k u_l)²: the l = k term, then the l > k terms (multiplicity 3
      // when j = k, else 6), four columns a pass so each product is loaded once for four sums.
      const first = dotWith(product, u, k * count, count) / count;
      skewness += (j === k ? 1 : 3) * first * first;
      const weight = j === k ? 3 : 6;
      let q = k + 1;
      for (; q + 3 < p; q += 4) {
        const q0 = q * count;
        const q1 = q0 + count;
        const q2 = q1 + count;
        const q3 = q2 + count;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let r = 0; r < count; r++) {
          const v = product[r] as number;
          s0 += v * (u[q0 + r] as number);
          s1 += v * (u[q1 + r] as number);
          s2 += v * (u[q2 + r] as number);
          s3 += v * (u[q3 + r] as number);
        }
        skewness += (weight * (s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3)) / (count * count);
      }
      for (; q < p; q++) {
        const mean = dotWith(product, u, q * count, count) / count;
        skewness += weight * mean * mean;
      }
    }
  }
  return skewness;
}

/** Σ product[r] · u[start + r] over r < count, four accumulators. */
function dotWith(product: Float64Array, u: Float64Array, start: number, count: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let r = 0;
  for (; r + 3 < count; r += 4) {
    s0 += (product[r] as number) * (u[start + r] as number);
    s1 += (product[r + 1] as number) * (u[start + r + 1] as number);
    s2 += (product[r + 2] as number) * (u[start + r + 2] as number);
    s3 += (product[r + 3] as number) * (u[start + r + 3] as number);
  }
  for (; r < count; r++) s0 += (product[r] as number) * (u[start + r] as number);
  return s0 + s1 + (s2 + s3);
}

/** The Gram form: (Σᵢ rᵢᵢ³ + 2 Σ_{i<j} rᵢⱼ³)/N², the pairs' sum by the WebAssembly kernel (kernels.ts). */
function mardiaSkewnessGram(rows: Float64Array, count: number, p: number, norms: Float64Array): number {
  let diagonal = 0;
  for (let r = 0; r < count; r++) diagonal += (norms[r] as number) ** 3;
  return (diagonal + 2 * cubeSumOfPairs(rows, count, p, norms)) / (count * count);
}
