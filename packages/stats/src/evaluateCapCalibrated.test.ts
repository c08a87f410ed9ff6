import { describe, expect, it } from "vitest";
import { capHeld } from "../test/capHeldVectors.js";
import { normalSample } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { capability } from "./capability.js";
import {
  bissellStandardError,
  capabilitySideStandardError,
  capabilityStandardError,
} from "./capabilityIntervals.js";
import { MIN_EMPIRICAL_VALUES, modelPointLaw } from "./controlNullSimulation.js";
import { controlTest, judgeControlRules, signalChanceAtTail } from "./controlRules.js";
import { sampleShape } from "./descriptive.js";
import { chiSquareUpperTail, normalUpperQuantile, normalUpperTail } from "./distributions.js";
import {
  ar1SpreadCorrection,
  CAP_FAR_ERRORS,
  CAP_MINOR_SHARE,
  type CapCalibratedEvaluation,
  capabilityPValue,
  capabilityShareOf,
  controlNullOf,
  evaluateCapCalibrated,
} from "./evaluateCapCalibrated.js";
import type { NoDataEvaluation } from "./evaluation.js";
import { gappedCriticalValue } from "./twoSidedCritical.js";

function evaluated(result: CapCalibratedEvaluation | NoDataEvaluation): CapCalibratedEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

describe("bissellStandardError", () => {
  it.each(vectors.bissell.map((c) => [c.index, c.nEff, c] as const))(
    "matches the reference (%s, n′ %s)",
    (_, __, c) => {
      expectRelativelyClose(bissellStandardError(c.index, c.nEff), c.expected);
    },
  );
});

describe("capabilityStandardError", () => {
  it.each(vectors.ppkStandardError.map((c, i) => [i, c] as const))(
    "matches the reference on vector %i",
    (_, c) => {
      expectRelativelyClose(
        capabilityStandardError(c.index, { meanCount: c.nMean, varianceCount: c.nVar, kurtosis: c.kurtosis }),
        c.expected,
      );
    },
  );

  it("is Bissell's for normal data without dependence", () => {
    expect(capabilityStandardError(1.33, { meanCount: 30, varianceCount: 30, kurtosis: 3 })).toBeCloseTo(
      bissellStandardError(1.33, 30),
      15,
    );
  });
});

describe("the capability decision's shape and dependence parts", () => {
  it.each(vectors.capShape.map((c) => [c.kind, c.values.length, c] as const))(
    "sampleShape matches SciPy's skew and adjusted kurtosis (%s, %i values)",
    (_, __, c) => {
      const shape = sampleShape(c.values);
      expectRelativelyClose(shape.skewness, c.expected.skewness);
      expectRelativelyClose(shape.kurtosis, c.expected.kurtosis);
    },
  );

  it.each(vectors.ar1SpreadCorrection.map((c) => [c.rho, c.n, c] as const))(
    "ar1SpreadCorrection matches the reference (ρ %s, n %i)",
    (_, __, c) => {
      expectRelativelyClose(ar1SpreadCorrection(c.rho, c.n), c.expected);
    },
  );

  it.each(vectors.ppkSideStandardError.map((c, i) => [i, c.side, c] as const))(
    "capabilitySideStandardError matches the reference on vector %i (%s side)",
    (_, __, c) => {
      const uncertainty = {
        meanCount: c.nMean,
        varianceCount: c.nVar,
        kurtosis: c.kurtosis,
        skewness: c.skewness,
      };
      expectRelativelyClose(capabilitySideStandardError(c.index, uncertainty, c.side), c.expected);
    },
  );

  it("widens the upper side and narrows the lower side of right-skewed data", () => {
    const u = { meanCount: 25, varianceCount: 25, kurtosis: 8.9, skewness: 1.75 };
    const symmetric = capabilityStandardError(1.33, u);
    expect(capabilitySideStandardError(1.33, u, "upper")).toBeGreaterThan(symmetric);
    expect(capabilitySideStandardError(1.33, u, "lower")).toBeLessThan(symmetric);
    expect(capabilitySideStandardError(1.33, { ...u, skewness: 0 }, "upper")).toBe(symmetric);
  });
});

