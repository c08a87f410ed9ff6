import { describe, expect, it } from "vitest";
import { histogram, MAX_HISTOGRAM_BINS } from "./histogram.js";

describe("histogram", () => {
  it("counts every finite value once on equal bins over the values and the spec limits", () => {
    // 25 values 0..24 with LSL −5 and USL 30: √25 = 5 bins of 7 over [−5, 30]
    const values = Array.from({ length: 25 }, (_, i) => i);
    const h = histogram([...values, Number.NaN], [-5, 30, null]);
    expect(h.edges).toEqual([-5, 2, 9, 16, 23, 30]);
    expect(h.counts).toEqual([2, 7, 7, 7, 2]);
  });
  it("puts the maximum in the last bin and caps the bins", () => {
    const h = histogram(Array.from({ length: 10_000 }, (_, i) => i));
    expect(h.counts.length).toBe(MAX_HISTOGRAM_BINS);
    expect(h.counts.reduce((s, c) => s + c, 0)).toBe(10_000);
  });
  it("widens a single value to ±0.5 and refuses no values", () => {
    expect(histogram([2, 2]).edges[0]).toBe(1.5);
    expect(() => histogram([Number.NaN])).toThrow();
  });
});
