import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, type PeriodicDependenceExpected, vectors } from "../test/referenceVectors.js";
import {
  arAutocorrelations,
  blockVif,
  type Dependence,
  estimateDependence,
  estimatePooledDependence,
  windowVif,
} from "./dependence.js";
import { evaluateCapCalibrated } from "./evaluateCapCalibrated.js";
import { evaluateMvdCalibrated } from "./evaluateMvdCalibrated.js";
import { evaluateSvdCalibrated } from "./evaluateSvdCalibrated.js";
import { matrixFromRows } from "./matrix.js";
import {
  arSpectrumRatio,
  fitPeriodicComponent,
  MIN_PERIODIC_RECORDS,
  periodicPValue,
} from "./periodicComponent.js";

const { fits, pooled, pValues, spectra, svd, mvd, cap } = vectors.periodic;

function expectDependence(actual: Dependence, e: PeriodicDependenceExpected, m: number): void {
  expect(actual.order).toBe(e.order);
  expect(actual.coefficients.length).toBe(e.coefficients.length);
  e.coefficients.forEach((c, i) => {
    expectRelativelyClose(actual.coefficients[i] as number, c);
  });
  expectRelativelyClose(actual.vif, e.vif);
  expectRelativelyClose(actual.uncappedVif, e.uncappedVif);
  if (e.degrees === null) expect(actual.degrees).toBe(Number.POSITIVE_INFINITY);
  else expectRelativelyClose(actual.degrees, e.degrees, 1e-5);
  expectRelativelyClose(actual.effectiveSize, e.effectiveSize);
  expectRelativelyClose(actual.secondMomentVif, e.secondMomentVif, 1e-8);
  expectRelativelyClose(actual.vifFloor, e.vifFloor);
  expect(actual.autocorrelations.length).toBe(e.acfLength);
  e.autocorrelations.forEach((r, k) => {
    expect(actual.autocorrelations[k] as number).toBeCloseTo(r, 9);
  });
  const n = Math.max(1, Math.floor(m / 4));
  expectRelativelyClose(windowVif(actual.autocorrelations, m, n, actual.vifFloor), e.windowVif, 1e-8);
  expectRelativelyClose(blockVif(actual.autocorrelations, n, actual.vifFloor), e.blockVif, 1e-8);
  if (e.periodic === null) {
    expect(actual.periodic).toBeNull();
    return;
  }
  const p = actual.periodic;
  if (p === null) throw new Error("expected a periodic component");
  for (const key of ["frequency", "period", "amplitude", "share", "residualVariance", "statistic"] as const)
    expectRelativelyClose(p[key], e.periodic[key], 1e-8);
  expectRelativelyClose(p.pValue, e.periodic.pValue, 1e-6);
}

/** m values of a sine of `period` records and `amplitude` plus independent normal noise of sd 1. */
function sinePlusNoise(seed: number, m: number, period: number, amplitude: number): Float64Array {
  const next = normalGenerator(seed);
  const phase = (seed % 7) * 0.9;
  return Float64Array.from(
    { length: m },
    (_, t) => amplitude * Math.sin((2 * Math.PI * t) / period + phase) + next(),
  );
}

function ar1(seed: number, m: number, phi: number): Float64Array {
  const next = normalGenerator(seed);
  const x = new Float64Array(m);
  let v = next() / Math.sqrt(1 - phi * phi);
  for (let t = 0; t < m; t++) {
    if (t > 0) v = phi * v + next();
    x[t] = v;
  }
  return x;
}

describe("fitPeriodicComponent", () => {
  it.each(fits.map((c) => [c.kind, c] as const))("matches the reference on the %s values", (_, c) => {
    const fit = fitPeriodicComponent(c.values, c.values.length);
    const e = c.expected.fit;
    if (e === null) {
      expect(fit).toBeNull();
      return;
    }
    if (fit === null) throw new Error("expected a fit");
    expectRelativelyClose(fit.frequency, e.frequency, 1e-9);
    expectRelativelyClose(fit.amplitude, e.amplitude, 1e-8);
    expectRelativelyClose(fit.periodogram, e.periodogram, 1e-8);
    expect(fit.searched).toBe(e.searched);
    e.residuals.forEach((r, t) => {
      expect(fit.residuals[t] as number).toBeCloseTo(r, 8);
    });
    let sum = 0;
    for (const r of fit.residuals) sum += r * r;
    expectRelativelyClose(sum, e.residualSumSquares, 1e-8);
  });

  it("finds a cycle of 100 records and its share of the variance", () => {
    const fit = fitPeriodicComponent(sinePlusNoise(11, 2400, 100, 1), 2400);
    if (fit === null) throw new Error("expected a fit");
    expect((2 * Math.PI) / fit.frequency).toBeCloseTo(100, 0);
    expect(fit.amplitude).toBeGreaterThan(0.9);
    expect(fit.amplitude).toBeLessThan(1.1);
  });

  it("does not search fewer than MIN_PERIODIC_RECORDS values and refuses a short array", () => {
    expect(
      fitPeriodicComponent(sinePlusNoise(3, MIN_PERIODIC_RECORDS - 1, 20, 2), MIN_PERIODIC_RECORDS - 1),
    ).toBeNull();
    expect(() => fitPeriodicComponent([1, 2, 3], 400)).toThrow();
  });
});

