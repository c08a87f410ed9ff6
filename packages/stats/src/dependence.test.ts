import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { ALERT_THRESHOLDS } from "./alertThreshold.js";
import {
  arAutocorrelations,
  arLongRunVif,
  arVifDegrees,
  bicOrder,
  burgFit,
  estimateDependence,
  estimatePooledDependence,
  fittedAutocorrelations,
  heldOutDeviationFactors,
  inverseCovarianceDegrees,
  MAX_VIF,
  squaredSeriesLag1VarianceRatio,
  windowVif,
} from "./dependence.js";
import { StatsError } from "./statsError.js";
import { dependentBridgeLaw, svdDependenceFactor } from "./svdNullQuantile.js";
import { ar1WindowVif, pooledAr1Coefficient } from "./varianceInflation.js";

const close = (actual: ArrayLike<number>, expected: readonly number[], tolerance = 1e-9) => {
  expect(actual.length).toBe(expected.length);
  expected.forEach((e, i) => {
    expectRelativelyClose(actual[i] as number, e, tolerance);
  });
};

const { burg, processes, estimates, pooled, bridgeLaw } = vectors.dependence;

/** A stationary AR(p) stretch of `length` values after a burn-in. */
function arSeries(seed: number, phi: readonly number[], length: number): Float64Array {
  const next = normalGenerator(seed);
  const burn = 500;
  const x = new Float64Array(length + burn);
  for (let t = 0; t < x.length; t++) {
    let v = next();
    for (let i = 0; i < phi.length; i++) if (t > i) v += (phi[i] as number) * (x[t - 1 - i] as number);
    x[t] = v;
  }
  return x.subarray(burn);
}

describe("burgFit and bicOrder", () => {
  it.each(burg.map((c) => [c.kind, c] as const))("match the reference on the %s series", (_, c) => {
    const fit = burgFit(Float64Array.from(c.columns.flat()), c.m, c.columns.length, c.maxOrder);
    close(fit.reflections, c.expected.reflections);
    c.expected.coefficients.forEach((phi, k) => {
      close(fit.coefficients[k] as Float64Array, phi);
    });
    close(fit.innovationRatios, c.expected.innovationRatios);
    expect(bicOrder(fit.innovationRatios, c.m)).toBe(c.expected.order);
  });

  it("recovers a second-order process and a cycle from a long record", () => {
    const ar2 = burgFit(arSeries(3, [0.5, 0.3], 4000), 4000, 1, 10);
    const order = bicOrder(ar2.innovationRatios, 4000);
    expect(order).toBeGreaterThanOrEqual(2);
    const phi = ar2.coefficients[1] as Float64Array;
    expect(phi[0]).toBeCloseTo(0.5, 1);
    expect(phi[1]).toBeCloseTo(0.3, 1);
    const cycle = burgFit(arSeries(4, [1.6, -0.8], 4000), 4000, 1, 10).coefficients[1] as Float64Array;
    expect(cycle[0]).toBeCloseTo(1.6, 1);
    expect(cycle[1]).toBeCloseTo(-0.8, 1);
  });

  it("refuses too few values for the order", () => {
    expect(() => burgFit([1, 2, 3], 3, 1, 2)).toThrow(StatsError);
  });
});

describe("the AR process's autocorrelations, long-run VIF and degrees of freedom", () => {
  it.each(processes.map((c) => [c.coefficients.join(", "), c] as const))(
    "match the reference for φ = %s",
    (_, c) => {
      close(arAutocorrelations(c.coefficients, 30), c.expected.autocorrelations, 1e-8);
      expectRelativelyClose(arLongRunVif(c.coefficients), c.expected.longRunVif, 1e-8);
      expectRelativelyClose(arVifDegrees(c.coefficients, c.m), c.expected.degrees, 1e-5);
    },
  );

  it("reduce to the AR(1)'s closed forms", () => {
    expectRelativelyClose(arLongRunVif([0.5]), 3, 1e-12);
    expectRelativelyClose(arVifDegrees([0.5], 120), (120 * 0.75) / 2, 1e-6);
    // The window VIF of the fitted AR(1)'s autocorrelations is ar1WindowVif.
    expectRelativelyClose(
      windowVif(fittedAutocorrelations([0.5]), 120, 30),
      ar1WindowVif(0.5, 120, 30),
      1e-12,
    );
  });
});