describe("evaluateCapCalibrated", () => {
  it.each(vectors.capCalibrated.map((c, i) => [i, c] as const))(
    "matches the reference on vector %i",
    (_, c) => {
      const result = evaluated(evaluateCapCalibrated(c.values, { lsl: c.lsl, usl: c.usl }, c.alertThreshold));
      const e = c.expected;
      const cap = result.capability;
      if (cap === null) throw new Error("expected capability");
      expectRelativelyClose(cap.ppk, e.ppk);
      expectRelativelyClose(cap.cpk, e.cpk);
      expectRelativelyClose(result.vif, e.vif);
      expectRelativelyClose(result.effectiveCount, e.nEff);
      expectRelativelyClose(result.uncertainty.kurtosis, e.kurtosis);
      expectRelativelyClose(result.uncertainty.skewness ?? Number.NaN, e.skewness);
      expectRelativelyClose(result.uncertainty.varianceCount, c.values.length / e.vifVariance);
      expectRelativelyClose(result.ppkStandardError ?? Number.NaN, e.ppkSe);
      expectRelativelyClose(result.ppkUpperBound ?? Number.NaN, e.ppkUpperBound);
      expectRelativelyClose(result.criticalValue ?? Number.NaN, e.criticalValue);
      if (e.sideCorrelation === null) expect(result.sideCorrelation).toBeNull();
      else expectRelativelyClose(result.sideCorrelation ?? Number.NaN, e.sideCorrelation);
      if (e.sideGap === null) expect(result.sideGap).toBeNull();
      else if (e.sideGap === 0) expect(result.sideGap).toBe(0);
      else expectRelativelyClose(result.sideGap ?? Number.NaN, e.sideGap);
      expect(result.isCapabilityBreach).toBe(e.isCapabilityBreach);
      const intervals = result.intervals;
      if (intervals === null) throw new Error("expected intervals");
      for (const [actual, expected] of [
        [intervals.cp, e.cpInterval],
        [intervals.pp, e.ppInterval],
        [intervals.cpk, e.cpkInterval],
        [intervals.ppk, e.ppkInterval],
      ] as const) {
        if (expected === null) expect(actual).toBeNull();
        else {
          expectRelativelyClose(actual?.[0] ?? Number.NaN, expected[0]);
          expectRelativelyClose(actual?.[1] ?? Number.NaN, expected[1]);
        }
      }
    },
  );

  it.each(vectors.capCalibratedDependence.map((c) => [c.kind, c] as const))(
    "estimates dependence from the training values (%s) as the reference does",
    (_, c) => {
      const train = c.train.map((v) => (v === null ? Number.NaN : v));
      const limits = { lsl: c.lsl, usl: c.usl };
      for (const [result, e] of [
        [
          evaluated(evaluateCapCalibrated(c.values, limits, c.alertThreshold, { dependenceValues: train })),
          c.expected,
        ],
        [evaluated(evaluateCapCalibrated(c.values, limits, c.alertThreshold)), c.expectedWithoutTraining],
      ] as const) {
        expectRelativelyClose(result.vif, e.vif);
        expectRelativelyClose(result.ppkStandardError ?? Number.NaN, e.ppkSe);
        expectRelativelyClose(result.ppkUpperBound ?? Number.NaN, e.ppkUpperBound);
        expect(result.isCapabilityBreach).toBe(e.isCapabilityBreach);
      }
    },
  );

  it("reads a shift inside the evaluation set as a shift when the training values give the dependence", () => {
    const shift = vectors.capCalibratedDependence.find((c) => c.kind === "shift");
    if (!shift) throw new Error("no shift vector");
    const train = shift.train.map((v) => (v === null ? Number.NaN : v));
    const limits = { lsl: shift.lsl, usl: shift.usl };
    const withTraining = evaluated(
      evaluateCapCalibrated(shift.values, limits, "medium", { dependenceValues: train }),
    );
    const alone = evaluated(evaluateCapCalibrated(shift.values, limits, "medium"));
    // The step made the evaluation values look autocorrelated: fewer effective values.
    expect(alone.vif).toBeGreaterThan(1.5);
    expect(withTraining.vif).toBe(1);
    expect(withTraining.effectiveCount).toBe(shift.values.length);
    expect(alone.effectiveCount).toBeLessThan(shift.values.length / 1.5);
    expect(withTraining.isCapabilityBreach).toBe(true);
  });

  it("judges rule 1 on the new points only", () => {
    const values = [...normalSample(1, 40, 10, 0.1)];
    values[5] = 11; // old point outside the UCL: judged by an earlier evaluation
    const limits = { lcl: 9.7, ucl: 10.3, lsl: 9, usl: 11.5 };
    const later = evaluated(evaluateCapCalibrated(values, limits, "medium", { firstNewIndex: 30 }));
    expect(later.controlHits).toEqual([]);
    expect(later.judgedCount).toBe(10);
    const first = evaluated(evaluateCapCalibrated(values, limits, "medium"));
    expect(first.controlHits).toEqual([{ rule: 1, row: 5, value: 11 }]);
    expect(first.isControlBreach).toBe(true);
    values[35] = 9.6;
    const hit = evaluated(evaluateCapCalibrated(values, limits, "medium", { firstNewIndex: 30 }));
    expect(hit.controlHits).toEqual([{ rule: 1, row: 35, value: 9.6 }]);
    expect(hit.breach).toBe(true);
  });

  it("fires rules 2–4 only when turned on and only on a run that ends at a new point", () => {
    // Centre 10, σ = 0.1 (LCL 9.7, UCL 10.3).
    const base = Array.from({ length: 30 }, (_, i): number => (i % 2 === 0 ? 10.05 : 9.95));
    const limits = { lcl: 9.7, ucl: 10.3, lsl: 9, usl: 11 };
    const rule2 = [...base];
    rule2[27] = 10.25;
    rule2[29] = 10.22;
    const rules = { rule2: true, rule3: true, rule4: true };
    expect(evaluated(evaluateCapCalibrated(rule2, limits, "low", { firstNewIndex: 28 })).controlHits).toEqual(
      [],
    );
    expect(
      evaluated(evaluateCapCalibrated(rule2, limits, "low", { firstNewIndex: 28, runRules: rules }))
        .controlHits,
    ).toEqual([{ rule: 2, row: 29, value: 10.22 }]);
    const rule4 = [...base];
    for (let i = 20; i < 28; i++) rule4[i] = 10.05;
    rule4[28] = 9.95;
    const hits4 = evaluated(
      evaluateCapCalibrated(rule4, limits, "low", { firstNewIndex: 27, runRules: rules }),
    );
    expect(hits4.controlHits).toEqual([{ rule: 4, row: 27, value: 10.05 }]);
    // The same run judged when it was new: not again.
    expect(
      evaluated(evaluateCapCalibrated(rule4, limits, "low", { firstNewIndex: 28, runRules: rules }))
        .controlHits,
    ).toEqual([]);
    const rule3 = [...base];
    for (const i of [25, 26, 28, 29]) rule3[i] = 10.15;
    expect(
      evaluated(evaluateCapCalibrated(rule3, limits, "low", { firstNewIndex: 29, runRules: { rule3: true } }))
        .controlHits,
    ).toEqual([{ rule: 3, row: 29, value: 10.15 }]);
  });

  it("breaches capability only when the upper bound of Ppk is below the target", () => {
    // Ppk about 1.0 with 600 records: the 99 % upper bound stays far below 1.33.
    const poor = evaluated(
      evaluateCapCalibrated(normalSample(2, 600, 10, 1 / 3), { lsl: 9, usl: 11 }, "medium"),
    );
    expect(poor.isCapabilityBreach).toBe(true);
    // Ppk about 1.5 with 30 records: the point estimate may dip below 1.33, the bound does not.
    const capable = evaluated(
      evaluateCapCalibrated(normalSample(3, 30, 10, 2 / 9), { lsl: 9, usl: 11 }, "medium"),
    );
    expect(capable.isCapabilityBreach).toBe(false);
    expect(capable.ppkUpperBound).toBeGreaterThan(capable.capability?.ppk ?? Number.POSITIVE_INFINITY);
  });

  it("answers NO_DATA below 25 values and for a constant signal inside its limits", () => {
    expect(evaluateCapCalibrated(normalSample(4, 24), { lsl: -3, usl: 3 }, "medium")).toMatchObject({
      code: "EVALUATION_TOO_SMALL",
    });
    expect(evaluateCapCalibrated(new Array(30).fill(1), { lsl: 0, usl: 3 }, "medium")).toMatchObject({
      code: "CONSTANT_SIGNAL",
    });
    const outside = evaluated(evaluateCapCalibrated(new Array(30).fill(5), { lsl: 0, usl: 3 }, "medium"));
    expect(outside.isCapabilityBreach).toBe(true);
  });

  it("answers NO_DATA when the spec limits differ between records, not for a record without one", () => {
    const values = normalSample(41, 60, 10, 0.1);
    const usl = Float64Array.from(values, (_, i) => (i < 30 ? 10.6 : 10.7));
    expect(evaluateCapCalibrated(values, { usl }, "medium")).toMatchObject({
      state: "NO_DATA",
      code: "SPEC_LIMITS_DIFFER",
    });
    usl.fill(10.6);
    usl[3] = Number.NaN;
    expect(evaluated(evaluateCapCalibrated(values, { usl }, "medium")).usl).toBe(10.6);
    expect(() => evaluateCapCalibrated(values, { ucl: usl.subarray(0, 10) }, "medium")).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });

  it("keeps only its side's limits for a single-sided signal", () => {
    const values = normalSample(41, 60, 10, 0.1);
    const result = evaluated(
      evaluateCapCalibrated(values, { lsl: 9.4, usl: 10.01, ucl: 10.0, singleSide: "LOWER" }, "medium"),
    );
    expect(result.usl).toBeNull();
    expect(result.controlHits).toEqual([]);
    expect(result.capability?.cp).toBeNull();
    expect(result.capability?.ppk).toBe(result.capability?.ppl);
  });
});

