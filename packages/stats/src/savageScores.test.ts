import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { pearson3UpperTail, savageGreater } from "./savageScores.js";

/** Within 1e-9 relative, or 1e-12 absolute for values near 0 (a statistic or skewness of 0). */
function expectClose(actual: number, expected: number): void {
  if (Math.abs(expected) < 1e-6) expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12);
  else expectRelativelyClose(actual, expected);
}

describe("savageGreater", () => {
  it.each(vectors.savage.map((c, i) => [i, c] as const))(
    "matches the NumPy reference on vector %i",
    (_, c) => {
      const result = savageGreater(c.x, c.y, c.vif, c.degrees ?? Number.POSITIVE_INFINITY);
      expectClose(result.statistic, c.expected.statistic);
      expectClose(result.z, c.expected.z);
      expectClose(result.skewness, c.expected.skewness);
      expectClose(result.pValue, c.expected.pValue);
    },
  );

  it("weighs the upper ranks: a few very large values beat a uniform small lift", () => {
    const y = Array.from({ length: 120 }, (_, i) => (i + 0.5) / 120);
    // Half near zero, half above every training value: a Mann–Whitney AUC near ½, Savage sees it.
    const x = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 0.001 * i : 2 + i));
    expect(savageGreater(x, y).pValue).toBeLessThan(1e-3);
  });

  it("a VIF widens the variance, degrees of freedom widen the tail", () => {
    const x = [5, 6, 7, 8, 9, 10];
    const y = [1, 2, 3, 4, 5.5, 6.5, 7.5];
    const plain = savageGreater(x, y);
    const widened = savageGreater(x, y, 4);
    expect(widened.z).toBeCloseTo(plain.z / 2, 12);
    expect(widened.skewness).toBeCloseTo(plain.skewness * 2, 12);
    expect(savageGreater(x, y, 4, 5).pValue).toBeGreaterThan(widened.pValue);
  });

  it("answers p = 1 when every value is tied and refuses empty samples", () => {
    expect(savageGreater([1, 1], [1, 1, 1]).pValue).toBe(1);
    expect(() => savageGreater([], [1])).toThrow(/non-empty/);
  });
});

describe("pearson3UpperTail", () => {
  it.each(vectors.pearson3.map((c, i) => [i, c] as const))(
    "matches the reference's Wilson–Hilferty form on vector %i",
    (_, c) => {
      expectClose(pearson3UpperTail(c.z, c.skewness), c.expected);
    },
  );

  it("is within 1 % of the exact gamma tail where the structure test decides (|γ| ≤ 0.3, p ≥ 1e-4)", () => {
    for (const c of vectors.pearson3) {
      if (Math.abs(c.skewness) > 0.3 || c.gammaTail < 1e-4 || c.gammaTail > 0.5) continue;
      expect(Math.abs(pearson3UpperTail(c.z, c.skewness) - c.gammaTail) / c.gammaTail).toBeLessThan(0.01);
    }
  });
});
