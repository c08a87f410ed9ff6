import { describe, expect, it } from "vitest";
import { suggestControlLimits } from "./suggestControlLimits.js";

describe("suggestControlLimits", () => {
  it("gives mean ± 3 · (mean moving range / 1.128), checked by hand", () => {
    // values 10, 12, 11, 13: mean 11.5; moving ranges 2, 1, 2 → 5/3; σ = 5/3/1.128 = 1.477541…
    const r = suggestControlLimits([10, 12, 11, 13]);
    expect(r?.n).toBe(4);
    expect(r?.mean).toBeCloseTo(11.5, 12);
    expect(r?.sigmaWithin).toBeCloseTo(5 / 3 / 1.128, 12);
    expect(r?.lcl).toBeCloseTo(11.5 - (3 * 5) / 3 / 1.128, 12); // 7.067376…
    expect(r?.ucl).toBeCloseTo(11.5 + (3 * 5) / 3 / 1.128, 12); // 15.932624…
  });

  it("leaves out missing values, joining their neighbours", () => {
    const r = suggestControlLimits([10, Number.NaN, 12]);
    expect(r?.n).toBe(2);
    expect(r?.sigmaWithin).toBeCloseTo(2 / 1.128, 12);
  });

  it("has nothing to suggest from fewer than 2 values; a constant process has zero width", () => {
    expect(suggestControlLimits([5])).toBeNull();
    expect(suggestControlLimits([])).toBeNull();
    expect(suggestControlLimits([3, 3, 3])).toMatchObject({ lcl: 3, ucl: 3 });
  });
});