describe("CAP held per evaluation: p = min(1, 2 · min(p_control, p_capability))", () => {
  it.each(capHeld.capHeld.map((c) => [c.kind, c] as const))("matches the reference: %s", (_, c) => {
    const r = evaluated(
      evaluateCapCalibrated(c.values, { lsl: c.lsl, usl: c.usl, lcl: c.lcl, ucl: c.ucl }, c.alertThreshold, {
        firstNewIndex: c.firstNewIndex,
        runRules: c.runRules,
        dependenceValues: c.train,
      }),
    );
    const e = c.expected;
    if (e.pControl === null) expect(r.control).toBeNull();
    // The reference is the independent normal chain. Where the training values' own process was
    // used instead (here an AR of 0.1 chosen by chance and a σ 6 % wider than the limits'), the
    // control part must come to the same decision at its level (decisions compared below).
    else if (r.control?.model !== undefined)
      expect(r.control.pValue < r.controlAlpha).toBe(e.pControl < r.controlAlpha);
    else expectRelativelyClose(r.control?.pValue ?? Number.NaN, e.pControl, 1e-9);
    expectRelativelyClose(r.pCapability ?? Number.NaN, e.pCapability, 1e-9);
    if (r.control?.model === undefined) expectRelativelyClose(r.pValue, e.pValue, 1e-9);
    expect(r.testCount).toBe(e.testCount);
    // The share between a half and CAP_MINOR_SHARE is interpolated: a few ulps apart from NumPy's.
    expectRelativelyClose(r.capabilityAlpha, e.capabilityAlpha, 1e-12);
    expectRelativelyClose(r.criticalValue ?? Number.NaN, e.criticalValue, 1e-9);
    expectRelativelyClose(r.ppkUpperBound ?? Number.NaN, e.ppkUpperBound, 1e-9);
    expect([r.isControlBreach, r.isCapabilityBreach, r.breach]).toEqual([
      e.isControlBreach,
      e.isCapabilityBreach,
      e.breach,
    ]);
  });

  it.each(capHeld.capabilityPValue.map((c, i) => [i, c] as const))(
    "p_capability matches the reference on vector %i",
    (_, c) => {
      expectRelativelyClose(capabilityPValue(c.t, c.sideCorrelation, c.sideGap), c.expected, 1e-9);
    },
  );

  it("p_capability is the level at which the bound sits at the target (the inverse of the critical value)", () => {
    for (const [t, rho, gap] of [
      [2.4, null, null],
      [2.6, 0.3, 0],
      [2.9, -0.4, 0],
      [2.2, 0.5, 1.2],
      [3.3, 0.1, 6],
    ] as const) {
      const p = capabilityPValue(t, rho, gap);
      const c = rho === null ? normalUpperQuantile(p) : gappedCriticalValue(p, rho, gap ?? 0);
      expect(c).toBeCloseTo(t, 9);
    }
  });

  it("a capability breach is the bound at α / 2 below the target, and p_capability below α / 2", () => {
    for (let seed = 10; seed < 40; seed++) {
      const values = normalSample(seed, 60, 10, 0.08 + (seed % 7) * 0.01);
      const r = evaluated(
        evaluateCapCalibrated(values, { lsl: 9.5, usl: 10.5, lcl: 9.7, ucl: 10.3 }, "medium"),
      );
      expect(r.testCount).toBe(2);
      expect(r.capabilityAlpha).toBe(0.005);
      expect(r.isCapabilityBreach).toBe((r.ppkUpperBound as number) < r.cpkTarget);
      expect(r.isCapabilityBreach).toBe((r.pCapability as number) < 0.005);
      expect(r.breach).toBe(r.pValue < 0.01);
    }
  });

  it("shows every point outside the limits as a control signal, but 3 of 600 judged are chance, not a breach", () => {
    // A first evaluation (every point of the evaluation set judged): 600 in-control points with
    // three just outside the limits (3.1 σ), as chance gives about 1.6 of them.
    const values = [...normalSample(41, 600, 10, 0.1)].map((v) => Math.max(9.75, Math.min(10.25, v)));
    values[100] = 10.31;
    values[350] = 9.69;
    values[599] = 10.31;
    const r = evaluated(evaluateCapCalibrated(values, { lsl: 9, usl: 11, lcl: 9.7, ucl: 10.3 }, "medium"));
    expect(r.controlHits.map((h) => h.row)).toEqual([100, 350, 599]);
    expect(r.judgedCount).toBe(600);
    expect(r.control?.testedCount).toBe(600);
    expect(r.control?.pValue).toBeGreaterThan(0.5);
    expect(r.isControlBreach).toBe(false);
    expect(r.breach).toBe(false);
    // One point far out (6 σ) among 5 new ones is no chance at any level.
    const later = [...values];
    later[598] = 10.6;
    const hit = evaluated(
      evaluateCapCalibrated(later, { lsl: 9, usl: 11, lcl: 9.7, ucl: 10.3 }, "high", { firstNewIndex: 595 }),
    );
    expect(hit.control?.pValue).toBeLessThan(1e-7);
    expect(hit.isControlBreach).toBe(true);
    expect(hit.state).toBe("BREACH");
  });

  it("holds α/2 for the control part of 600 judged points at medium: the boundary, analytically", () => {
    // The most extreme of 600 judged points breaches from |z| = z* ≈ 4.46 on, where p_control = α/2 = 0.005;
    // 600 in-control normal points reach z* with chance 1 − (1 − 2Φ(−z*))^600, which must be 0.005.
    const at = (v: number) => () => v;
    const rows = Array.from({ length: 600 }, (_, i) => i);
    const pAt = (z: number) => {
      const values = rows.map(() => 0);
      values[599] = z;
      const hits = judgeControlRules(values, rows, at(-3), at(3), 0, {});
      return controlTest(values, rows, at(-3), at(3), 0, {}, hits).pValue;
    };
    let low = 3.01;
    let high = 8;
    for (let i = 0; i < 100; i++) {
      const mid = (low + high) / 2;
      if (pAt(mid) > 0.005) low = mid;
      else high = mid;
    }
    const zStar = (low + high) / 2;
    expect(zStar).toBeCloseTo(4.456, 3);
    expectRelativelyClose(-Math.expm1(600 * Math.log1p(-2 * normalUpperTail(zStar))), 0.005, 1e-8);
  });

  it("a stable capable process judged on 600 points breaches rarely at medium (seeded; it was 80 %)", () => {
    // 300 windows of 150 training and 600 evaluation values, every point new (a first evaluation),
    // limits at the true ±3 σ, rules 1–4. Expected breaches about α/2 · 300 = 1.5 (at most).
    let breaches = 0;
    let signalled = 0;
    for (let w = 0; w < 300; w++) {
      const all = normalSample(1000 + w, 750, 10, 0.1);
      const r = evaluated(
        evaluateCapCalibrated(all.subarray(150), { lsl: 9, usl: 11, lcl: 9.7, ucl: 10.3 }, "medium", {
          dependenceValues: all.subarray(0, 150),
          runRules: w % 2 === 0 ? {} : { rule2: true, rule3: true, rule4: true },
        }),
      );
      if (r.controlHits.length > 0) signalled++;
      if (r.breach) breaches++;
    }
    // Most windows hold a control signal (0.27 % a point over 600 points: 80 % of them)…
    expect(signalled).toBeGreaterThan(200);
    // …and the evaluation breaches at about α/2: P(Binomial(300, 0.005) > 8) < 1e-4.
    expect(breaches).toBeLessThanOrEqual(8);
    // 300 evaluations of 600 judged points, each fitting its training values' shape and some
    // simulating: heavy by design, like the reduced benchmark's cells.
  }, 60_000);
});

