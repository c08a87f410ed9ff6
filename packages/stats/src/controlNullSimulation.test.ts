import { describe, expect, it } from "vitest";
import { capHeld } from "../test/capHeldVectors.js";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import {
  EMPIRICAL_TAIL_COUNT,
  empiricalPointLaw,
  MAX_SIMULATED_POINTS,
  modelPointLaw,
  nullTails,
  pathSignals,
  quantisedPointLaw,
  RUN_SPREAD_DRAWS,
  RUN_SPREAD_MAX_VALUES,
  RUN_SPREAD_MIN_DRAWS,
  rule1LimitAt,
  runLengthAt,
  runSpreadChance,
  runSpreadDraws,
  SIMULATION_BATCH,
  shapePointLaw,
  simulatedSignalChance,
} from "./controlNullSimulation.js";
import {
  ALL_RUN_RULES,
  judgeControlRules,
  RULE2_POINT_TAIL,
  RULE3_POINT_TAIL,
  runTail,
} from "./controlRules.js";
import { controlSignalChance, NORMAL_POINT_LAW, westernElectricSet } from "./controlSignalChain.js";
import { chiSquareUpperTail, normalUpperQuantile, normalUpperTail } from "./distributions.js";
import { NORMAL_SHAPE, standardizedTails } from "./marginalShape.js";

const normalAr = (coefficients: readonly number[]) => ({ coefficients, shape: NORMAL_SHAPE });

const ALL = westernElectricSet(ALL_RUN_RULES);

describe("nullTails", () => {
  it("is the normal chain's per-point tails for independent normal points", () => {
    const tails = nullTails({ coefficients: [], shape: NORMAL_SHAPE });
    expect(tails.rule1(3)).toBeCloseTo(2 * normalUpperTail(3), 15);
    expect(tails.rule2).toBeCloseTo(RULE2_POINT_TAIL, 15);
    expect(tails.rule3).toBeCloseTo(RULE3_POINT_TAIL, 15);
    expect(tails.run(8)).toBeCloseTo(runTail(8), 15);
  });

  it("measures an autocorrelated process's runs as common, and its rule-1 tail as the normal's", () => {
    const tails = nullTails({ coefficients: [0.9], shape: NORMAL_SHAPE });
    // Runs of 8 at φ 0.9: about 0.4 of the points end one (0.0078 for independent points).
    expect(tails.run(8)).toBeGreaterThan(0.3);
    expect(tails.run(30)).toBeLessThan(tails.run(8));
    expect(tails.rule3).toBeGreaterThan(5 * RULE3_POINT_TAIL);
    expect(tails.rule1(4)).toBeCloseTo(2 * normalUpperTail(4), 15);
    // The limits the grading turns into: a rarer signal, a further rule-1 limit and a longer run.
    expect(rule1LimitAt(tails, 1e-6)).toBeCloseTo(normalUpperQuantile(5e-7), 6);
    expect(runLengthAt(tails, 1e-3)).toBeGreaterThan(runLengthAt(tails, 1e-2));
  });
});

describe("pathSignals", () => {
  it("fires exactly where judgeControlRules finds a hit at a judged point (limits ±3 σ)", () => {
    const next = normalGenerator(2905);
    let agreed = 0;
    let fired = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const lead = trial % 9;
      const length = lead + 1 + (trial % 13);
      // AR(1) 0.8 paths, so runs and zones are common.
      const z = new Float64Array(length);
      let x = next();
      for (let i = 0; i < length; i++) {
        x = 0.8 * x + 0.6 * next();
        z[i] = x * 1.3;
      }
      const rows = Array.from(z, (_, i) => i);
      const hits = judgeControlRules(
        Array.from(z),
        rows,
        () => -3,
        () => 3,
        lead,
        ALL_RUN_RULES,
      );
      const signals = pathSignals(z, lead, ALL);
      if (signals === hits.length > 0) agreed++;
      if (signals) fired++;
    }
    expect(agreed).toBe(3000);
    expect(fired).toBeGreaterThan(300);
  });

  it("looks back at the history but does not judge it", () => {
    const z = Float64Array.of(5, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8);
    expect(pathSignals(z, 1, westernElectricSet({}))).toBe(false);
    // Eight on one side ending at the last point: the run counts history points.
    expect(pathSignals(z, 8, westernElectricSet({ rule4: true }))).toBe(true);
    expect(pathSignals(z, 0, westernElectricSet({}))).toBe(true);
  });
});

