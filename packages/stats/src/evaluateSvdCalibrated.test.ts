import { describe, expect, it } from "vitest";
import { normalGenerator, normalSample } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { ALERT_THRESHOLDS } from "./alertThreshold.js";
import { fittedAutocorrelations } from "./dependence.js";
import { sampleStandardDeviation } from "./descriptive.js";
import { evaluateSvdCalibrated, type SvdCalibratedEvaluation } from "./evaluateSvdCalibrated.js";
import type { NoDataEvaluation } from "./evaluation.js";
import { StatsError } from "./statsError.js";
import {
  ar1BridgeLaw,
  bridgeLawCv,
  bridgeMeanRatio,
  changesSign,
  dispersionRatio,
  NORMAL_BRIDGE_CV,
  NORMAL_BRIDGE_MEAN,
  normalGridReference,
  normalReferenceCv,
  normalReferenceRatio,
  simulatedDependenceFactor,
  svdDependenceFactor,
  svdNullQuantile,
} from "./svdNullQuantile.js";
import { type ValueGrid, valueGrid } from "./valueGrid.js";

function evaluated(result: SvdCalibratedEvaluation | NoDataEvaluation): SvdCalibratedEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

describe("svdNullQuantile", () => {
  it("uses the reference's normal bridge mean", () => {
    expectRelativelyClose(NORMAL_BRIDGE_MEAN, vectors.normalBridgeMean, 1e-15);
  });

  it("is the k of the table for normal data (the closed normal case)", () => {
    // The size reference is below 1 (m values do not reach the tails) and grows towards 1.
    expect(normalReferenceRatio(75)).toBeGreaterThan(0.9);
    expect(normalReferenceRatio(75)).toBeLessThan(normalReferenceRatio(2400));
    expect(normalReferenceRatio(2400)).toBeLessThan(1);
    // A large normal sample: q_α(F̂) within 2 % of k at every level.
    const big = normalSample(11, 20000, 5, 2);
    expect(svdNullQuantile(big, "low") / 2.1).toBeCloseTo(1, 1);
    expect(Math.abs(svdNullQuantile(big, "medium") / 2.7 - 1)).toBeLessThan(0.02);
    expect(Math.abs(svdNullQuantile(big, "high") / 3.4 - 1)).toBeLessThan(0.02);
  });

  it("does not depend on location or scale", () => {
    const x = normalSample(12, 200);
    const moved = x.map((v) => 1000 + 7 * v);
    expectRelativelyClose(svdNullQuantile(moved, "medium"), svdNullQuantile(x, "medium"), 1e-12);
  });
});

describe("bridgeLawCv", () => {
  it("approaches the normal limit law's CV for a large normal sample and grows for small ones", () => {
    expect(Math.abs(normalReferenceCv(20000) / NORMAL_BRIDGE_CV - 1)).toBeLessThan(0.01);
    expect(normalReferenceCv(75)).toBeGreaterThan(normalReferenceCv(2400));
  });

  it("is lower for heavy tails: the t₅ law is less dispersed than the normal's", () => {
    const next = normalGenerator(31);
    const t5 = Float64Array.from({ length: 2400 }, () => {
      let chi = 0;
      for (let k = 0; k < 5; k++) chi += next() ** 2;
      return next() / Math.sqrt(chi / 5);
    });
    expect(bridgeLawCv(t5)).toBeLessThan(0.95 * normalReferenceCv(2400));
    expect(dispersionRatio(t5, "medium")).toBeLessThan(1);
    // The quantile falls more, relatively, the further out it sits.
    expect(dispersionRatio(t5, "high")).toBeLessThan(dispersionRatio(t5, "low"));
  });

  it("does not depend on location or scale", () => {
    const x = normalSample(13, 300);
    expectRelativelyClose(bridgeLawCv(x.map((v) => -4 + 0.01 * v)), bridgeLawCv(x), 1e-12);
  });
});