describe("the dependence with a periodic component", () => {
  it.each(fits.map((c) => [c.kind, c] as const))("matches the reference on the %s values", (_, c) => {
    const dependence = estimateDependence(c.values, undefined, { periodic: true });
    expectDependence(dependence, c.expected.dependence, c.values.length);
  });

  it("matches the reference pooled over signals of one line", () => {
    const dependence = estimatePooledDependence(
      Float64Array.from(pooled.columns.flat()),
      pooled.m,
      pooled.columns.length,
      pooled.lag1,
      { periodic: true },
    );
    expectDependence(dependence, pooled.expected.dependence, pooled.m);
  });

  it("puts a long window of whole periods at the noise's share, where the AR fit alone is at its cap", () => {
    const values = sinePlusNoise(5, 2400, 100, 1);
    const plain = estimateDependence(values);
    const periodic = estimateDependence(values, undefined, { periodic: true });
    expect(periodic.periodic).not.toBeNull();
    expect(periodic.periodic?.share).toBeGreaterThan(0.28);
    expect(periodic.periodic?.share).toBeLessThan(0.38);
    // 2400 training and 600 evaluation records: six whole periods average out of both means.
    const withCycle = windowVif(periodic.autocorrelations, 2400, 600, periodic.vifFloor);
    expect(withCycle).toBeGreaterThan(0.6);
    expect(withCycle).toBeLessThan(0.75);
    expect(windowVif(plain.autocorrelations, 2400, 600)).toBeGreaterThan(3);
    // Without the option the dependence is the plain fit's.
    expect(estimateDependence(values).periodic).toBeNull();
  });

  it("finds no cycle in independent, strongly autocorrelated or short values", () => {
    for (let seed = 1; seed <= 20; seed++) {
      expect(estimateDependence(ar1(seed, 480, 0.9), undefined, { periodic: true }).periodic).toBeNull();
      expect(estimateDependence(ar1(seed + 100, 2400, 0), undefined, { periodic: true }).periodic).toBeNull();
    }
    // Heavy and skewed tails: Student t₃ and lognormal values of 2,400.
    for (let seed = 1; seed <= 10; seed++) {
      const next = normalGenerator(seed + 500);
      const t3 = Float64Array.from(
        { length: 2400 },
        () => next() / Math.sqrt((next() ** 2 + next() ** 2 + next() ** 2) / 3),
      );
      const lognormal = Float64Array.from({ length: 2400 }, () => Math.exp(0.5 * next()));
      expect(estimateDependence(t3, undefined, { periodic: true }).periodic).toBeNull();
      expect(estimateDependence(lognormal, undefined, { periodic: true }).periodic).toBeNull();
    }
    const short = sinePlusNoise(2, 150, 30, 2);
    expect(estimateDependence(short, undefined, { periodic: true }).periodic).toBeNull();
    const constant = new Float64Array(500).fill(4.2);
    expect(estimateDependence(constant, undefined, { periodic: true })).toEqual(estimateDependence(constant));
  });

  it("p-values and AR spectra match the reference", () => {
    for (const c of pValues) expectRelativelyClose(periodicPValue(c.statistic, c.searched), c.expected, 1e-9);
    for (const c of spectra) {
      // v = 1 − Σ φᵢ ρᵢ (the reference's 1/Σψ², from the MA(∞) weights).
      const phi = c.coefficients;
      const rho = arAutocorrelations(phi, phi.length);
      const innovation = 1 - phi.reduce((s, f, i) => s + f * (rho[i] as number), 0);
      expectRelativelyClose(arSpectrumRatio(phi, innovation, c.omega), c.expected, 1e-8);
    }
  });
});

describe("the evaluations of a signal with a cycle", () => {
  it.each(svd.map((c, i) => [i, c] as const))("SVD matches the reference on window %i", (_, c) => {
    const result = evaluateSvdCalibrated(c.train, c.eval, c.alertThreshold);
    if (!("breach" in result)) throw new Error("expected an evaluation");
    const e = c.expected;
    expect(result.dependence.periodic).not.toBeNull();
    for (const key of [
      "w1",
      "score",
      "vif",
      "dependenceFactor",
      "degrees",
      "vifWidening",
      "threshold",
    ] as const)
      expectRelativelyClose(result[key], e[key], 1e-7);
    expect(result.breach).toBe(e.breach);
  });

  it("MVD matches the reference", () => {
    const result = evaluateMvdCalibrated(
      matrixFromRows(mvd.train),
      matrixFromRows(mvd.eval),
      mvd.alertThreshold,
    );
    if (!("breach" in result)) throw new Error("expected an evaluation");
    expect(result.dependence.periodic).not.toBeNull();
    expectRelativelyClose(result.effectiveRows, mvd.expected.effectiveRows, 1e-8);
    expectRelativelyClose(result.t2Mean, mvd.expected.t2Mean, 1e-8);
    expectRelativelyClose(result.pMean, mvd.expected.pMean, 1e-7);
    expect(result.breach).toBe(mvd.expected.breach);
  });

  it("CAP matches the reference", () => {
    const result = evaluateCapCalibrated(cap.values, { lsl: cap.lsl, usl: cap.usl }, cap.alertThreshold, {
      dependenceValues: cap.train,
    });
    if (!("breach" in result)) throw new Error("expected an evaluation");
    expect(result.dependence.periodic).not.toBeNull();
    expectRelativelyClose(result.vif, cap.expected.vif, 1e-8);
    expectRelativelyClose(result.ppkStandardError ?? Number.NaN, cap.expected.ppkSe, 1e-8);
    expectRelativelyClose(result.ppkUpperBound ?? Number.NaN, cap.expected.ppkUpperBound, 1e-8);
    expect(result.isCapabilityBreach).toBe(cap.expected.isCapabilityBreach);
  });
});
