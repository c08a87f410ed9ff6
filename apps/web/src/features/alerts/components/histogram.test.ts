import { describe, expect, it } from "vitest";
import { binCount, HISTOGRAM_BINS, sharedBins } from "./histogram";

describe("sharedBins", () => {
  it("bins both sets on the same edges over their pooled range", () => {
    const r = sharedBins([0, 1, 1, 2], [3, 4], 4);
    expect(r.edges).toEqual([0, 1, 2, 3, 4]);
    expect(r.counts).toEqual([
      [1, 2, 1, 0],
      [0, 0, 0, 2],
    ]);
    expect(r.percents).toEqual([
      [25, 50, 25, 0],
      [0, 0, 0, 100],
    ]);
  });

  it("puts the largest value in the last bin and leaves non-finite values out", () => {
    const r = sharedBins([0, 10, Number.NaN], [5, Number.POSITIVE_INFINITY], 2);
    expect(r.edges).toEqual([0, 5, 10]);
    expect(r.counts).toEqual([
      [1, 1],
      [0, 1],
    ]);
    expect(r.percents[0]).toEqual([50, 50]);
  });

  it("gives one bin around a single value and nothing for no values", () => {
    expect(sharedBins([2, 2], [2])).toEqual({
      edges: [1.5, 2.5],
      counts: [[2], [1]],
      percents: [[100], [100]],
    });
    expect(sharedBins([], [])).toEqual({ edges: [], counts: [[], []], percents: [[], []] });
  });

  it("every value of each set falls in exactly one bin", () => {
    const a = Array.from({ length: 137 }, (_, i) => Math.sin(i) * 3 + 10);
    const b = Array.from({ length: 41 }, (_, i) => Math.cos(i) * 2 + 12);
    const r = sharedBins(a, b);
    expect(r.counts[0].reduce((s, x) => s + x, 0)).toBe(137);
    expect(r.counts[1].reduce((s, x) => s + x, 0)).toBe(41);
    expect(r.edges).toHaveLength(r.counts[0].length + 1);
    expect(r.edges[0]).toBe(Math.min(...a, ...b));
    expect(r.edges.at(-1)).toBe(Math.max(...a, ...b));
  });
});

describe("binCount", () => {
  it("follows Freedman–Diaconis within the bounds", () => {
    // 1000 evenly spread values on [0, 999]: IQR ≈ 499.5, width ≈ 99.9, range 999 → 10 bins.
    expect(binCount(Array.from({ length: 1000 }, (_, i) => i))).toBe(10);
    // 8 values: IQR 3.5, width 3.5 → 2 bins, raised to the minimum.
    expect(binCount([0, 1, 2, 3, 4, 5, 6, 7])).toBe(HISTOGRAM_BINS.min);
    // Heavy tails: a narrow IQR with far outliers would ask for hundreds of bins.
    const tails = [
      ...Array.from({ length: 100 }, () => 0),
      ...Array.from({ length: 100 }, (_, i) => i / 100),
      1e4,
    ];
    expect(binCount(tails)).toBe(HISTOGRAM_BINS.max);
  });
});