describe("ar1BridgeLaw and svdDependenceFactor", () => {
  it.each(vectors.svdDependence.map((c, i) => [i, c.kind, c.coefficient, c] as const))(
    "match the reference on vector %i (%s, ρ %s)",
    (_, __, ___, c) => {
      const law = ar1BridgeLaw(c.values, c.coefficient, c.n);
      expectRelativelyClose(law.mean, c.expected.mean);
      expectRelativelyClose(law.cv, c.expected.cv);
      for (const level of ["low", "medium", "high"] as const)
        expectRelativelyClose(
          svdDependenceFactor(c.values, c.coefficient, c.n, level),
          c.expected.factor[level],
        );
    },
  );

  it("is the independent bridge at ρ = 0 (bridgeMeanRatio's mean, bridgeLawCv's CV)", () => {
    const x = normalSample(41, 50, 2, 3);
    const law = ar1BridgeLaw(x, 0, 25);
    expectRelativelyClose(
      law.mean,
      bridgeMeanRatio(x) * sampleStandardDeviation(x) * NORMAL_BRIDGE_MEAN,
      1e-12,
    );
    expectRelativelyClose(law.cv, bridgeLawCv(x), 1e-12);
    expect(svdDependenceFactor(x, 0, 25, "medium")).toBe(1);
    // Beyond 60 steps its blocks are coarser than bridgeLawCv's 120.
    const y = normalSample(43, 300);
    expect(Math.abs(ar1BridgeLaw(y, 0, 75).cv / bridgeLawCv(y) - 1)).toBeLessThan(0.005);
  });

  it("grows with ρ, less than the mean's √VIF, and more at the higher levels", () => {
    const x = normalSample(42, 120);
    const low = svdDependenceFactor(x, 0.5, 30, "low");
    const high = svdDependenceFactor(x, 0.5, 30, "high");
    expect(svdDependenceFactor(x, 0.2, 30, "medium")).toBeGreaterThan(1);
    expect(svdDependenceFactor(x, 0.2, 30, "medium")).toBeLessThan(svdDependenceFactor(x, 0.5, 30, "medium"));
    expect(high).toBeGreaterThan(low);
    expect(high).toBeLessThan(Math.sqrt(3));
  });
});

describe("evaluateSvdCalibrated", () => {
  // The design's own vectors (docs/monitoring.md "SVD" before issue 29: threshold k_α / √n_eff for
  // independent normal data, the uncorrected method that left the package).
  it.each(vectors.svd.map((c, i) => [i, c] as const))(
    "scores the design's vector %i as the design does, its threshold the design's where the training values are independent",
    (_, c) => {
      const result = evaluated(evaluateSvdCalibrated(c.train, c.eval, c.alertThreshold));
      expectRelativelyClose(result.w1, c.expected.w1);
      expectRelativelyClose(result.scale, c.expected.scale);
      expectRelativelyClose(result.score, c.expected.score);
      if (result.arOrder === 0) {
        // Normal training values: the table's k, moved only by the sample's own shape and the cost
        // of estimating s.
        expect(Math.abs(result.threshold / c.expected.threshold - 1)).toBeLessThan(0.03);
      } else {
        expect(result.threshold).toBeGreaterThan(c.expected.threshold);
      }
    },
  );

  it.each(vectors.svdCalibrated.map((c, i) => [i, c.kind, c] as const))(
    "matches the reference on vector %i (%s)",
    (_, __, c) => {
      const result = evaluated(evaluateSvdCalibrated(c.train, c.eval, c.alertThreshold));
      expectRelativelyClose(result.w1, c.expected.w1);
      expectRelativelyClose(result.scale, c.expected.scale);
      expectRelativelyClose(result.score, c.expected.score);
      expectRelativelyClose(result.vif, c.expected.vif);
      expectRelativelyClose(result.dependenceFactor, c.expected.dependenceFactor);
      expectRelativelyClose(result.kurtosis, c.expected.kurtosis);
      expectRelativelyClose(result.degrees, c.expected.degrees);
      expectRelativelyClose(result.vifWidening, c.expected.vifWidening);
      expectRelativelyClose(result.nullQuantile, c.expected.nullQuantile);
      expectRelativelyClose(result.dispersionRatio, c.expected.dispersionRatio);
      expectRelativelyClose(result.threshold, c.expected.threshold);
      expect(result.breach).toBe(c.expected.breach);
      expect(result.state).toBe(c.expected.breach ? "BREACH" : "OK");
    },
  );

  it("widens the threshold for an autocorrelated training set and says by how much", () => {
    const next = normalGenerator(21);
    const series = new Float64Array(150);
    let x = 0;
    for (let i = 0; i < series.length; i++) {
      x = 0.5 * x + next();
      series[i] = x;
    }
    const result = evaluated(evaluateSvdCalibrated(series.subarray(0, 120), series.subarray(120), "medium"));
    expect(result.vif).toBeGreaterThan(1.8);
    expect(result.vifWidening).toBeGreaterThan(1);
    const independent = evaluated(
      evaluateSvdCalibrated(normalSample(24, 120), normalSample(25, 30), "medium"),
    );
    expect(independent.vif).toBe(1);
    // Only the scale's own uncertainty remains: ν = m − 1 or fewer.
    expect(independent.degrees).toBeLessThanOrEqual(119);
    expect(independent.vifWidening).toBeLessThan(result.vifWidening);
  });

  it("never puts the threshold below 0.1", () => {
    const result = evaluated(evaluateSvdCalibrated(normalSample(3, 20000), normalSample(4, 20000), "low"));
    expect(result.threshold).toBe(0.1);
    expect(result.isThresholdFloored).toBe(true);
    expect(result.breach).toBe(false);
    const shifted = evaluated(
      evaluateSvdCalibrated(normalSample(3, 20000), normalSample(4, 20000, 0.12), "low"),
    );
    expect(shifted.breach).toBe(true);
  });

  it("answers NO_DATA below the window minimums and for a constant signal", () => {
    expect(evaluateSvdCalibrated(normalSample(6, 9), normalSample(5, 25), "medium")).toMatchObject({
      code: "TRAINING_TOO_SMALL",
    });
    expect(evaluateSvdCalibrated(normalSample(6, 10), normalSample(5, 24), "medium")).toMatchObject({
      code: "EVALUATION_TOO_SMALL",
    });
    expect(evaluateSvdCalibrated(new Float64Array(30).fill(0.1), normalSample(7, 30), "medium")).toEqual({
      state: "NO_DATA",
      code: "CONSTANT_SIGNAL",
      reason: "constant signal",
    });
  });

  it("leaves out missing values and lists them", () => {
    const train = [...normalSample(8, 12)];
    const ev = [...normalSample(9, 26)];
    train[3] = Number.NaN;
    ev[0] = Number.POSITIVE_INFINITY;
    const result = evaluated(evaluateSvdCalibrated(train, ev, "medium"));
    expect(result.m).toBe(11);
    expect(result.n).toBe(25);
    expect(result.leftOut).toEqual({ training: [3], evaluation: [0] });
  });
});