describe("estimateDependence", () => {
  it.each(estimates.map((c) => [c.kind, c] as const))("matches the reference on the %s series", (_, c) => {
    const d = estimateDependence(c.values);
    expect(d.order).toBe(c.expected.order);
    close(d.coefficients, c.expected.coefficients);
    expectRelativelyClose(d.vif, c.expected.vif, 1e-8);
    expectRelativelyClose(d.uncappedVif, c.expected.uncappedVif, 1e-8);
    if (c.expected.degrees === null) expect(d.degrees).toBe(Number.POSITIVE_INFINITY);
    else expectRelativelyClose(d.degrees, c.expected.degrees, 1e-5);
    expectRelativelyClose(d.effectiveSize, c.expected.effectiveSize, 1e-8);
    expect(d.autocorrelations.length).toBe(c.expected.acfLength);
    close(
      d.autocorrelations.subarray(0, c.expected.autocorrelations.length),
      c.expected.autocorrelations,
      1e-7,
    );
    for (const [split, expected] of Object.entries(c.expected.windowVif)) {
      const [m, n] = split.split("+").map(Number) as [number, number];
      expectRelativelyClose(windowVif(d.autocorrelations, m, n), expected, 1e-7);
    }
  });

  it("pools a monitor's signals like the reference", () => {
    const columns = Float64Array.from(pooled.columns.flat());
    const p = pooled.columns.length;
    expectRelativelyClose(pooledAr1Coefficient(columns, pooled.m, p), pooled.lag1);
    const d = estimatePooledDependence(columns, pooled.m, p, pooled.lag1);
    expect(d.order).toBe(pooled.expected.order);
    close(d.coefficients, pooled.expected.coefficients);
    expectRelativelyClose(d.vif, pooled.expected.vif, 1e-8);
  });

  it("keeps independent data at VIF 1 and caps what a trend would make of it", () => {
    const next = normalGenerator(9);
    const trend = Float64Array.from({ length: 200 }, (_, i) => i / 10 + 0.1 * next());
    const d = estimateDependence(trend);
    expect(d.vif).toBeLessThanOrEqual(MAX_VIF);
    expect(d.uncappedVif).toBeGreaterThanOrEqual(d.vif);
    expect(estimateDependence(Float64Array.from({ length: 50 }, () => 4)).vif).toBe(1);
    expect(estimateDependence([1, 2]).order).toBe(0);
  });

  it("sees a cycle's averaging out where a lag-1 fit sees strong dependence", () => {
    // AR(2) with complex roots: a lag-1 autocorrelation near 0.9, a long-run VIF near 1.9.
    const x = arSeries(12, [1.6, -0.8], 2400);
    const d = estimateDependence(x);
    expect(d.order).toBeGreaterThanOrEqual(2);
    expect(d.vif).toBeGreaterThan(1.2);
    expect(d.vif).toBeLessThan(3);
  });
});

describe("dependentBridgeLaw", () => {
  it.each(bridgeLaw.map((c) => [c.kind, c] as const))("matches the reference under the %s kernel", (_, c) => {
    const acf = fittedAutocorrelations(c.arCoefficients);
    const law = dependentBridgeLaw(c.values, acf, c.n);
    expectRelativelyClose(law.mean, c.expected.mean, 1e-8);
    expectRelativelyClose(law.cv, c.expected.cv, 1e-7);
    for (const level of ALERT_THRESHOLDS) {
      expectRelativelyClose(svdDependenceFactor(c.values, acf, c.n, level), c.expected.factor[level], 1e-7);
    }
  });
});