describe("controlNullOf: the process the control rules are judged against", () => {
  it("keeps the limits' σ for independent values whose likeliest shape is the normal, however their sample σ falls", () => {
    let wider = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const training = Array.from(normalSample(900 + seed, 25));
      const mean = training.reduce((a, b) => a + b, 0) / training.length;
      const sd = Math.sqrt(training.reduce((a, v) => a + (v - mean) ** 2, 0) / (training.length - 1));
      const model = controlNullOf(training, { centre: 0, sigma: 1 });
      if (model.coefficients.length > 0 || Number.isFinite(model.shape.nu) || model.shape.gamma !== 1)
        continue;
      if (sd > 1) wider++;
      expect(model.scale ?? 1).toBe(1);
    }
    // Some of them had a sample σ above the limits' (the larger of the two was taken before).
    expect(wider).toBeGreaterThan(5);
  });

  it("takes the training values' own σ where wider for heavy-tailed values", () => {
    const z = normalSample(77, 4 * 400);
    // Student t with 3 degrees of freedom from normals: z / √(χ²₃ / 3).
    const t3 = Array.from({ length: 400 }, (_, i) => {
      const chi = (z[4 * i + 1] ?? 0) ** 2 + (z[4 * i + 2] ?? 0) ** 2 + (z[4 * i + 3] ?? 0) ** 2;
      return (z[4 * i] ?? 0) / Math.sqrt(chi / 3);
    });
    const model = controlNullOf(t3, { centre: 0, sigma: 1 });
    expect(model.shape.nu).toBeLessThan(10);
    expect(model.scale).toBeGreaterThan(1.2);
  });

  it("reads enough independent skewed values from their own distribution, at their sample σ where wider (0308)", () => {
    const lognormal = (seed: number, n: number) =>
      Array.from(normalSample(seed, n), (z) => 10 + 0.5 * (Math.exp(0.5 * z) - Math.exp(0.125)));
    const training = lognormal(3108, 2400);
    const mean = training.reduce((a, b) => a + b, 0) / training.length;
    const sd = Math.sqrt(training.reduce((a, v) => a + (v - mean) ** 2, 0) / (training.length - 1));
    // Limits 10 % narrower than the values' spread, as moving ranges read a lognormal's σ.
    const sigma = 0.9 * sd;
    const model = controlNullOf(training, { centre: 10, sigma });
    expect(model.coefficients.length).toBe(0);
    expect(model.shape.gamma).toBeGreaterThan(1);
    expect(model.empirical?.length).toBe(2400);
    expect(model.scale).toBeCloseTo(sd / sigma, 12);
    const law = modelPointLaw(model);
    // The share of training values below their mean, which the fitted two-piece t puts too low.
    expect(law.lower(0)).toBe(training.filter((v) => v < mean).length / training.length);
    expect(law.lower(0)).toBeGreaterThan(modelPointLaw({ ...model, empirical: undefined }).lower(0));
    // Fewer values than MIN_EMPIRICAL_VALUES, normal values and an AR process keep the fitted law.
    expect(controlNullOf(lognormal(3109, MIN_EMPIRICAL_VALUES - 1), { centre: 10, sigma }).empirical).toBe(
      undefined,
    );
    expect(controlNullOf(Array.from(normalSample(3110, 2400)), { centre: 0, sigma: 1 }).empirical).toBe(
      undefined,
    );
    const ar = Array.from(normalSample(3111, 2400));
    for (let i = 1; i < ar.length; i++) ar[i] = 0.7 * (ar[i - 1] as number) + (ar[i] as number);
    expect(controlNullOf(ar, { centre: 0, sigma: 1.4 }).empirical).toBe(undefined);
  });
});