describe("simulatedDependenceFactor (a fit whose autocorrelations change sign)", () => {
  it.each(vectors.svdSimulatedLaw.map((c, i) => [i, c.kind, c] as const))(
    "matches NumPy's simulation of the block law (case %i, %s)",
    (_, __, c) => {
      const acf = fittedAutocorrelations(c.arCoefficients);
      for (const level of ALERT_THRESHOLDS) {
        expectRelativelyClose(
          simulatedDependenceFactor(c.values, acf, c.n, level),
          c.expected[level],
          c.tolerance[level],
        );
        expectRelativelyClose(simulatedDependenceFactor(c.values, acf, c.n, level), c.exact[level], 1e-9);
      }
    },
  );

  it("reads a pseudo-cycle's quantile below the mean-and-CV reading, most at high", () => {
    const c = vectors.svdSimulatedLaw.find(
      (v) => v.kind === "cyclic",
    ) as (typeof vectors.svdSimulatedLaw)[number];
    const acf = fittedAutocorrelations(c.arCoefficients);
    expect(changesSign(acf)).toBe(true);
    const simulated = ALERT_THRESHOLDS.map((level) => simulatedDependenceFactor(c.values, acf, c.n, level));
    const moments = ALERT_THRESHOLDS.map((level) => svdDependenceFactor(c.values, acf, c.n, level));
    expect(simulated[1] as number).toBeLessThan(0.97 * (moments[1] as number));
    expect(simulated[2] as number).toBeLessThan(0.96 * (moments[2] as number));
    // Deterministic: the same values give the same factor.
    expect(simulatedDependenceFactor(c.values, acf, c.n, "medium")).toBe(simulated[1]);
  });

  it("agrees with the mean-and-CV reading on an AR(1) law, and is 1 without dependence", () => {
    const x = normalSample(21, 120);
    const acf = fittedAutocorrelations([0.5]);
    expect(changesSign(acf)).toBe(false);
    for (const level of ALERT_THRESHOLDS) {
      const ratio = simulatedDependenceFactor(x, acf, 30, level) / svdDependenceFactor(x, acf, 30, level);
      // The simulation's noise: about 1 % at low and medium, a few per cent at high (20 draws beyond).
      expect(Math.abs(ratio - 1)).toBeLessThan(level === "high" ? 0.05 : 0.03);
    }
    expect(simulatedDependenceFactor(x, [], 30, "medium")).toBe(1);
    expect(() => simulatedDependenceFactor(x, acf, 0, "medium")).toThrow(StatsError);
    expect(() => simulatedDependenceFactor(x, acf, 30, "medium", 10)).toThrow(StatsError);
  });

  it("is what evaluateSvdCalibrated uses on a pseudo-cycle, and only there", () => {
    const next = normalGenerator(31);
    let previous = 0;
    let before = 0;
    const series = Float64Array.from({ length: 1500 }, () => {
      const value = 1.6 * previous - 0.8 * before + next();
      before = previous;
      previous = value;
      return value;
    }).subarray(300);
    const training = series.subarray(0, 960);
    const evaluation = series.subarray(960);
    const cycle = evaluated(evaluateSvdCalibrated(training, evaluation, "medium"));
    expect(cycle.arOrder).toBeGreaterThanOrEqual(2);
    expect(changesSign(cycle.dependence.autocorrelations)).toBe(true);
    expect(cycle.dependenceFactor).toBe(
      Math.max(1, simulatedDependenceFactor(training, cycle.dependence.autocorrelations, 240, "medium")),
    );
    // Non-negative autocorrelations: the mean-and-CV reading, unchanged.
    const ar1 = normalGenerator(32);
    let level = 0;
    const alike = Float64Array.from({ length: 150 }, () => {
      level = 0.6 * level + ar1();
      return level;
    });
    const result = evaluated(evaluateSvdCalibrated(alike.subarray(0, 120), alike.subarray(120), "medium"));
    expect(changesSign(result.dependence.autocorrelations)).toBe(false);
    expect(result.dependenceFactor).toBe(
      Math.max(
        1,
        svdDependenceFactor(alike.subarray(0, 120), result.dependence.autocorrelations, 30, "medium"),
      ),
    );
  });
});

