import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { valueGrid } from "./valueGrid.js";

describe("valueGrid", () => {
  it("finds a gauge's resolution in values stored as decimals (0.05 mm: 10.05, 10.1, …)", () => {
    const z = normalGenerator(3);
    const readings = Array.from({ length: 200 }, () => Math.round((10 + 0.2 * z()) * 20) / 20);
    const grid = valueGrid(readings);
    expect(grid?.step).toBeCloseTo(0.05, 9);
    expect(grid?.origin).toBe(Math.min(...readings));
    // Every reading is origin + k · step for a whole k.
    for (const v of readings) {
      const k = (v - (grid?.origin ?? 0)) / (grid?.step ?? 1);
      expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-6);
    }
  });

  it("finds no grid in continuous values, nor where the gaps are not multiples of one step", () => {
    const z = normalGenerator(4);
    expect(valueGrid(Array.from({ length: 200 }, z))).toBeNull();
    // Many ties, but 0.3 is not a whole multiple of the smallest gap 0.2.
    expect(valueGrid([1, 1, 1.2, 1.2, 1.5, 1.5, 1, 1.2])).toBeNull();
    // Too few values, one distinct value, more than half of them distinct.
    expect(valueGrid([1, 1, 2])).toBeNull();
    expect(valueGrid([5, 5, 5, 5, 5])).toBeNull();
    expect(valueGrid([1, 2, 3, 4, 5, 5])).toBeNull();
  });

  it("ignores values that are not finite", () => {
    expect(valueGrid([0.5, Number.NaN, 1, 0.5, 1, 1.5, Number.POSITIVE_INFINITY, 1])).toEqual({
      step: 0.5,
      origin: 0.5,
    });
  });
});
