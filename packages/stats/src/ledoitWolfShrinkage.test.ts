import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { choleskyDecompose } from "./cholesky.js";
import { ledoitWolfShrinkage, shrinkCovariance } from "./ledoitWolfShrinkage.js";
import { createMatrix, type Matrix, matrixFromRows } from "./matrix.js";
import { sampleCovariance } from "./sampleCovariance.js";

/** The reference's step 1: standardise by training mean and sd (n − 1), keeping the listed columns. */
function standardised(rows: number[][], kept: number[]): Matrix {
  const m = rows.length;
  const out = createMatrix(m, kept.length);
  kept.forEach((col, j) => {
    const column = rows.map((r) => r[col] as number);
    const mu = column.reduce((a, b) => a + b, 0) / m;
    const sd = Math.sqrt(column.reduce((a, b) => a + (b - mu) ** 2, 0) / (m - 1));
    column.forEach((v, i) => {
      out.data[i * kept.length + j] = (v - mu) / sd;
    });
  });
  return out;
}

describe("ledoitWolfShrinkage", () => {
  it.each(vectors.mvd.map((c, i) => [i, c] as const))(
    "matches scikit-learn's formula on MVD vector %i",
    (_, c) => {
      expectRelativelyClose(
        ledoitWolfShrinkage(standardised(c.train, c.expected.keptSignals)),
        c.expected.shrinkage,
      );
    },
  );

  it("lies in [0, 1] and makes a p > m covariance invertible", () => {
    const next = normalGenerator(31);
    const x = createMatrix(8, 12, Float64Array.from({ length: 96 }, next));
    const s = sampleCovariance(x);
    expect(() => choleskyDecompose(s)).toThrow(expect.objectContaining({ code: "NOT_POSITIVE_DEFINITE" }));
    const delta = ledoitWolfShrinkage(x);
    expect(delta).toBeGreaterThan(0);
    expect(delta).toBeLessThanOrEqual(1);
    expect(() => choleskyDecompose(shrinkCovariance(s, delta))).not.toThrow();
  });

  it("is 0 for one column (as scikit-learn) and refuses one row", () => {
    expect(ledoitWolfShrinkage(matrixFromRows([[1], [2], [4]]))).toBe(0);
    expect(() => ledoitWolfShrinkage(matrixFromRows([[1, 2]]))).toThrow(
      expect.objectContaining({ code: "TOO_FEW_VALUES" }),
    );
    expect(() => ledoitWolfShrinkage(createMatrix(0, 2))).toThrow(
      expect.objectContaining({ code: "EMPTY_INPUT" }),
    );
  });
});

describe("shrinkCovariance", () => {
  const s = matrixFromRows([
    [2, 1],
    [1, 4],
  ]);

  it("moves S towards μ I while keeping the trace", () => {
    expect(Array.from(shrinkCovariance(s, 0).data)).toEqual([2, 1, 1, 4]);
    expect(Array.from(shrinkCovariance(s, 1).data)).toEqual([3, 0, 0, 3]);
    expect(Array.from(shrinkCovariance(s, 0.5).data)).toEqual([2.5, 0.5, 0.5, 3.5]);
  });

  it("refuses δ outside [0, 1] and non-square input", () => {
    expect(() => shrinkCovariance(s, 1.5)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => shrinkCovariance(s, Number.NaN)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => shrinkCovariance(createMatrix(2, 3), 0.1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