describe("normalGridReference (a gauge's readings)", () => {
  it.each(vectors.svdGaugeReference.map((c, i) => [i, c] as const))(
    "matches SciPy's rounded Blom scores and the null quantile on them (case %i)",
    (_, c) => {
      const grid = valueGrid(c.values);
      expect(grid).not.toBeNull();
      expectRelativelyClose((grid as ValueGrid).step, c.step, 1e-9);
      expect((grid as ValueGrid).origin).toBe(c.origin);
      const reference = normalGridReference(c.values, grid as ValueGrid) as Float64Array;
      expect(Array.from(reference)).toEqual(c.expected.reference.map((v) => expect.closeTo(v, 9)));
      for (const level of ALERT_THRESHOLDS) {
        expectRelativelyClose(svdNullQuantile(c.values, level, grid), c.expected.nullQuantile[level], 1e-9);
        expect(
          evaluated(evaluateSvdCalibrated(c.values, c.values.slice(0, 25), level)).nullQuantile,
        ).toBeCloseTo(c.expected.nullQuantile[level], 12);
      }
    },
  );

  it("lowers a 0.5 σ gauge's null quantile from the continuous reference's, and leaves values off a grid alone", () => {
    const c = vectors.svdGaugeReference[0] as (typeof vectors.svdGaugeReference)[number];
    const grid = valueGrid(c.values);
    expect(svdNullQuantile(c.values, "medium", grid)).toBeLessThan(
      0.99 * svdNullQuantile(c.values, "medium"),
    );
    const continuous = normalSample(41, 120, 250, 0.5);
    expect(valueGrid(continuous)).toBeNull();
    const result = evaluated(evaluateSvdCalibrated(continuous, normalSample(42, 30, 250, 0.5), "medium"));
    expect(result.nullQuantile).toBeCloseTo(svdNullQuantile(continuous, "medium"), 12);
  });

  it("keeps the continuous reference when the grid is as coarse as the spread", () => {
    // One reading of 1 among 999 of 0: the normal's scores at that sd all round to 0.
    const rare = Float64Array.from({ length: 1000 }, (_, i) => (i === 0 ? 1 : 0));
    expect(normalGridReference(rare, { step: 1, origin: 0 })).toBeNull();
    expect(svdNullQuantile(rare, "medium", { step: 1, origin: 0 })).toBe(svdNullQuantile(rare, "medium"));
    expect(() => normalGridReference([1, 2], { step: 0, origin: 1 })).toThrow(StatsError);
  });
});
