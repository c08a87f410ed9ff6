import { dotOf } from "./sampleCovariance.js";
import { StatsError } from "./statsError.js";

/**
 * Mardia's multivariate skewness b₁ = (1/N²) Σᵢⱼ rᵢⱼ³ of N whitened rows uᵢ (mean 0, covariance I),
 * rᵢⱼ = uᵢᵀuⱼ, in either of two forms that give the same value up to rounding:
 * - "tensor": Σ_jkl (mean of u_j u_k u_l)² over the third-moment tensor, summed over j ≤ k ≤ l with
 *   each index set's multiplicity: N p(p + 1)(p + 2)/6 multiply-adds, O(N p³);
 * - "gram": the N × N inner products themselves, cubed and summed, (Σᵢ rᵢᵢ³ + 2 Σ_{i<j} rᵢⱼ³)/N²:
 *   N(N − 1)/2 · p multiply-adds, O(N² p), the Gram matrix never stored.
 * The tensor is cheaper while p² < about 1.7 N (3,000 rows: up to p ≈ 70), the Gram form when p is
 * large against N (3,000 rows: p = 1,000 costs 4.5e9 multiply-adds against 5e11 for the tensor).
 * mardiaSkewnessForm picks by a cost estimate with both loops' measured speed.
 */
export type MardiaSkewnessForm = "tensor" | "gram";

/**
 * The cost model behind mardiaSkewnessForm, in multiply-adds of the Gram form's loop. The tensor
 * form builds a product column for each j ≤ k (N p(p + 1)/2) and sums it against each l ≥ k
 * (N p(p + 1)(p + 2)/6), one loaded product for four sums, at about 1.8× the Gram form's time per
 * multiply-add (2 × 4 blocks, eight sums per six loads); the Gram form pays about three more per
 * pair for the cube and the loop. Measured (bench data, N = 150, 600, 3,000 and p = 5–100, a
 * busy machine): Gram 0.55–1.0 ns, tensor 1.0–2.3 ns per multiply-add; the model picks the faster
 * form in every cell but near ties (N = 600, p = 30: 3.2 against 4.2 ms).
 */
const TENSOR_COST = 1.8;
const GRAM_PAIR_OVERHEAD = 3;

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

/**
 * Rows of a tile of the Gram form: a tile's rows take about 128 kB (16,384 values), so two tiles
 * stay in the 512 kB L2 while every pair between them is formed; an even count so the kernel's
 * row pairs never straddle two tiles.
 */
const GRAM_TILE_VALUES = 16_384;

/** The Gram form: (Σᵢ rᵢᵢ³ + 2 Σ_{i<j} rᵢⱼ³)/N², each rᵢⱼ a dot product of two contiguous rows. */
function mardiaSkewnessGram(rows: Float64Array, count: number, p: number, norms: Float64Array): number {
  let diagonal = 0;
  for (let r = 0; r < count; r++) diagonal += (norms[r] as number) ** 3;
  const tile = Math.max(2, 2 * Math.floor(GRAM_TILE_VALUES / (2 * p)));
  let offDiagonal = 0;
  for (let i0 = 0; i0 < count; i0 += tile) {
    const i1 = Math.min(count, i0 + tile);
    for (let j0 = i0; j0 < count; j0 += tile) {
      offDiagonal += tileCubeSum(rows, p, i0, i1, j0, Math.min(count, j0 + tile));
    }
  }
  return (diagonal + 2 * offDiagonal) / (count * count);
}

/**
 * Σ (uₐᵀu_b)³ over the rows a in [i0, i1) and b in [j0, j1) with b > a (tiles either the same,
 * i0 = j0, or disjoint with j0 ≥ i1). Each pass over the p values computes a 2 × 4 block of inner
 * products (gramOfColumns' kernel: 8 multiply-adds per 6 loads, eight independent sums).
 */
function tileCubeSum(u: Float64Array, p: number, i0: number, i1: number, j0: number, j1: number): number {
  const isDiagonal = i0 === j0;
  let total = 0;
  let a = i0;
  for (; a + 1 < i1; a += 2) {
    const a0 = a * p;
    const a1 = a0 + p;
    let b = j0;
    if (isDiagonal) {
      const r = dotOf(u, a0, a1, p);
      total += r * r * r;
      b = a + 2;
    }
    for (; b + 3 < j1; b += 4) {
      const b0 = b * p;
      const b1 = b0 + p;
      const b2 = b1 + p;
      const b3 = b2 + p;
      let s00 = 0;
      let s01 = 0;
      let s02 = 0;
      let s03 = 0;
      let s10 = 0;
      let s11 = 0;
      let s12 = 0;
      let s13 = 0;
      for (let k = 0; k < p; k++) {
        const x = u[a0 + k] as number;
        const y = u[a1 + k] as number;
        const v0 = u[b0 + k] as number;
        const v1 = u[b1 + k] as number;
        const v2 = u[b2 + k] as number;
        const v3 = u[b3 + k] as number;
        s00 += x * v0;
        s01 += x * v1;
        s02 += x * v2;
        s03 += x * v3;
        s10 += y * v0;
        s11 += y * v1;
        s12 += y * v2;
        s13 += y * v3;
      }
      total +=
        s00 * s00 * s00 +
        s01 * s01 * s01 +
        s02 * s02 * s02 +
        s03 * s03 * s03 +
        (s10 * s10 * s10 + s11 * s11 * s11 + s12 * s12 * s12 + s13 * s13 * s13);
    }
    for (; b < j1; b++) {
      const r0 = dotOf(u, a0, b * p, p);
      const r1 = dotOf(u, a1, b * p, p);
      total += r0 * r0 * r0 + r1 * r1 * r1;
    }
  }
  // Tiles are even but the last; the last row of an odd last tile has no partner after it (its
  // pairs with earlier rows came in their passes).
  return total;
}
