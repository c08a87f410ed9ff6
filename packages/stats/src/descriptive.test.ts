import { describe, expect, it } from "vitest";
import { mean, median, medianAbsoluteDeviation, sampleStandardDeviation } from "./descriptive.js";
import { StatsError } from "./statsError.js";

describe("descriptive statistics", () => {
  it("computes mean, sample sd (n − 1), median and MAD", () => {
    const x = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(x)).toBe(5);
    expect(sampleStandardDeviation(x)).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect(median(x)).toBe(4.5);
    expect(median([3, 1, 2])).toBe(2);
    // |x − 4.5| = 2.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2.5, 4.5 → median 0.5
    expect(medianAbsoluteDeviation(x)).toBe(0.5);
  });

  it("keeps digits under a large common offset", () => {
    expect(sampleStandardDeviation([1e9 + 1, 1e9 + 2, 1e9 + 3])).toBe(1);
  });

  it("gives exactly 0 sd and the exact value as mean for a constant signal", () => {
    const x = new Float64Array(7).fill(0.1);
    expect(sampleStandardDeviation(x)).toBe(0);
    expect(mean(x)).toBe(0.1);
  });

  it("refuses empty input, one value for a sd, and non-finite values", () => {
    expect(() => mean([])).toThrow(StatsError);
    expect(() => median([])).toThrow(/at least one value/);
    expect(() => sampleStandardDeviation([1])).toThrow(/at least 2 values/);
    expect(() => mean([1, Number.NaN])).toThrow(/non-finite/);
  });
});
