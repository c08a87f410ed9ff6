import { describe, expect, it } from "vitest";
import { capHeld } from "../test/capHeldVectors.js";
import { normalSample } from "../test/random.js";
import { expectRelativelyClose } from "../test/referenceVectors.js";
import { normalUpperTail } from "./distributions.js";
import {
  expectedExceedanceRate,
  isAutocorrelationMaterial,
  lag1Autocorrelation,
  NOMINAL_FALSE_ALARM_RATE,
  suggestControlLimits,
} from "./suggestControlLimits.js";

/** A stationary AR(1) of coefficient φ with unit marginal σ, seeded. */
function ar1(seed: number, n: number, phi: number): number[] {
  const e = normalSample(seed, n);
  const out = [e[0] as number];
  for (let i = 1; i < n; i++)
    out.push(phi * (out[i - 1] as number) + Math.sqrt(1 - phi * phi) * (e[i] as number));
  return out;
}

describe("suggestControlLimits", () => {
  it("gives mean ± 3 · (mean moving range / 1.128), checked by hand", () => {
    // values 10, 12, 11, 13: mean 11.5; moving ranges 2, 1, 2 → 5/3; σ = 5/3/1.128 = 1.477541…
    const r = suggestControlLimits([10, 12, 11, 13]);
    expect(r?.n).toBe(4);
    expect(r?.mean).toBeCloseTo(11.5, 12);
    expect(r?.sigmaWithin).toBeCloseTo(5 / 3 / 1.128, 12);
    expect(r?.basis).toBe("moving_range");
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
    expect(suggestControlLimits([3, 3, 3])).toMatchObject({ lcl: 3, ucl: 3, lag1Autocorrelation: 0 });
  });

  it.each(capHeld.suggestControlLimits.map((c) => [c.phi, c.values.length, c] as const))(
    "matches the reference on an AR(1) of φ %s, %i values",
    (_, __, c) => {
      const r = suggestControlLimits(c.values);
      const e = c.expected;
      if (r === null) throw new Error("expected a suggestion");
      expect(r.n).toBe(e.n);
      expect(r.isAutocorrelated).toBe(e.isAutocorrelated);
      expect(r.basis).toBe(e.basis);
      for (const k of [
        "mean",
        "sigmaWithin",
        "sigmaOverall",
        "sigmaProcess",
        "lag1Autocorrelation",
        "sigmaRatio",
        "lcl",
        "ucl",
        "expectedFalseAlarmRate",
      ] as const) {
        expectRelativelyClose(r[k] ?? Number.NaN, e[k], 1e-9);
      }
      for (const pair of ["movingRange", "overall"] as const) {
        expectRelativelyClose(r[pair].lcl, e[pair].lcl, 1e-9);
        expectRelativelyClose(r[pair].ucl, e[pair].ucl, 1e-9);
        expectRelativelyClose(r[pair].expectedFalseAlarmRate, e[pair].expectedFalseAlarmRate, 1e-8);
      }
    },
  );

  it.each(capHeld.expectedExceedanceRate.map((c) => [c.n, c.phi, c.basis, c] as const))(
    "expectedExceedanceRate(%i, φ %s, %s) matches SciPy's quad over the χ² law",
    (_, __, ___, c) => {
      expectRelativelyClose(expectedExceedanceRate(c.n, c.phi, c.basis), c.expected, 1e-8);
    },
  );

  it("says the moving range flags about 3.5 %, 10 % and 35 % of an AR(1)'s points at φ 0.5, 0.7, 0.9", () => {
    // Limits known exactly: 2Φ(−3 √(1 − φ)); from 1,000 values the estimation adds a little.
    for (const [phi, rate] of [
      [0.5, 0.034],
      [0.7, 0.1],
      [0.9, 0.343],
    ] as const) {
      expect(2 * normalUpperTail(3 * Math.sqrt(1 - phi))).toBeCloseTo(rate, 3);
      expect(expectedExceedanceRate(1000, phi, "moving_range")).toBeGreaterThan(rate);
      expect(expectedExceedanceRate(1000, phi, "moving_range")).toBeLessThan(rate * 1.05);
    }
    // Large n, no autocorrelation: the nominal 0.27 %.
    expectRelativelyClose(expectedExceedanceRate(1_000_000, 0, "overall"), NOMINAL_FALSE_ALARM_RATE, 1e-3);
  });

  it("suggests from the overall σ when neighbouring parts are alike, and says what the moving range would flag", () => {
    const values = ar1(7, 500, 0.7).map((v) => 20 + 0.5 * v);
    const r = suggestControlLimits(values);
    if (r === null) throw new Error("expected a suggestion");
    expect(r.lag1Autocorrelation).toBeGreaterThan(0.6);
    expect(r.isAutocorrelated).toBe(true);
    expect(r.basis).toBe("overall");
    expect([r.lcl, r.ucl]).toEqual([r.overall.lcl, r.overall.ucl]);
    expect(r.sigmaRatio).toBeGreaterThan(1.5);
    expect(r.movingRange.expectedFalseAlarmRate).toBeGreaterThan(0.08);
    expect(r.expectedFalseAlarmRate).toBeLessThan(0.004);
    // The share of the period's own points outside each pair.
    const outside = (lcl: number, ucl: number) =>
      values.filter((v) => v < lcl || v > ucl).length / values.length;
    expect(outside(r.movingRange.lcl, r.movingRange.ucl)).toBeGreaterThan(0.05);
    expect(outside(r.lcl, r.ucl)).toBeLessThan(0.01);
  });

  it("keeps the moving range for independent values, whatever the sample's small lag-1 autocorrelation", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = suggestControlLimits(normalSample(seed, 200, 5, 0.2));
      expect(r?.basis).toBe("moving_range");
    }
  });

  it("switches only when the moving range's rate at least doubles and φ is beyond noise", () => {
    // 2Φ(−3 √(1 − φ)) ≥ 2 × 0.27 % from φ ≈ 0.14; and φ > 2.326/√n.
    expect(isAutocorrelationMaterial(0.13, 100_000)).toBe(false);
    expect(isAutocorrelationMaterial(0.15, 100_000)).toBe(true);
    expect(isAutocorrelationMaterial(0.2, 100)).toBe(false); // 2.326/√100 = 0.23
    expect(isAutocorrelationMaterial(0.25, 100)).toBe(true);
    expect(isAutocorrelationMaterial(-0.5, 1000)).toBe(false);
  });

  it("measures the lag-1 autocorrelation as NumPy's acf does", () => {
    // x = 1, 2, 3, 4: deviations −1.5, −0.5, 0.5, 1.5; Σ d_t d_{t+1} = 0.75 − 0.25 + 0.75 = 1.25; Σ d² = 5.
    expect(lag1Autocorrelation([1, 2, 3, 4])).toBeCloseTo(0.25, 12);
    expect(lag1Autocorrelation([1, 2])).toBe(0);
  });
});
