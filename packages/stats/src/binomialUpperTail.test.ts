import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { binomialUpperTail } from "./binomialUpperTail.js";

describe("binomialUpperTail", () => {
  it.each(vectors.binomialTail.map((c) => [c.n, c.alpha, c.k, c] as const))(
    "matches SciPy binom.sf for n = %i, α = %f, k = %i",
    (_, __, ___, c) => {
      expectRelativelyClose(binomialUpperTail(c.n, c.alpha, c.k), c.expected);
    },
  );

  it("keeps its digits far in the tail where 1 − CDF would give 0", () => {
    // scipy.stats.binom.sf(19, 100, 0.001) and binom.sf(9, 600, 0.001)
    expectRelativelyClose(binomialUpperTail(100, 0.001, 20), 4.966486799439382e-40);
    expectRelativelyClose(binomialUpperTail(600, 0.001, 10), 9.046741647721472e-10);
  });

  it("handles the ends of its range exactly", () => {
    expect(binomialUpperTail(30, 0.01, 0)).toBe(1);
    expect(binomialUpperTail(30, 0.01, -2)).toBe(1);
    expect(binomialUpperTail(30, 0.01, 31)).toBe(0);
    expect(binomialUpperTail(30, 0, 1)).toBe(0);
    expect(binomialUpperTail(30, 1, 30)).toBe(1);
    expect(binomialUpperTail(0, 0.5, 0)).toBe(1);
    // P(X ≥ n) = αⁿ
    expectRelativelyClose(binomialUpperTail(3, 0.1, 3), 0.001, 1e-12);
  });

  it("refuses bad arguments instead of answering NaN", () => {
    expect(() => binomialUpperTail(10.5, 0.1, 1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => binomialUpperTail(-1, 0.1, 1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => binomialUpperTail(10, 1.1, 1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => binomialUpperTail(10, Number.NaN, 1)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => binomialUpperTail(10, 0.1, 1.5)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