describe("the control part's p-value at an atom of its statistic (a run rule's signal)", () => {
  const runRules = { rule2: true, rule3: true, rule4: true };
  it("breaks a run of 8's tie by its spread (χ²(8) of Σ z²), and is P(T ≤ t) for a rule-1 point", () => {
    const training = Array.from(normalSample(61, 120));
    const history = Array.from(normalSample(62, 22), (v) => Math.max(-0.9, Math.min(0.9, v)));
    // Eight new points on one side of the centre line, none beyond 1 σ: a rule-4 run and nothing rarer.
    const runAt = (z: number) =>
      evaluated(
        evaluateCapCalibrated(
          [...history, ...Array(8).fill(z)],
          { lsl: -6, usl: 6, lcl: -3, ucl: 3 },
          "low",
          {
            dependenceValues: training,
            firstNewIndex: 22,
            runRules,
          },
        ),
      );
    const hugging = runAt(0.3);
    const wide = runAt(0.95);
    expect(hugging.control?.extreme?.rule).toBe(4);
    expect(wide.control?.extreme?.rule).toBe(4);
    const tail = hugging.control?.extreme?.tail ?? 0;
    const atMost = signalChanceAtTail(8, tail, runRules);
    const below = signalChanceAtTail(8, tail * (1 - 1e-9), runRules);
    expect(below).toBeLessThan(atMost);
    // P(T < t) + P(T = t) · P(χ²(8) ≥ Σ z²): a run hugging the centre line is nearly as common as
    // any run of 8, one near 1 σ is about half of them.
    expect(hugging.control?.pValue).toBeCloseTo(
      below + (atMost - below) * chiSquareUpperTail(8 * 0.09, 8),
      12,
    );
    expect(wide.control?.pValue).toBeCloseTo(
      below + (atMost - below) * chiSquareUpperTail(8 * 0.9025, 8),
      12,
    );
    expect(wide.control?.pValue ?? 1).toBeLessThan(below + 0.55 * (atMost - below));
    expect(hugging.control?.pValue ?? 0).toBeGreaterThan(below + 0.99 * (atMost - below));
    const run = [...history, ...Array(8).fill(0.3)];
    // A point beyond the limit: no atom, P(T ≤ t).
    const point = evaluated(
      evaluateCapCalibrated([...run.slice(0, 29), 3.4], { lsl: -6, usl: 6, lcl: -3, ucl: 3 }, "low", {
        dependenceValues: training,
        firstNewIndex: 29,
        runRules: {},
      }),
    );
    expect(point.control?.extreme?.rule).toBe(1);
    expect(point.control?.pValue).toBeCloseTo(
      signalChanceAtTail(1, point.control?.extreme?.tail ?? 0, {}),
      14,
    );
  });

  it("lets a capable process's control part at low use its share (0.9 of α 5 %)", () => {
    let breaches = 0;
    const evaluations = 3000;
    for (let w = 0; w < evaluations; w++) {
      const all = normalSample(7000 + w, 150);
      const r = evaluated(
        evaluateCapCalibrated(all.subarray(120), { lsl: -6, usl: 6, lcl: -3, ucl: 3 }, "low", {
          dependenceValues: all.subarray(0, 120),
          firstNewIndex: 25,
          runRules,
        }),
      );
      if (r.isControlBreach) breaches++;
    }
    // Spec limits at Ppk 2 against the low target 1.67, 30 evaluation values: the training values put
    // Ppk more than a standard error above it, so the control part judges at 0.9 α (135 of 3,000
    // expected; 134 measured). With half of α it breached 0.54 α (81), and 0.36 α (54) at P(T ≤ t).
    expect(breaches).toBeGreaterThanOrEqual(Math.ceil(3000 * 0.05 * 0.9 * 0.75));
    expect(breaches).toBeLessThanOrEqual(3000 * 0.05 * 0.9 * 1.25);
  }, 60_000);
});

