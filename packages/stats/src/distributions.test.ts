import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { chiSquareUpperTail } from "./distributions.js";

describe("chiSquareUpperTail", () => {
  it.each(vectors.chiSquareTails.map((c, i) => [i, c.x, c.k, c] as const))(
    "matches SciPy's chi2.sf on vector %i (x %s, k %s)",
    (_, __, ___, c) => {
      expectRelativelyClose(chiSquareUpperTail(c.x, c.k), c.expected);
    },
  );

  it("knows the exponential case and refuses degrees of freedom that are not positive", () => {
    // χ²(2) is exponential with mean 2.
    expectRelativelyClose(chiSquareUpperTail(3, 2), Math.exp(-1.5), 1e-12);
    expect(chiSquareUpperTail(Number.POSITIVE_INFINITY, 4)).toBe(0);
    expect(() => chiSquareUpperTail(1, 0)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => chiSquareUpperTail(Number.NaN, 3)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