describe("a run of rule 4 tied at the rarest signal (Σ z² over its points)", () => {
  const run8 = { ...ALL, runLength: 9 };
  it("counts a tied run in a path only when it is at least as wide", () => {
    // Eight on one side ending at the last point, Σ z² = 8 × 0.25 = 2: no signal of the set below a
    // run of 8 (runs of 9 or more), a tie of 8 at most as wide as 2.
    const z = Float64Array.from(Array(8).fill(0.5));
    expect(pathSignals(z, 7, run8)).toBe(false);
    expect(pathSignals(z, 7, run8, { length: 8, sumOfSquares: 2 })).toBe(true);
    expect(pathSignals(z, 7, run8, { length: 8, sumOfSquares: 2.01 })).toBe(false);
  });

  it("is χ²(L)'s tail for independent normal points on either side", () => {
    const model = normalAr([]);
    for (const [side, s] of [
      [1, 8],
      [-1, 3],
      [1, 15],
    ] as const) {
      const chance = runSpreadChance(model, side, 8, s);
      const exact = chiSquareUpperTail(s, 8);
      expect(Math.abs(chance - exact)).toBeLessThan(
        4.5 * Math.sqrt((exact * (1 - exact)) / RUN_SPREAD_DRAWS) + 1e-4,
      );
    }
  });

  it("draws a long run fewer times, its work bounded, and still reads χ²(L)'s tail", () => {
    expect(runSpreadDraws(8)).toBe(RUN_SPREAD_DRAWS);
    expect(runSpreadDraws(32)).toBe(RUN_SPREAD_DRAWS);
    expect(runSpreadDraws(600) * 600).toBeLessThanOrEqual(RUN_SPREAD_MAX_VALUES);
    expect(runSpreadDraws(100_000)).toBe(RUN_SPREAD_MIN_DRAWS);
    const model = normalAr([]);
    // A run of 600 points (a first evaluation of a shifted process): Σ z² about χ²(600), whose
    // median is about 599.3 and whose 5 % point is about 658.1.
    for (const s of [599.3, 658.1]) {
      const draws = runSpreadDraws(600);
      const chance = runSpreadChance(model, 1, 600, s);
      const exact = chiSquareUpperTail(s, 600);
      expect(Math.abs(chance - exact)).toBeLessThan(4.5 * Math.sqrt((exact * (1 - exact)) / draws) + 1e-3);
    }
  });

  it("puts the simulated order of an autocorrelated process between P(T < t) and P(T ≤ t), falling as the run widens", () => {
    const model = normalAr([0.5]);
    const at = (set: typeof ALL, tie?: { length: number; sumOfSquares: number }) =>
      simulatedSignalChance({
        count: 5,
        lead: 8,
        set,
        model,
        threshold: 0.01,
        paths: 20_000,
        ...(tie === undefined ? {} : { tie }),
      }).pValue;
    const below = at(run8);
    const atMost = at({ ...ALL, runLength: 8 });
    const narrow = at(run8, { length: 8, sumOfSquares: 1 });
    const wide = at(run8, { length: 8, sumOfSquares: 20 });
    expect(below).toBeLessThan(atMost);
    expect(narrow).toBeGreaterThan(wide);
    expect(wide).toBeGreaterThanOrEqual(below);
    expect(narrow).toBeLessThanOrEqual(atMost);
    // A run as narrow as Σ z² 1 is as common as any run of 8 in an AR(0.5) process nearly always.
    expect(narrow).toBeGreaterThan(below + 0.9 * (atMost - below));
  });

  it("refuses an autocorrelated model (its sizes depend on its signs)", () => {
    expect(() => runSpreadChance(normalAr([0.5]), 1, 8, 3)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("simulatedSignalChance", () => {
  it.each(
    capHeld.controlNullSimulation.map(
      (c) => [`AR(${c.coefficients.join(", ")}) ${c.count} judged`, c] as const,
    ),
  )("matches the NumPy simulation for %s", (_, c) => {
    const paths = c.count >= 100 ? 10 * SIMULATION_BATCH : 40 * SIMULATION_BATCH;
    const r = simulatedSignalChance({
      count: c.count,
      lead: c.lead,
      set: c.set,
      model: normalAr(c.coefficients),
      threshold: 0.01,
      paths,
    });
    expect(r.paths).toBe(paths);
    const ownSe = Math.sqrt((c.expected * (1 - c.expected)) / paths);
    const se = Math.hypot(ownSe, c.standardError);
    expect(Math.abs(r.signals / r.paths - c.expected)).toBeLessThan(4.5 * se);
  });

  it("agrees with the exact chain for independent points", () => {
    const chain = controlSignalChance(5, ALL, "stationary");
    const r = simulatedSignalChance({
      count: 5,
      lead: 7,
      set: ALL,
      model: normalAr([]),
      threshold: 0.01,
      paths: 40_000,
    });
    expect(Math.abs(r.signals / r.paths - chain)).toBeLessThan(
      4.5 * Math.sqrt((chain * (1 - chain)) / 40_000),
    );
  });

  it("agrees with the chain given the point law for independent heavy-tailed, skewed points", () => {
    for (const shape of [
      { nu: 3, gamma: 1 },
      { nu: 8, gamma: 1 / 0.65 },
    ]) {
      const chain = controlSignalChance(5, ALL, "stationary", shapePointLaw(shape));
      const r = simulatedSignalChance({
        count: 5,
        lead: 7,
        set: ALL,
        model: { coefficients: [], shape },
        threshold: 0.01,
        paths: 40_000,
      });
      // Heavier than the normal chain's, and the simulation finds what the chain computes.
      expect(chain).toBeGreaterThan(controlSignalChance(5, ALL, "stationary"));
      expect(Math.abs(r.signals / r.paths - chain)).toBeLessThan(
        4.5 * Math.sqrt((chain * (1 - chain)) / 40_000),
      );
    }
  });

  it("gives the same p-value for the same inputs (seeded)", () => {
    const args = { count: 5, lead: 7, set: ALL, model: normalAr([0.7]), threshold: 0.005 };
    expect(simulatedSignalChance(args)).toEqual(simulatedSignalChance(args));
  });

  it("stops early when the decision is clear, and runs on near the threshold", () => {
    // A run of 8 on an AR(1) of 0.9 is common: far above 0.005 after one batch.
    const common = simulatedSignalChance({
      count: 5,
      lead: 7,
      set: ALL,
      model: normalAr([0.9]),
      threshold: 0.005,
    });
    expect(common.paths).toBe(SIMULATION_BATCH);
    expect(common.pValue).toBeGreaterThan(0.3);
    // Rule 1 beyond 5 σ among 5 points: rarer than 1 in 40,000 — never 0, and a breach at 0.005.
    const rare = simulatedSignalChance({
      count: 5,
      lead: 0,
      set: { rule1Z: 5, rule2: false, rule3: false, runLength: null },
      model: normalAr([0.5]),
      threshold: 0.005,
    });
    expect(rare.pValue).toBeGreaterThan(0);
    expect(rare.pValue).toBeLessThan(0.005);
  });

  it("simulates fewer paths for a long first evaluation, still a valid p-value", () => {
    // 2,000 judged points near the threshold: the point budget, not MAX_SIMULATED_PATHS, ends it.
    const r = simulatedSignalChance({
      count: 2000,
      lead: 0,
      set: { rule1Z: 4.2, rule2: false, rule3: false, runLength: null },
      model: normalAr([0.5]),
      threshold: 0.05,
    });
    expect(r.paths).toBeLessThanOrEqual(
      Math.ceil(MAX_SIMULATED_POINTS / 2000 / SIMULATION_BATCH) * SIMULATION_BATCH,
    );
    expect(r.pValue).toBeGreaterThan(0);
    expect(r.pValue).toBeLessThanOrEqual(1);
  });

  it("refuses a count below 1 or a negative lead", () => {
    expect(() =>
      simulatedSignalChance({ count: 0, lead: 0, set: ALL, model: normalAr([]), threshold: 0.01 }),
    ).toThrow(/count/);
    expect(() =>
      simulatedSignalChance({ count: 3, lead: -1, set: ALL, model: normalAr([]), threshold: 0.01 }),
    ).toThrow(/lead/);
  });
});

describe("quantisedPointLaw", () => {
  // A normal process of σ `scale` (limits' σ units) read on offset + k · step: the chance of a
  // point at or beyond z summed grid value by grid value.
  const bySum = (scale: number, step: number, offset: number, z: number, side: 1 | -1) => {
    let sum = 0;
    for (let k = -200; k <= 200; k++) {
      const g = offset + k * step;
      if (side * g < z - 1e-12) continue;
      sum += normalUpperTail((g - step / 2) / scale) - normalUpperTail((g + step / 2) / scale);
    }
    return sum;
  };

  it("is the sum of the grid values' masses at or beyond z, on either side", () => {
    const scale = Math.sqrt(1 - 0.5 ** 2 / 12);
    const law = modelPointLaw({
      coefficients: [],
      shape: NORMAL_SHAPE,
      scale,
      grid: { step: 0.5, offset: 0.13 },
    });
    for (const z of [0.4, 1, 2, 2.9, 3, 3.13, 3.5, 4.2]) {
      expect(law.upper(z)).toBeCloseTo(bySum(scale, 0.5, 0.13, z, 1), 12);
      expect(law.lower(z)).toBeCloseTo(bySum(scale, 0.5, 0.13, z, -1), 12);
    }
    // A limit just below a grid value counts its whole mass: on a grid through 3, 1.7 times the
    // normal tail at 2.95.
    const through3 = modelPointLaw({
      coefficients: [],
      shape: NORMAL_SHAPE,
      scale,
      grid: { step: 0.5, offset: 0 },
    });
    expect(through3.upper(2.95) / normalUpperTail(2.95)).toBeGreaterThan(1.5);
  });

  it("splits a grid value on the centre line between the sides, so the two sides sum to 1", () => {
    const law = quantisedPointLaw(NORMAL_POINT_LAW, { step: 0.5, offset: 0 });
    expect(law.upper(0) + law.lower(0)).toBeCloseTo(1, 14);
    expect(law.upper(0)).toBeCloseTo(0.5, 14);
    // Off the centre line every point is on one side.
    const off = quantisedPointLaw(NORMAL_POINT_LAW, { step: 0.5, offset: 0.2 });
    expect(off.upper(0) + off.lower(0)).toBeCloseTo(1, 14);
    expect(off.upper(0)).toBeGreaterThan(0.5);
  });

  it("is what the simulated process gives: rounded values beyond a limit", () => {
    const model = { coefficients: [0.5], shape: NORMAL_SHAPE, grid: { step: 0.5, offset: 0.1 } };
    const law = modelPointLaw({ ...model, coefficients: [] });
    const tails = nullTails(model);
    // The AR process's marginal law is the normal's: its rounded points beyond ±2.5 as the law's.
    expect(tails.rule1(2.5)).toBeCloseTo(law.upper(2.5) + law.lower(2.5), 12);
    expect(() => quantisedPointLaw(NORMAL_POINT_LAW, { step: 0, offset: 0 })).toThrow();
  });
});

describe("empiricalPointLaw", () => {
  interface EmpiricalCase {
    kind: string;
    deviations: number[];
    nu: number | null;
    gamma: number;
    scale: number;
    tailCount: number;
    points: { z: number; upper: number; lower: number }[];
  }
  const cases = (vectors as unknown as { empiricalPointLaw: EmpiricalCase[] }).empiricalPointLaw;

  it.each(cases.map((c) => [c.kind, c] as const))(
    "matches SciPy's ECDF and the two-piece t's tail beyond the join for %s",
    (_, c) => {
      const shape = { nu: c.nu ?? Number.POSITIVE_INFINITY, gamma: c.gamma };
      const tail = modelPointLaw({ coefficients: [], shape, scale: c.scale });
      const law = empiricalPointLaw(c.deviations, tail, c.tailCount);
      for (const point of c.points) {
        for (const [got, want] of [
          [law.upper(point.z), point.upper],
          [law.lower(point.z), point.lower],
        ] as const) {
          if (want === 0) expect(got).toBe(0);
          // The shares exactly; the spliced tail to the integrals' digits (standardizedTails' own 1e-6).
          else expectRelativelyClose(got, want, 1e-6);
        }
      }
    },
  );

  it("is the sample's shares out to the join and meets the fitted tail there, scaled, beyond", () => {
    const next = normalGenerator(3108);
    const sample = Array.from({ length: 1000 }, () => Math.exp(0.5 * next()) - Math.exp(0.125));
    const tail = shapePointLaw({ nu: 6, gamma: 1 / 0.55 });
    const law = empiricalPointLaw(sample, tail);
    const sorted = [...sample].sort((a, b) => a - b);
    const share = (z: number) => sample.filter((v) => v > z).length / sample.length;
    expect(law.upper(0)).toBe(share(0));
    expect(law.lower(0)).toBe(sample.filter((v) => v < 0).length / sample.length);
    expect(law.upper(0.4)).toBe(share(0.4));
    const join = sorted[sorted.length - EMPIRICAL_TAIL_COUNT] as number;
    expect(law.upper(join)).toBeCloseTo((EMPIRICAL_TAIL_COUNT - 1) / sample.length, 15);
    // Beyond the join the fitted tail's own decay, from the sample's share at the join.
    const far = join + 2;
    expect(law.upper(far) / law.upper(join)).toBeCloseTo(tail.upper(far) / tail.upper(join), 12);
    // Monotone through the join.
    expect(law.upper(join - 1e-9)).toBeGreaterThanOrEqual(law.upper(join));
  });

  it("reads a lognormal's side share and its tail nearer than the two-piece t fitted to it", () => {
    // A lognormal of σ 0.5 standardised: P(below the mean) = Φ(0.25) = 0.599, P(> 3 σ) = 0.0136.
    const next = normalGenerator(3109);
    const mean = Math.exp(0.125);
    const sd = Math.sqrt((Math.exp(0.25) - 1) * Math.exp(0.25));
    const sample = Array.from({ length: 2400 }, () => (Math.exp(0.5 * next()) - mean) / sd);
    const shape = { nu: 6, gamma: 1 / 0.55 };
    const law = empiricalPointLaw(sample, shapePointLaw(shape));
    const belowTrue = 1 - normalUpperTail(0.25);
    const aboveTrue = normalUpperTail(Math.log(3 * sd + mean) / 0.5);
    expect(Math.abs(law.lower(0) - belowTrue)).toBeLessThan(
      Math.abs(standardizedTails(shape, 0).lower - belowTrue),
    );
    expect(Math.abs(law.upper(3) - aboveTrue)).toBeLessThan(
      Math.abs(standardizedTails(shape, 3).upper - aboveTrue),
    );
  });

  it("splices from the centre line when the tailCount-th outermost value is not beyond it, and refuses too few values", () => {
    // 90 % of the values at −0.1: the 20th lowest is above −0 only on the upper side's account.
    const sample = [...Array(180).fill(-0.1), ...Array.from({ length: 20 }, (_, i) => 0.5 + i / 10)];
    const law = empiricalPointLaw(sample, NORMAL_POINT_LAW, 30);
    // Upper join at 0: 10 % above the centre line, the normal's decay beyond.
    expect(law.upper(1)).toBeCloseTo((0.1 * normalUpperTail(1)) / 0.5, 15);
    expect(law.lower(0.05)).toBe(0.9);
    expect(() => empiricalPointLaw([1, 2, 3], NORMAL_POINT_LAW, 2)).toThrow(/at least 4/);
    expect(() => empiricalPointLaw([...sample.slice(1), Number.NaN], NORMAL_POINT_LAW, 30)).toThrow(/finite/);
  });
});