describe("MVD on dependent rows", () => {
  const { heldOutDeviationFactors: heldCases, inverseCovarianceDegrees: degreeCases } = vectors.mvdDependence;

  it.each(heldCases.map((c) => [c.autocorrelations.length, c.m, c.n, c] as const))(
    "reads each held-out row's expected deviation like the Toeplitz reference (%i lags, %i + %i rows)",
    (_, m, n, c) => {
      const actual = heldOutDeviationFactors(c.autocorrelations, m, n, 5);
      close(actual.training, c.expected.training, 1e-9);
      close(actual.evaluation, c.expected.evaluation, 1e-9);
    },
  );

  it("gives every row of independent data the same factor, so the rank test is unchanged", () => {
    const { training, evaluation } = heldOutDeviationFactors([], 120, 30, 5);
    for (const f of [...training, ...evaluation]) expectRelativelyClose(f, 97 / 96, 1e-12);
  });

  it("expects a strongly dependent row beside its rest closer in than one far from it", () => {
    const { training, evaluation } = heldOutDeviationFactors(fittedAutocorrelations([0.9]), 480, 120, 5);
    const mean = (a: Float64Array) => a.reduce((s, v) => s + v, 0) / a.length;
    expect(mean(evaluation)).toBeGreaterThan(mean(training));
    // Fold 1 is rows 96–191: its first row sits beside fold 0, its middle row 48 rows from either.
    expect(training[96] as number).toBeLessThan((training[144] as number) - 0.02);
    // The first evaluation row sits beside the training rows, the last 120 rows after them.
    expect(evaluation[0] as number).toBeLessThan((evaluation[119] as number) - 0.04);
  });

  it.each(degreeCases.map((c) => [c.coefficients.join(", "), c.blocks.join(" + "), c.p, c] as const))(
    "counts the covariance's degrees for its inverse like the reference (AR %s over %s rows, p = %i)",
    (_, __, p, c) => {
      expectRelativelyClose(inverseCovarianceDegrees(c.coefficients, c.blocks, p), c.expected, 1e-9);
    },
  );

  const squaredCases = vectors.mvdDependence.squaredSeriesLag1VarianceRatio;
  it.each(squaredCases.map((c) => [c.coefficients.join(", "), c.p, c] as const))(
    "counts a sum of squared series' lag-1 variance like the Isserlis reference (AR %s, p = %i)",
    (_, p, c) => {
      expectRelativelyClose(squaredSeriesLag1VarianceRatio(c.autocorrelations, p), c.expected, 1e-9);
    },
  );

  it("adds nothing for independent series and less the more series are summed", () => {
    expect(squaredSeriesLag1VarianceRatio([], 5)).toBe(1);
    const acf = fittedAutocorrelations([0.9]);
    const ratios = [1, 2, 5, 20, 1000].map((p) => squaredSeriesLag1VarianceRatio(acf, p));
    for (let i = 1; i < ratios.length; i++) expect(ratios[i] as number).toBeLessThan(ratios[i - 1] as number);
    expect(ratios[0] as number).toBeGreaterThan(2);
    expect(ratios[4] as number).toBeLessThan(1.01);
    expect(() => squaredSeriesLag1VarianceRatio(acf, 0)).toThrow(StatsError);
  });

  it("matches the spread of the lag-1 estimate of simulated sums of squared AR(1) series", () => {
    // 1,500 series of 480 values, T² = w₁² + w₂² of AR(1) φ 0.7: Var(r̂₁) against Bartlett's
    // (1 − ψ²)/m for ψ = φ² times the ratio (2.32; Bartlett's alone would be 2.3 × short).
    const phi = 0.7;
    const m = 480;
    const p = 2;
    const next = normalGenerator(2909);
    const estimates: number[] = [];
    const w = new Float64Array(p);
    const t2 = new Float64Array(m);
    for (let s = 0; s < 1500; s++) {
      for (let j = 0; j < p; j++) w[j] = next();
      for (let i = 0; i < m; i++) {
        let sum = 0;
        for (let j = 0; j < p; j++) {
          if (i > 0) w[j] = phi * (w[j] as number) + Math.sqrt(1 - phi * phi) * next();
          sum += (w[j] as number) ** 2;
        }
        t2[i] = sum;
      }
      const mean = t2.reduce((a, v) => a + v, 0) / m;
      let c0 = 0;
      let c1 = 0;
      for (let i = 0; i < m; i++) {
        c0 += ((t2[i] as number) - mean) ** 2;
        if (i > 0) c1 += ((t2[i] as number) - mean) * ((t2[i - 1] as number) - mean);
      }
      estimates.push(c1 / c0);
    }
    const average = estimates.reduce((a, v) => a + v, 0) / estimates.length;
    const variance = estimates.reduce((a, v) => a + (v - average) ** 2, 0) / (estimates.length - 1);
    const psi = phi * phi;
    const predicted =
      ((1 - psi * psi) / m) * squaredSeriesLag1VarianceRatio(fittedAutocorrelations([phi]), p);
    expect(variance / predicted).toBeGreaterThan(0.85);
    expect(variance / predicted).toBeLessThan(1.15);
  });

  it("is Hotelling's own for independent rows and more than the second-moment count for many signals", () => {
    expect(inverseCovarianceDegrees([], [120, 30], 20)).toBe(148);
    const secondMoment = 150 / ((1 + 0.49) / (1 - 0.49));
    expect(inverseCovarianceDegrees([0.7], [120, 30], 20)).toBeGreaterThan(secondMoment + 5);
    expect(() => inverseCovarianceDegrees([0.5], [120, 0], 2)).toThrow(StatsError);
  });
});
