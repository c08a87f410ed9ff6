import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { mannWhitneyGreater } from "./mannWhitney.js";

describe("mannWhitneyGreater", () => {
  it.each(vectors.mannWhitney.map((c, i) => [i, c] as const))(
    "matches SciPy mannwhitneyu on vector %i",
    (_, c) => {
      const result = mannWhitneyGreater(c.x, c.y);
      expectRelativelyClose(result.u, c.expected.u);
      expectRelativelyClose(result.pValue, c.expected.pValue);
    },
  );

  it("a VIF widens the variance and degrees of freedom turn z into t", () => {
    const x = [5, 6, 7, 8, 9, 10];
    const y = [1, 2, 3, 4, 5, 6, 7];
    const plain = mannWhitneyGreater(x, y);
    const widened = mannWhitneyGreater(x, y, 4);
    expect(widened.z).toBeCloseTo(plain.z / 2, 12);
    expect(mannWhitneyGreater(x, y, 4, 5).pValue).toBeGreaterThan(widened.pValue);
  });

  it("answers p = 1 when every value is tied and refuses empty samples", () => {
    expect(mannWhitneyGreater([1, 1], [1, 1, 1]).pValue).toBe(1);
    expect(() => mannWhitneyGreater([], [1])).toThrow(/non-empty/);
  });
});
