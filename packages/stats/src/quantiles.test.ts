import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { chiSquareQuantile, fQuantile } from "./quantiles.js";

describe("fQuantile / chiSquareQuantile", () => {
  it.each(vectors.quantiles.map((c, i) => [i, c.dist, c] as const))(
    "matches SciPy on vector %i (%s)",
    (_, __, c) => {
      const actual = c.dist === "f" ? fQuantile(c.p, c.d1, c.d2) : chiSquareQuantile(c.p, c.k);
      expectRelativelyClose(actual, c.expected);
    },
  );

  it("knows closed forms", () => {
    // χ²(2) is exponential with mean 2: F⁻¹(p) = −2 ln(1 − p).
    expectRelativelyClose(chiSquareQuantile(0.95, 2), -2 * Math.log(0.05), 1e-12);
    // The median of F(d, d) is 1 (F and 1/F have the same distribution).
    expectRelativelyClose(fQuantile(0.5, 7, 7), 1, 1e-12);
    expect(fQuantile(0, 3, 9)).toBe(0);
  });

  it("refuses arguments outside their domain instead of answering NaN", () => {
    expect(() => fQuantile(1.2, 2, 3)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => fQuantile(0.5, 0, 3)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => fQuantile(0.5, 2, Number.POSITIVE_INFINITY)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => chiSquareQuantile(Number.NaN, 2)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => chiSquareQuantile(0.5, -1)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});
