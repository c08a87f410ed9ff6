import { describe, expect, it } from "vitest";
import { D4_MOVING_RANGE, movingRangeChart } from "./movingRangeChart.js";

describe("movingRangeChart", () => {
  it("gives the ranges, MR̄ and UCL = 3.267 · MR̄, checked by hand", () => {
    // 10, 12, 11, 13: ranges 2, 1, 2; MR̄ = 5/3; UCL = 5.445
    const r = movingRangeChart([10, 12, 11, 13]);
    expect([...r.movingRanges]).toEqual([Number.NaN, 2, 1, 2]);
    expect(r.mrBar).toBeCloseTo(5 / 3, 12);
    expect(r.ucl).toBeCloseTo((D4_MOVING_RANGE * 5) / 3, 12);
  });
  it("joins the neighbours of a missing value", () => {
    const r = movingRangeChart([10, Number.NaN, 13]);
    expect([...r.movingRanges]).toEqual([Number.NaN, Number.NaN, 3]);
    expect(r.mrBar).toBe(3);
  });
  it("needs two values", () => {
    expect(() => movingRangeChart([1])).toThrow(/at least 2/);
  });
});
