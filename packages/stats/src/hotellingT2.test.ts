import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { choleskyDecompose } from "./cholesky.js";
import { hotellingT2, hotellingT2OnlyOfColumns, hotellingUcl } from "./hotellingT2.js";
import { createMatrix, matrixFromRows } from "./matrix.js";
import { StatsError } from "./statsError.js";

describe("hotellingUcl", () => {
  it.each(vectors.hotellingUcl.map((c) => [c.m, c.p, c.alpha, c] as const))(
    "matches SciPy for m = %i, p = %i, α = %f",
    (_, __, ___, c) => {
      expectRelativelyClose(hotellingUcl(c.m, c.p, c.alpha), c.expected);
    },
  );

  it("refuses p ≥ m with a typed error", () => {
    for (const [m, p] of [
      [5, 5],
      [4, 5],
    ] as const) {
      try {
        hotellingUcl(m, p, 0.01);
        expect.fail("expected an error");
      } catch (error) {
        expect(error).toBeInstanceOf(StatsError);
        expect((error as StatsError).code).toBe("TOO_FEW_ROWS_FOR_SIGNALS");
      }
    }
    expect(() => hotellingUcl(100, 0, 0.01)).toThrow(StatsError);
    expect(() => hotellingUcl(100, 2, 0)).toThrow(StatsError);
  });
});

describe("hotellingT2", () => {
  it("is the squared length of the row for an identity covariance", () => {
    const { t2, contributions } = hotellingT2(
      matrixFromRows([[3, 4]]),
      matrixFromRows([
        [1, 0],
        [0, 1],
      ]),
    );
    expect(t2[0]).toBe(25);
    expect(Array.from(contributions.data)).toEqual([9, 16]);
  });

  it("matches a hand-computed 2 × 2 case, including a negative contribution", () => {
    // S = [[1, .8], [.8, 1]], y = (1, −1): S⁻¹y = (1, −1)/(1 − .8) = (5, −5), T² = 10.
    // y = (1, 0.5): S⁻¹y = (1 − .4, .5 − .8)/.36 = (1.6667, −0.8333), contributions 1.6667 and −0.4167.
    const s = matrixFromRows([
      [1, 0.8],
      [0.8, 1],
    ]);
    const { t2, contributions } = hotellingT2(
      matrixFromRows([
        [1, -1],
        [1, 0.5],
      ]),
      s,
    );
    expect(t2[0]).toBeCloseTo(10, 12);
    expect(t2[1]).toBeCloseTo(0.6 / 0.36 - 0.15 / 0.36, 12);
    expect(contributions.data[3]).toBeCloseTo(-0.15 / 0.36, 12);
  });

  it("per-signal contributions sum to T² (random SPD covariances)", () => {
    const dim = fc.integer({ min: 1, max: 6 });
    fc.assert(
      fc.property(
        dim.chain((p) =>
          fc.tuple(
            fc.constant(p),
            fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: p * p, maxLength: p * p }),
            fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 3 * p, maxLength: 3 * p }),
          ),
        ),
        ([p, b, y]) => {
          // S = B Bᵀ + I is symmetric positive definite.
          const s = createMatrix(p, p);
          for (let i = 0; i < p; i++) {
            for (let j = 0; j < p; j++) {
              let v = i === j ? 1 : 0;
              for (let k = 0; k < p; k++) v += (b[i * p + k] as number) * (b[j * p + k] as number);
              s.data[i * p + j] = v;
            }
          }
          const { t2, contributions } = hotellingT2(createMatrix(3, p, Float64Array.from(y)), s);
          for (let r = 0; r < 3; r++) {
            let sum = 0;
            for (let j = 0; j < p; j++) sum += contributions.data[r * p + j] as number;
            const t = t2[r] as number;
            expect(t).toBeGreaterThanOrEqual(-1e-12);
            expect(Math.abs(sum - t)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(t)));
          }
        },
      ),
    );
  });

  it("T² alone, by the forward half of the solve, equals T² with the contributions", () => {
    const p = 11;
    const n = 57;
    // S = B Bᵀ/p + 0.5 I with B[i][k] = sin(3i + k): symmetric positive definite.
    const s = createMatrix(p, p);
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++) {
        let v = i === j ? 0.5 : 0;
        for (let k = 0; k < p; k++) v += (Math.sin(3 * i + k) * Math.sin(3 * j + k)) / p;
        s.data[i * p + j] = v;
      }
    const rows = createMatrix(
      n,
      p,
      Float64Array.from({ length: n * p }, (_, i) => Math.cos(1.7 * i)),
    );
    const columns = new Float64Array(n * p);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < p; j++) columns[j * n + i] = rows.data[i * p + j] as number;
    const copy = Float64Array.from(columns);
    const alone = hotellingT2OnlyOfColumns(columns, n, choleskyDecompose(s));
    const { t2 } = hotellingT2(rows, s);
    for (let i = 0; i < n; i++) expectRelativelyClose(alone[i] as number, t2[i] as number, 1e-12);
    expect(columns).toEqual(copy);
    expect(() => hotellingT2OnlyOfColumns(new Float64Array(5), n, choleskyDecompose(s))).toThrow(StatsError);
  });

  it("refuses a singular covariance with NOT_POSITIVE_DEFINITE", () => {
    const singular = matrixFromRows([
      [1, 1],
      [1, 1],
    ]);
    expect(() => hotellingT2(matrixFromRows([[1, 2]]), singular)).toThrow(
      expect.objectContaining({ code: "NOT_POSITIVE_DEFINITE" }),
    );
  });

  it("refuses mismatched shapes and non-finite rows", () => {
    const s = matrixFromRows([
      [1, 0],
      [0, 1],
    ]);
    expect(() => hotellingT2(matrixFromRows([[1, 2, 3]]), s)).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => hotellingT2(matrixFromRows([[1, Number.NaN]]), s)).toThrow(
      expect.objectContaining({ code: "NON_FINITE" }),
    );
  });
});
