import { describe, expect, it } from "vitest";
import { normalGenerator } from "../test/random.js";
import { type Dependence, estimateDependence, fittedAutocorrelations } from "./dependence.js";
import { MIN_SVD_THRESHOLD, svdExpectedThreshold } from "./evaluateSvdCalibrated.js";
import {
  dependenceDegreesAt,
  evaluationsPerFalseAlarm,
  levelSupport,
  MIN_CAP_TRAINING,
  MIN_SVD_TAIL_TRAINING,
  MIN_TAIL_TRAINING,
  measureLevelSupport,
} from "./levelSupport.js";
import { StatsError } from "./statsError.js";

/** The dependence of an AR(1) of coefficient r as estimateDependence reports it. */
function ar1(r: number, m = 1000): Dependence {
  const vif = (1 + r) / (1 - r);
  return {
    order: 1,
    coefficients: Float64Array.of(r),
    vif,
    uncappedVif: vif,
    degrees: (m * (1 - r * r)) / 2,
    effectiveSize: m / vif,
    autocorrelations: fittedAutocorrelations([r]),
    secondMomentVif: (1 + r * r) / (1 - r * r),
    vifFloor: 1,
    periodic: null,
  };
}

describe("levelSupport", () => {
  it("holds for independent data at every window the product runs", () => {
    // A constant series has nothing to estimate: independent.
    const independent = estimateDependence(new Float64Array(200).fill(3));
    expect(independent.order).toBe(0);
    const support = levelSupport(independent, 50, 0.2);
    expect(support).toMatchObject({
      holds: true,
      minimumSampleSize: 50,
      trainingRecords: 25,
      effectiveSampleSize: 25,
    });
    expect(support.dependenceDegrees).toBe(Number.POSITIVE_INFINITY);
  });

  it("refuses 50 records for an AR(1) of 0.5 and names the smallest window that holds", () => {
    // ν = m (1 − ρ²)/2 ≥ 20 needs m ≥ 54; at ratio 0.2 the evaluation set stays at 25 up to 125
    // records, so 79 = 54 + 25.
    const support = levelSupport(ar1(0.5), 50, 0.2);
    expect(support.holds).toBe(false);
    expect(support.minimumSampleSize).toBe(79);
    expect(support.effectiveSampleSize).toBeCloseTo(25 / 3, 10);
    expect(levelSupport(ar1(0.5), 79, 0.2).holds).toBe(true);
    expect(levelSupport(ar1(0.5), 78, 0.2).holds).toBe(false);
  });

  it("lets a weak dependence pass at the smallest window (VIF below 1.5)", () => {
    expect(levelSupport(ar1(0.15), 50, 0.2).holds).toBe(true);
  });

  it("asks many autocorrelated signals for enough rows for their covariance", () => {
    // φ 0.9, p 20: ν ≥ 20 needs m ≥ 211 (264 at ratio 0.2); the covariance's rows
    // N / 9.53 − 21 ≥ 5 need N ≥ 248, so the dependence decides.
    const support = levelSupport(ar1(0.9), 150, 0.2, 20);
    expect(support.holds).toBe(false);
    expect(support.minimumSampleSize).toBe(264);
    // p 60 at φ 0.7: rows N / 2.92 − 61 ≥ 5 need N ≥ 193 (ν needs only m ≥ 79).
    const many = levelSupport(ar1(0.7), 150, 0.2, 60);
    expect(many.minimumSampleSize).toBe(193);
  });

  it("says so when no window up to 100,000 records holds", () => {
    const support = levelSupport(ar1(0.9), 50, 0.2, 20_000);
    expect(support).toMatchObject({ holds: false, minimumSampleSize: null });
  });

  it("rejects sizes and ratios outside their domain", () => {
    expect(() => levelSupport(ar1(0.5), 0, 0.2)).toThrow(StatsError);
    expect(() => levelSupport(ar1(0.5), 50, 1)).toThrow(StatsError);
  });
});

describe("dependenceDegreesAt and evaluationsPerFalseAlarm", () => {
  it("give the fit's degrees for m records and 1/α", () => {
    expect(dependenceDegreesAt(ar1(0.5), 120)).toBeCloseTo(45, 10);
    expect(evaluationsPerFalseAlarm("medium")).toBe(100);
    expect(evaluationsPerFalseAlarm("high")).toBe(1000);
  });
});

