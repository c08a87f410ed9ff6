import { describe, expect, it } from "vitest";
import { matrixFromRows } from "./matrix.js";
import { crossProduct, sampleCovariance, sampleMean } from "./sampleCovariance.js";

const x = matrixFromRows([
  [1, 2],
  [2, 1],
  [3, 5],
  [4, 3],
]);

describe("sampleMean / sampleCovariance", () => {
  it("match NumPy's mean and cov(ddof=1)", () => {
    expect(Array.from(sampleMean(x))).toEqual([2.5, 2.75]);
    // np.cov(X, rowvar=False, ddof=1)
    const s = sampleCovariance(x);
    expect(s.rows).toBe(2);
    expect(s.data[0]).toBeCloseTo(1.6666666666666665, 15);
    expect(s.data[1]).toBeCloseTo(1.1666666666666665, 15);
    expect(s.data[2]).toBe(s.data[1]);
    expect(s.data[3]).toBeCloseTo(2.9166666666666665, 15);
  });

  it("crossProduct fills both triangles of XᵀX", () => {
    expect(Array.from(crossProduct(x).data)).toEqual([30, 31, 31, 39]);
  });

  it("refuses empty input, one row and non-finite values", () => {
    expect(() => sampleMean(matrixFromRows([]))).toThrow(expect.objectContaining({ code: "EMPTY_INPUT" }));
    expect(() => sampleCovariance(matrixFromRows([[1, 2]]))).toThrow(
      expect.objectContaining({ code: "TOO_FEW_VALUES" }),
    );
    expect(() =>
      sampleCovariance(
        matrixFromRows([
          [1, 2],
          [Number.NaN, 1],
        ]),
      ),
    ).toThrow(expect.objectContaining({ code: "NON_FINITE" }));
  });
});
