import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { normalUpperQuantile } from "./distributions.js";
import {
  bivariateMaxUpperTail,
  bivariateNormalCdf,
  gappedCriticalValue,
  owensT,
  twoSidedCriticalValue,
} from "./twoSidedCritical.js";

describe("owensT", () => {
  it.each(vectors.owensT.map((c, i) => [i, c] as const))("matches SciPy owens_t on vector %i", (_, c) => {
    expectRelativelyClose(owensT(c.h, c.a), c.expected);
  });
});

describe("bivariateNormalCdf", () => {
  it.each(vectors.bivariateNormal.map((c, i) => [i, c] as const))(
    "matches the reference (Owen's T through SciPy) on vector %i",
    (_, c) => {
      expectRelativelyClose(bivariateNormalCdf(c.h, c.k, c.rho), c.expected);
    },
  );

  it("is the product of the margins at ρ = 0 and symmetric in h and k", () => {
    const phi = (x: number) => 1 - bivariateMaxUpperTail(x, 1);
    expect(bivariateNormalCdf(0.7, -1.2, 0)).toBeCloseTo(phi(0.7) * phi(-1.2), 14);
    expect(bivariateNormalCdf(0.7, -1.2, 0.4)).toBeCloseTo(bivariateNormalCdf(-1.2, 0.7, 0.4), 14);
  });
});

describe("gappedCriticalValue", () => {
  it.each(vectors.twoSidedCritical.map((c, i) => [i, c] as const))(
    "matches the reference (SciPy brentq) on vector %i",
    (_, c) => {
      expectRelativelyClose(gappedCriticalValue(c.alpha, c.rho, c.gap), c.expected);
      if (c.gap === 0) expectRelativelyClose(twoSidedCriticalValue(c.alpha, c.rho), c.expected);
    },
  );

  it("lies between z_{1−α} (one side, or sides far apart) and z_{1−α/2} (independent sides)", () => {
    const z = normalUpperQuantile(0.01);
    expect(twoSidedCriticalValue(0.01, 1)).toBe(z);
    expect(twoSidedCriticalValue(0.01, -1)).toBeCloseTo(normalUpperQuantile(0.005), 12);
    const centred = twoSidedCriticalValue(0.01, 0.78);
    expect(centred).toBeGreaterThan(z);
    expect(gappedCriticalValue(0.01, 0.78, 1)).toBeLessThan(centred);
    expect(gappedCriticalValue(0.01, 0.78, 20)).toBeCloseTo(z, 10);
    expect(bivariateMaxUpperTail(centred, 0.78)).toBeCloseTo(0.01, 14);
  });
});
