import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import {
  ar1Coefficient,
  ar1WindowVif,
  autocorrelations,
  pooledAr1Coefficient,
  varianceInflationFactor,
  vifOfCoefficient,
} from "./varianceInflation.js";

/** An AR(1) series xₜ = φ xₜ₋₁ + eₜ, started in its stationary distribution. */
function ar1(seed: number, n: number, phi: number): Float64Array {
  const next = normalGenerator(seed);
  const out = new Float64Array(n);
  let x = next() / Math.sqrt(1 - phi * phi);
  for (let i = 0; i < n; i++) {
    x = phi * x + next();
    out[i] = x;
  }
  return out;
}

describe("varianceInflationFactor", () => {
  it.each(vectors.vif.map((c) => [c.kind, c] as const))("matches the reference on the %s series", (_, c) => {
    expectRelativelyClose(varianceInflationFactor(c.values, "ar1"), c.expected.ar1);
    expectRelativelyClose(varianceInflationFactor(c.values, "bartlett"), c.expected.bartlett);
    if (c.values.length > 10) {
      const rho = autocorrelations(c.values, 10);
      c.expected.autocorrelations.forEach((r, k) => {
        expect(Math.abs((rho[k] as number) - r)).toBeLessThanOrEqual(1e-12);
      });
    }
  });

  it("is about (1 + φ)/(1 − φ) for a long AR(1) series and about 1 for independent values", () => {
    expect(varianceInflationFactor(ar1(1, 5000, 0.5))).toBeGreaterThan(2.8);
    expect(varianceInflationFactor(ar1(1, 5000, 0.5))).toBeLessThan(3.2);
    expect(varianceInflationFactor(ar1(2, 5000, 0))).toBeLessThan(1.1);
  });

  it("is never below 1 and never above 19 (φ kept ≤ 0.9)", () => {
    const alternating = Float64Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(varianceInflationFactor(alternating)).toBe(1);
    expect(varianceInflationFactor(alternating, "bartlett")).toBe(1);
    const trend = Float64Array.from({ length: 100 }, (_, i) => i);
    expect(varianceInflationFactor(trend)).toBeCloseTo(19, 12);
  });

  it("answers 1 for a constant or very short series", () => {
    expect(varianceInflationFactor([3, 3, 3, 3, 3])).toBe(1);
    expect(varianceInflationFactor([1, 2, 3])).toBe(1);
    expect(Array.from(autocorrelations([2, 2, 2], 1))).toEqual([0]);
  });

  it("refuses a lag it cannot estimate", () => {
    expect(() => autocorrelations([1, 2], 2)).toThrow(/more than 2 values/);
    expect(() => autocorrelations([1, 2, 3], 0)).toThrow(/maxLag/);
  });

  it("pools one AR(1) coefficient over signals: one signal is ar1Coefficient, constant columns give 0", () => {
    const a = ar1(31, 75, 0.5);
    expect(pooledAr1Coefficient(a, 75, 1)).toBeCloseTo(ar1Coefficient(a), 14);
    const two = new Float64Array(150);
    two.set(a, 0);
    two.set(ar1(32, 75, 0.5), 75);
    const pooled = pooledAr1Coefficient(two, 75, 2);
    expect(pooled).toBeGreaterThan(0);
    expect(pooled).toBeLessThanOrEqual(0.9);
    expect(pooledAr1Coefficient(new Float64Array(150).fill(2), 75, 2)).toBe(0);
    expect(vifOfCoefficient(0.5, 75)).toEqual({ vif: 3, degrees: (75 * 0.75) / 2 });
    expect(vifOfCoefficient(0, 75).degrees).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("ar1WindowVif", () => {
  it.each(vectors.ar1WindowVif.map((c) => [c.coefficient, c.m, c.n, c] as const))(
    "matches the reference at ρ %s, m %i, n %i",
    (_, __, ___, c) => {
      expectRelativelyClose(ar1WindowVif(c.coefficient, c.m, c.n), c.expected);
    },
  );

  it("is below the infinite series' VIF and approaches it for long blocks", () => {
    expect(ar1WindowVif(0, 120, 30)).toBe(1);
    expect(ar1WindowVif(0.5, 120, 30)).toBeLessThan(3);
    expect(ar1WindowVif(0.5, 120, 30)).toBeLessThan(ar1WindowVif(0.5, 2400, 600));
    expect(Math.abs(ar1WindowVif(0.5, 24000, 6000) / 3 - 1)).toBeLessThan(1e-3);
  });
});