describe("control rules on a gauge's readings (values on a grid)", () => {
  // A gauge reading to 0.05 (half the process's σ of 0.1), control limits at 2.95 σ: just below the
  // grid value 10.3, so every reading of 10.3 is beyond the upper limit — 2.2 times the points a
  // normal process puts beyond 3 σ.
  const limits = { lsl: 9, usl: 11, lcl: 10 - 0.295, ucl: 10 + 0.295 };
  const gauge = (seed: number, n: number) =>
    Array.from(normalSample(seed, n, 10, 0.1), (v) => Math.round(v * 20) / 20);

  it("judges a reading on the first grid value beyond a limit by the grid's own chance, and one further out as a signal", () => {
    const training = gauge(41, 120);
    const evaluation = gauge(42, 30).map((v) => Math.min(Math.max(v, 9.8), 10.2));
    const at = (newest: number) =>
      evaluated(
        evaluateCapCalibrated([...evaluation.slice(0, 29), newest], limits, "medium", {
          dependenceValues: training,
          firstNewIndex: 25,
        }),
      );
    const first = at(10.3);
    expect(first.controlHits.map((h) => h.value)).toEqual([10.3]);
    expect(first.control?.model?.grid?.resolution).toBeCloseTo(0.05, 9);
    expect(first.breach).toBe(false);
    const further = at(10.4);
    expect(further.controlHits.map((h) => h.value)).toEqual([10.4]);
    expect(further.breach).toBe(true);
  });

  it("holds about α at medium over many evaluations of gauge readings", () => {
    let breaches = 0;
    const evaluations = 2000;
    for (let w = 0; w < evaluations; w++) {
      const all = gauge(5000 + w, 150);
      const r = evaluated(
        evaluateCapCalibrated(all.slice(120), limits, "medium", {
          dependenceValues: all.slice(0, 120),
          firstNewIndex: 25,
        }),
      );
      if (r.breach) breaches++;
    }
    // About 1 % (Binomial(2000, 0.01): 20 ± 4.5); every reading at 10.3 breaching would give about 54.
    expect(breaches).toBeGreaterThanOrEqual(10);
    expect(breaches).toBeLessThanOrEqual(32);
  }, 60_000);
});

