import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { StatsError } from "./statsError.js";
import { wassersteinDistance } from "./wassersteinDistance.js";

const sample = fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 40 });

describe("wassersteinDistance", () => {
  it.each(vectors.wasserstein.map((c, i) => [i, c] as const))(
    "matches SciPy on reference vector %i",
    (_, c) => {
      const options = {
        ...(c.uWeights === undefined ? {} : { uWeights: c.uWeights }),
        ...(c.vWeights === undefined ? {} : { vWeights: c.vWeights }),
      };
      expectRelativelyClose(wassersteinDistance(c.u, c.v, options), c.expected);
    },
  );

  it("accepts Float64Array input and unequal sizes", () => {
    // U jumps at 1, 2, 3 by 1/3; V at 1.5 and 4 by 1/2: ∫|U − V| = 11/12 (SciPy's docs example).
    expect(wassersteinDistance(Float64Array.of(3, 1, 2), Float64Array.of(4, 1.5))).toBeCloseTo(11 / 12, 15);
  });

  it("rejects empty samples, non-finite values and bad weights with a typed error", () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error instanceof StatsError ? error.code : "other";
      }
      return "none";
    };
    expect(codeOf(() => wassersteinDistance([], [1]))).toBe("EMPTY_INPUT");
    expect(codeOf(() => wassersteinDistance([1], []))).toBe("EMPTY_INPUT");
    expect(codeOf(() => wassersteinDistance([1, Number.NaN], [1]))).toBe("NON_FINITE");
    expect(codeOf(() => wassersteinDistance([1], [Number.POSITIVE_INFINITY]))).toBe("NON_FINITE");
    expect(codeOf(() => wassersteinDistance([1, 2], [1], { uWeights: [1] }))).toBe("DIMENSION_MISMATCH");
    expect(codeOf(() => wassersteinDistance([1, 2], [1], { uWeights: [1, -1] }))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => wassersteinDistance([1, 2], [1], { uWeights: [0, 0] }))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => wassersteinDistance([1], [1], { vWeights: [Number.NaN] }))).toBe("INVALID_ARGUMENT");
  });

  it("is symmetric", () => {
    fc.assert(
      fc.property(sample, sample, (u, v) => {
        expect(wassersteinDistance(u, v)).toBe(wassersteinDistance(v, u));
      }),
    );
  });

  it("is zero between a sample and any reordering of it", () => {
    fc.assert(
      fc.property(sample, (u) => {
        expect(wassersteinDistance(u, [...u].reverse())).toBe(0);
      }),
    );
  });

  it("is unchanged when both samples shift by the same constant", () => {
    fc.assert(
      fc.property(sample, sample, fc.double({ min: -1e3, max: 1e3, noNaN: true }), (u, v, c) => {
        const shifted = wassersteinDistance(
          u.map((x) => x + c),
          v.map((x) => x + c),
        );
        // Adding c rounds each value by up to 1 ulp of ~2e3, so allow that much per unit of mass.
        expect(Math.abs(shifted - wassersteinDistance(u, v))).toBeLessThanOrEqual(1e-9);
      }),
    );
  });

  it("equals |c| when one sample is the other shifted by c", () => {
    fc.assert(
      fc.property(sample, fc.double({ min: -1e3, max: 1e3, noNaN: true }), (u, c) => {
        const d = wassersteinDistance(
          u,
          u.map((x) => x + c),
        );
        expect(Math.abs(d - Math.abs(c))).toBeLessThanOrEqual(1e-9);
      }),
    );
  });

  it("weights a value like repeating it", () => {
    expect(wassersteinDistance([0, 1], [0, 1], { uWeights: [3, 1], vWeights: [1, 1] })).toBeCloseTo(
      wassersteinDistance([0, 0, 0, 1], [0, 1]),
      15,
    );
  });
});