describe("measureLevelSupport", () => {
  /** An AR(1) stretch of `length` values, started in its stationary law. */
  function ar1Series(seed: number, r: number, length: number): Float64Array {
    const next = normalGenerator(seed);
    const x = new Float64Array(length);
    x[0] = next() / Math.sqrt(1 - r * r);
    for (let t = 1; t < length; t++) x[t] = r * (x[t - 1] as number) + next();
    return x;
  }

  it("measures a signal's dependence on its history and advises the window", () => {
    const history = ar1Series(5, 0.7, 2000);
    const support = measureLevelSupport([history], 50, 0.2);
    expect(support?.measuredRecords).toBe(2000);
    expect(support?.dependence.order).toBeGreaterThanOrEqual(1);
    expect(support?.holds).toBe(false);
    // ν = m (1 − ρ²)/2 ≥ 20 at ρ near 0.7: about 80 training records, so about 105 in all.
    expect(support?.minimumSampleSize).toBeGreaterThan(80);
    expect(support?.minimumSampleSize).toBeLessThan(140);
    expect(measureLevelSupport([history], support?.minimumSampleSize ?? 0, 0.2)?.holds).toBe(true);
  });

  it("pools several signals of different scales, skipping missing values and constant signals", () => {
    const a = ar1Series(6, 0.9, 600);
    const b = Float64Array.from(ar1Series(7, 0.9, 600), (v) => 1000 + 1e3 * v);
    b[10] = Number.NaN;
    const constant = new Float64Array(600).fill(2);
    const support = measureLevelSupport([a, b, constant], 150, 0.2);
    expect(support?.measuredRecords).toBe(599);
    expect(support?.dependence.vif).toBeGreaterThan(8);
    expect(support?.holds).toBe(false);
  });

  it("tells an SVD monitor at low that tails without a fourth moment break its level at any window", () => {
    const next = normalGenerator(12);
    const t3 = Float64Array.from(
      { length: 2000 },
      () => next() / Math.sqrt((next() ** 2 + next() ** 2 + next() ** 2) / 3),
    );
    const low = measureLevelSupport([t3], 600, 0.2, { svdLevel: "low" });
    expect(low).toMatchObject({ holds: false, limitedBy: "tails", minimumSampleSize: null });
    // Medium and high hold from MIN_SVD_TAIL_TRAINING training records: 75 at ratio 0.2.
    expect(measureLevelSupport([t3], 600, 0.2, { svdLevel: "medium" })?.holds).toBe(true);
    expect(measureLevelSupport([t3], 50, 0.2, { svdLevel: "high" })).toMatchObject({
      holds: false,
      limitedBy: "tails",
      minimumSampleSize: MIN_SVD_TAIL_TRAINING + 25,
    });
    // Normal values: nothing to warn of at any level of a window the threshold is above its floor.
    const normal = Float64Array.from({ length: 2000 }, normalGenerator(13));
    for (const level of ["low", "medium", "high"] as const)
      expect(measureLevelSupport([normal], 600, 0.2, { svdLevel: level })?.holds).toBe(true);
  });

  it("says when an SVD threshold sits at its 0.1 σ floor, and advises no window size", () => {
    const normal = Float64Array.from({ length: 2000 }, normalGenerator(14));
    // 8,000 training and 2,000 evaluation records: k 2.1 over √1600 is about 0.05 at low.
    expect(svdExpectedThreshold(normal, 8000, 2000, "low")).toBeLessThan(MIN_SVD_THRESHOLD);
    expect(measureLevelSupport([normal], 10_000, 0.2, { svdLevel: "low" })).toMatchObject({
      holds: false,
      limitedBy: "floor",
      minimumSampleSize: null,
    });
    // 120 + 30 records: about 2.1 / √24 ≈ 0.43, far above the floor.
    expect(svdExpectedThreshold(normal, 120, 30, "low")).toBeGreaterThan(0.35);
    expect(measureLevelSupport([normal], 150, 0.2, { svdLevel: "low" })?.holds).toBe(true);
    // Without the level (MVD, CAP) nothing is judged of an SVD threshold.
    expect(measureLevelSupport([normal], 10_000, 0.2)?.holds).toBe(true);
  });

  it("asks a CAP monitor for enough training records to learn heavy or skewed tails", () => {
    // Student t₃ values: heavy tails the control rules judge single points by.
    const next = normalGenerator(11);
    const t3 = Float64Array.from({ length: 2000 }, () => {
      const z = next();
      const chi = next() ** 2 + next() ** 2 + next() ** 2;
      return z / Math.sqrt(chi / 3);
    });
    const cap = measureLevelSupport([t3], 150, 0.2, { controlTails: true });
    expect(cap?.heavyTails).toBe(true);
    expect(cap?.holds).toBe(false);
    expect(cap?.limitedBy).toBe("tails");
    // MIN_TAIL_TRAINING training records at ratio 0.2: 500 in all.
    expect(cap?.minimumSampleSize).toBe(Math.ceil(MIN_TAIL_TRAINING / 0.8));
    expect(measureLevelSupport([t3], 500, 0.2, { controlTails: true })?.holds).toBe(true);
    // SVD and MVD do not judge single points by the tail: the same window holds for them.
    expect(measureLevelSupport([t3], 150, 0.2)?.holds).toBe(true);
    // Normal values have no tail to learn.
    const normal = Float64Array.from({ length: 2000 }, () => next());
    const plain = measureLevelSupport([normal], 150, 0.2, { controlTails: true });
    expect(plain?.heavyTails).toBe(false);
    expect(plain?.holds).toBe(true);
    expect(plain?.limitedBy).toBeNull();
  });

  it("asks a CAP monitor for MIN_CAP_TRAINING training records whatever the signal, and no other monitor", () => {
    const next = normalGenerator(13);
    const normal = Float64Array.from({ length: 2000 }, () => next());
    // 50 × 0.2: 25 training and 25 evaluation records, the smallest window the worker runs.
    const small = measureLevelSupport([normal], 50, 0.2, { controlTails: true });
    expect(small?.heavyTails).toBe(false);
    expect(small).toMatchObject({ holds: false, limitedBy: "coarse", trainingRecords: 25 });
    // The smallest window with MIN_CAP_TRAINING training records at this ratio: 75 = 50 + 25.
    expect(MIN_CAP_TRAINING).toBe(50);
    expect(small?.minimumSampleSize).toBe(75);
    expect(measureLevelSupport([normal], 75, 0.2, { controlTails: true })?.holds).toBe(true);
    expect(measureLevelSupport([normal], 74, 0.2, { controlTails: true })?.limitedBy).toBe("coarse");
    // SVD and MVD windows of the same size hold on independent normal values.
    expect(measureLevelSupport([normal], 50, 0.2)?.holds).toBe(true);
    const independent = estimateDependence(new Float64Array(200).fill(3));
    expect(levelSupport(independent, 50, 0.2, 1, { cap: true }).limitedBy).toBe("coarse");
    expect(levelSupport(independent, 50, 0.2).holds).toBe(true);
  });

  it("answers null without usable records", () => {
    expect(measureLevelSupport([], 50, 0.2)).toBeNull();
    expect(measureLevelSupport([[1, Number.NaN, 2]], 50, 0.2)).toBeNull();
  });

  it("asks for evaluation records spanning two periods of a cycle, and says which cycle", () => {
    // A temperature cycle of 100 records, half the noise's variance, over a preview of 2,000.
    const next = normalGenerator(29);
    const history = Array.from(
      { length: 2000 },
      (_, t) => 20 + Math.sin((2 * Math.PI * t) / 100 + 0.4) + next(),
    );
    const short = measureLevelSupport([history], 600, 0.2);
    expect(short?.dependence.periodic?.period).toBeCloseTo(100, 0);
    expect(short?.holds).toBe(false);
    expect(short?.limitedBy).toBe("cycle");
    // 120 evaluation records are 1.2 periods; two periods need 200, so 1,000 records at 0.2.
    const minimum = short?.minimumSampleSize ?? 0;
    expect(minimum).toBeGreaterThanOrEqual(995);
    expect(minimum).toBeLessThanOrEqual(1010);
    expect(measureLevelSupport([history], minimum, 0.2)?.holds).toBe(true);
    expect(measureLevelSupport([history], 3000, 0.2)?.holds).toBe(true);
    // The plain AR fit alone read the cycle as strong dependence: the VIF at its cap.
    expect(estimateDependence(Float64Array.from(history)).uncappedVif).toBeGreaterThan(5);
    expect(short?.dependence.uncappedVif).toBeLessThan(1);
  });
});