describe("the capability part's share of α (weighted Bonferroni)", () => {
  const training = [...normalSample(4, 200, 10, 0.1)];
  // 30 independent normal evaluation values: Bissell's normal-theory standard error.
  const thirty = { meanCount: 30, varianceCount: 30, kurtosis: 3 };
  it("is a half near the target, CAP_MINOR_SHARE far above it, and a half without training values", () => {
    // Ppk ≈ 2 against 1.33 with 30 evaluation values: far above (1 SE ≈ 0.27).
    expect(capabilityShareOf(training, 9.4, 10.6, 1.33, thirty)).toBe(CAP_MINOR_SHARE);
    // Ppk ≈ 1.33 at the target: a half.
    expect(capabilityShareOf(training, 9.6, 10.4, 1.33, thirty)).toBe(0.5);
    expect(capabilityShareOf(null, 9.4, 10.6, 1.33, thirty)).toBe(0.5);
    expect(capabilityShareOf(new Array(40).fill(10), 9.4, 10.6, 1.33, thirty)).toBe(0.5);
  });

  it("moves linearly from a half at the target to CAP_MINOR_SHARE one standard error above it", () => {
    // Ppk about half a standard error (of 30 values) above 1.33: a share between.
    const ppk = capability(training, { lsl: 9.53, usl: 10.47 }).ppk as number;
    const d = (ppk - 1.33) / Math.sqrt(1 / (9 * 30) + (ppk * ppk) / (2 * 29));
    expect(d).toBeGreaterThan(0.2);
    expect(d).toBeLessThan(0.8);
    expect(CAP_FAR_ERRORS).toBe(1);
    expect(capabilityShareOf(training, 9.53, 10.47, 1.33, thirty)).toBeCloseTo(
      0.5 - d * (0.5 - CAP_MINOR_SHARE),
      12,
    );
  });

  it("counts the standard error the evaluation's own bound has: autocorrelated values keep more of a half", () => {
    // Ppk ≈ 2 against 1.33: a standard error of 30 independent values away and more, but of 30
    // values of an AR(1) of 0.9 (VIF 19, the variance's 9.5) less than one.
    const ar09 = { meanCount: 30 / 19, varianceCount: 30 / (1.81 / 0.19), kurtosis: 3 };
    const share = capabilityShareOf(training, 9.4, 10.6, 1.33, ar09);
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.5);
    // Too few effective values for a standard error at all: a half.
    expect(capabilityShareOf(training, 9.4, 10.6, 1.33, { ...ar09, varianceCount: 1 })).toBe(0.5);
  });

  it("gives the control part most of α for a capable process, and the decision follows", () => {
    const values = [...normalSample(5, 30, 10, 0.1)];
    values[29] = 10.33; // just beyond the UCL among 5 judged
    const limits = { lcl: 9.7, ucl: 10.3, lsl: 9.4, usl: 10.6 };
    const r = evaluated(
      evaluateCapCalibrated(values, limits, "medium", { firstNewIndex: 25, dependenceValues: training }),
    );
    expect(r.capabilityShare).toBe(CAP_MINOR_SHARE);
    expect(r.controlAlpha).toBeCloseTo(0.01 * (1 - CAP_MINOR_SHARE), 15);
    expect(r.capabilityAlpha).toBeCloseTo(0.01 * CAP_MINOR_SHARE, 15);
    expect(r.pValue).toBeCloseTo(
      Math.min(1, (r.control?.pValue as number) / 0.9, (r.pCapability as number) / 0.1),
      15,
    );
    expect(r.isControlBreach).toBe((r.control?.pValue as number) < r.controlAlpha);
    const halves = evaluated(evaluateCapCalibrated(values, limits, "medium", { firstNewIndex: 25 }));
    expect(halves.capabilityShare).toBe(0.5);
    expect(halves.pValue).toBeCloseTo(
      Math.min(1, 2 * Math.min(halves.control?.pValue as number, halves.pCapability as number)),
      15,
    );
  });
});
