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

  it.each(vectors.savageExactTail.map((c, i) => [i, c] as const))(
    "matches the NumPy reference in the far upper tail, case %i",
    (_, c) => {
      expectClose(savageGreater(c.x, c.y).pValue, c.expected.pValue);
    },
  );

  it("reads the far upper tail as the exact permutation law does, where Pearson III overstates it", () => {
    // 6 of 16 values: from P 5e-4 to 5e-2 (the structure test's shares at high … low) the
    // saddlepoint is within 20 % of the enumerated tail; the gamma tail is 1.4–6× too large there.
    const decisive = vectors.savageExactTail.filter((c) => c.exact >= 4e-4 && c.exact <= 0.02);
    expect(decisive.length).toBeGreaterThanOrEqual(5);
    for (const c of decisive) {
      const p = savageGreater(c.x, c.y).pValue;
      expect(Math.abs(p - c.exact) / c.exact).toBeLessThan(0.2);
      expect(c.pearson3 / c.exact).toBeGreaterThan(1.4);
    }
  });

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
