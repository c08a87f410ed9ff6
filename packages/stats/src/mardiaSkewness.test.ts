import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose } from "../test/referenceVectors.js";
import { choleskyDecompose, choleskyForwardColumns } from "./cholesky.js";
import { mardiaSkewness, mardiaSkewnessForm } from "./mardiaSkewness.js";
import { createMatrix } from "./matrix.js";
import { centreColumnsInPlace, gramOfColumns } from "./sampleCovariance.js";

/** `count` rows of p signals, signal-major, each value from `draw`, mixed by x_j += 0.5 x_{j−1}. */
function rows(seed: number, count: number, p: number, draw: (next: () => number) => number): Float64Array {
  const next = normalGenerator(seed);
  const out = new Float64Array(count * p);
  for (let j = 0; j < p; j++) {
    for (let r = 0; r < count; r++) {
      out[j * count + r] = draw(next) + (j > 0 ? 0.5 * (out[(j - 1) * count + r] as number) : 0);
    }
  }
  return out;
}

/** Signal-major columns as rows (row-major), and each row's squared length. */
function asRows(columns: Float64Array, count: number, p: number): { u: Float64Array; norms: Float64Array } {
  const u = new Float64Array(count * p);
  const norms = new Float64Array(count);
  for (let r = 0; r < count; r++) {
    for (let j = 0; j < p; j++) {
      const v = columns[j * count + r] as number;
      u[r * p + j] = v;
      norms[r] = (norms[r] as number) + v * v;
    }
  }
  return { u, norms };
}

/** The rows centred and whitened by their own covariance (divisor N), row-major, with their norms. */
function whitened(columns: Float64Array, count: number, p: number): { u: Float64Array; norms: Float64Array } {
  const centred = Float64Array.from(columns);
  centreColumnsInPlace(centred, count, p);
  const covariance = gramOfColumns(centred, count, p).map((c) => c / count);
  choleskyForwardColumns(choleskyDecompose(createMatrix(p, p, covariance)), centred, count);
  return asRows(centred, count, p);
}

/** (1/N²) Σᵢ Σⱼ (uᵢᵀuⱼ)³ by the definition: every ordered pair, one inner product at a time. */
function bruteForce(u: Float64Array, count: number, p: number): number {
  let sum = 0;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < count; k++) {
      let r = 0;
      for (let j = 0; j < p; j++) r += (u[i * p + j] as number) * (u[k * p + j] as number);
      sum += r * r * r;
    }
  }
  return sum / (count * count);
}

const normal = (next: () => number) => next();
// Lognormal (σ 0.8) and a t-like ratio: skewed and heavy-tailed rows, b₁ far from its normal value.
const lognormal = (next: () => number) => Math.exp(0.8 * next());
const heavyTailed = (next: () => number) => next() / Math.max(0.15, Math.abs(next()));

describe("mardiaSkewness", () => {
  it.each([
    ["normal, p ≪ N", 7, 300, 5, normal],
    ["lognormal, p < N", 8, 400, 12, lognormal],
    ["heavy-tailed, p < N", 9, 250, 20, heavyTailed],
    ["lognormal, p close to N", 10, 60, 50, lognormal],
    ["normal, p close to N", 11, 45, 42, normal],
    // Odd N beyond one tile of the Gram form (326 rows at p = 50): tiles paired, odd last tile.
    ["heavy-tailed, several Gram tiles", 12, 701, 50, heavyTailed],
  ] as const)("gives the same b₁ in both forms and by the definition (%s)", (_, seed, count, p, draw) => {
    const { u, norms } = whitened(rows(seed, count, p, draw), count, p);
    const gram = mardiaSkewness(u, count, p, norms, "gram");
    const tensor = mardiaSkewness(u, count, p, norms, "tensor");
    expectRelativelyClose(gram, tensor, 1e-9);
    expectRelativelyClose(gram, bruteForce(u, count, p), 1e-9);
    // Whitened normal rows have b₁ near its normal expectation p(p + 1)(p + 2)/N; the others not.
    expect(gram).toBeGreaterThan(0);
  });

  it("is each form's own sum, not the whitening's: the identity holds for any rows", () => {
    const count = 90;
    const p = 6;
    const { u, norms } = asRows(rows(13, count, p, lognormal), count, p);
    const expected = bruteForce(u, count, p);
    expectRelativelyClose(mardiaSkewness(u, count, p, norms, "gram"), expected, 1e-12);
    expectRelativelyClose(mardiaSkewness(u, count, p, norms, "tensor"), expected, 1e-12);
  });

  it("takes the cheaper form by default", () => {
    const count = 200;
    const p = 30;
    const { u, norms } = whitened(rows(14, count, p, lognormal), count, p);
    const form = mardiaSkewnessForm(count, p);
    expect(mardiaSkewness(u, count, p, norms)).toBe(mardiaSkewness(u, count, p, norms, form));
  });

  it("refuses rows and norms of the wrong size", () => {
    expect(() => mardiaSkewness(new Float64Array(10), 5, 3, new Float64Array(5))).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => mardiaSkewness(new Float64Array(15), 5, 3, new Float64Array(4))).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });
});

describe("mardiaSkewnessForm", () => {
  it("keeps the tensor for small monitors and takes the Gram form when p is large against N", () => {
    // 3,000 rows: the tensor costs N p³/6 at about 9× the Gram kernel's N² p/2 per multiply-add;
    // they cross between p = 30 and 45 (measured: 14.3 against 15.4 ms at 30, 45 against 23 at 45).
    expect(mardiaSkewnessForm(3000, 2)).toBe("tensor");
    expect(mardiaSkewnessForm(3000, 20)).toBe("tensor");
    expect(mardiaSkewnessForm(3000, 30)).toBe("tensor");
    expect(mardiaSkewnessForm(3000, 45)).toBe("gram");
    expect(mardiaSkewnessForm(3000, 100)).toBe("gram");
    expect(mardiaSkewnessForm(3000, 1000)).toBe("gram");
    // Small windows reach the crossing sooner: between p = 5 and 20 over 150 rows (measured 0.08
    // against 0.13 ms at 5, 0.40 against 0.12 at 20).
    expect(mardiaSkewnessForm(150, 5)).toBe("tensor");
    expect(mardiaSkewnessForm(150, 20)).toBe("gram");
  });

  it("switches once as p grows: the cost ratio is monotone", () => {
    for (const count of [100, 600, 3000]) {
      const forms = Array.from({ length: 200 }, (_, i) => mardiaSkewnessForm(count, i + 1));
      const first = forms.indexOf("gram");
      expect(first).toBeGreaterThan(0);
      expect(forms.slice(first).every((f) => f === "gram")).toBe(true);
    }
  });
});
