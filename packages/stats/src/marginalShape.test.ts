import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { normalUpperTail } from "./distributions.js";
import {
  fitMarginalShape,
  type MarginalShape,
  MIN_SHAPE_VALUES,
  NORMAL_SHAPE,
  standardizedTails,
  twoPieceMoments,
} from "./marginalShape.js";

interface ShapeVectors {
  moments: { nu: number | null; gamma: number; mean: number; variance: number }[];
  tails: { nu: number | null; gamma: number; y: number; upper: number; lower: number }[];
  fits: {
    kind: string;
    values: number[];
    expected: {
      nu: number | null;
      gamma: number;
      logLikelihood: number;
      normalLogLikelihood: number;
      components: { nu: number | null; gamma: number; weight: number }[];
    };
  }[];
}
const reference = (vectors as unknown as { marginalShape: ShapeVectors }).marginalShape;
const shapeOf = (c: { nu: number | null; gamma: number }): MarginalShape => ({
  nu: c.nu ?? Number.POSITIVE_INFINITY,
  gamma: c.gamma,
});
const label = (c: { nu: number | null; gamma: number }) => `ν ${c.nu ?? "∞"}, γ ${c.gamma.toFixed(3)}`;

describe("twoPieceMoments", () => {
  it.each(reference.moments.map((c) => [label(c), c] as const))(
    "matches SciPy's integrals for %s",
    (_, c) => {
      const m = twoPieceMoments(shapeOf(c));
      if (c.mean === 0) expect(Math.abs(m.mean)).toBeLessThan(1e-12);
      else expectRelativelyClose(m.mean, c.mean, 1e-7);
      expectRelativelyClose(m.variance, c.variance, 1e-7);
    },
  );
});

describe("standardizedTails", () => {
  it.each(reference.tails.map((c) => [`${label(c)} at ${c.y}`, c] as const))(
    "matches SciPy's integrals for %s",
    (_, c) => {
      const t = standardizedTails(shapeOf(c), c.y);
      expectRelativelyClose(t.upper, c.upper, 1e-6);
      if (c.lower < 1e-300) expect(t.lower).toBeLessThan(1e-12);
      else expectRelativelyClose(t.lower, c.lower, 1e-6);
    },
  );

  it("is the normal's tail for the normal shape and refuses a negative y", () => {
    expect(standardizedTails(NORMAL_SHAPE, 3).upper).toBeCloseTo(normalUpperTail(3), 14);
    expect(() => standardizedTails(NORMAL_SHAPE, -1)).toThrow(/y must be/);
  });

  it("puts more of a heavy-tailed or skewed process beyond 3 σ than the normal", () => {
    const normal = 2 * normalUpperTail(3);
    const t3 = standardizedTails({ nu: 3, gamma: 1 }, 3);
    expect(t3.upper + t3.lower).toBeGreaterThan(3 * normal);
    const skewed = standardizedTails({ nu: Number.POSITIVE_INFINITY, gamma: 1 / 0.55 }, 3);
    expect(skewed.upper).toBeGreaterThan(5 * skewed.lower);
  });
});

describe("fitMarginalShape", () => {
  it.each(reference.fits.map((c) => [c.kind, c] as const))(
    "chooses SciPy's shape with its likelihood for %s",
    (_, c) => {
      const fit = fitMarginalShape(c.values);
      expect(fit.shape.nu).toBe(c.expected.nu ?? Number.POSITIVE_INFINITY);
      expectRelativelyClose(fit.shape.gamma, c.expected.gamma, 1e-12);
      expectRelativelyClose(fit.logLikelihood, c.expected.logLikelihood, 1e-6);
      expectRelativelyClose(fit.normalLogLikelihood, c.expected.normalLogLikelihood, 1e-9);
      // The weighed shapes: the same shapes kept, weights as SciPy's optimum gives them.
      expect(fit.components.map((k) => [k.shape.nu, k.shape.gamma])).toEqual(
        c.expected.components.map((k) => [k.nu ?? Number.POSITIVE_INFINITY, k.gamma]),
      );
      fit.components.forEach((k, i) => {
        expect(Math.abs(k.weight - (c.expected.components[i]?.weight ?? Number.NaN))).toBeLessThan(1e-5);
      });
    },
  );

  it("answers the normal for too few values, a constant series, and leaves out non-finite values", () => {
    expect(fitMarginalShape(Array.from({ length: MIN_SHAPE_VALUES - 1 }, (_, i) => i ** 3)).shape).toEqual(
      NORMAL_SHAPE,
    );
    expect(fitMarginalShape(new Array(50).fill(2)).shape).toEqual(NORMAL_SHAPE);
    const c = reference.fits[2] as ShapeVectors["fits"][number];
    const withGaps = [Number.NaN, ...c.values, Number.POSITIVE_INFINITY];
    expect(fitMarginalShape(withGaps).shape).toEqual(fitMarginalShape(c.values).shape);
  });
});
