import { describe, expect, it } from "vitest";
import { capHeld } from "../test/capHeldVectors.js";
import { normalGenerator } from "../test/random.js";
import { expectRelativelyClose } from "../test/referenceVectors.js";
import { judgeControlRules, RULE2_POINT_TAIL, RULE3_POINT_TAIL } from "./controlRules.js";
import {
  controlRulesArl,
  controlSignalChance,
  controlSignalRate,
  westernElectricSet,
} from "./controlSignalChain.js";
import { normalUpperTail } from "./distributions.js";

const SETS = [
  [{}, 370.4],
  [{ rule2: true }, 225.44],
  [{ rule3: true }, 166.05],
  [{ rule4: true }, 152.73],
  [{ rule2: true, rule3: true }, 132.89],
  [{ rule2: true, rule4: true }, 122.05],
  [{ rule3: true, rule4: true }, 105.78],
  [{ rule2: true, rule3: true, rule4: true }, 91.75],
] as const;

describe("controlRulesArl (Western Electric rules as a Markov chain)", () => {
  it.each(SETS.map(([rules, arl]) => [JSON.stringify(rules), rules, arl] as const))(
    "gives Champ & Woodall's ARL₀ for rules 1 + %s",
    (_, rules, arl) => {
      expect(controlRulesArl(westernElectricSet(rules))).toBeCloseTo(arl, 1);
    },
  );
  it.each(capHeld.controlRulesArl.map((c) => [JSON.stringify(c.rules), c] as const))(
    "matches the NumPy chain (sparse (I − Q)⁻¹ 1) for rules 1 + %s",
    (_, c) => {
      expectRelativelyClose(controlRulesArl(westernElectricSet(c.rules)), c.expected, 1e-9);
    },
  );
});

describe("controlSignalChance", () => {
  it.each(capHeld.controlSignalChance.map((c, i) => [i, c] as const))(
    "matches the NumPy chain on vector %i",
    (_, c) => {
      const set = { ...c.set, rule1Z: c.set.rule1Z ?? Number.POSITIVE_INFINITY };
      expectRelativelyClose(controlSignalChance(c.count, set, c.history), c.expected, 1e-9);
    },
  );
  it("is Šidák for rule 1 alone: 1 − (1 − 2Φ(−z))^k", () => {
    const set = { rule1Z: 4, rule2: false, rule3: false, runLength: null };
    const u = 2 * normalUpperTail(4);
    expectRelativelyClose(controlSignalChance(600, set), 1 - (1 - u) ** 600, 1e-12);
  });
  it("gives each run rule's tail as its per-point rate with rule 1 out of reach", () => {
    const far = Number.POSITIVE_INFINITY;
    expectRelativelyClose(
      controlSignalRate({ rule1Z: far, rule2: true, rule3: false, runLength: null }),
      RULE2_POINT_TAIL,
      1e-12,
    );
    expectRelativelyClose(
      controlSignalRate({ rule1Z: far, rule2: false, rule3: true, runLength: null }),
      RULE3_POINT_TAIL,
      1e-12,
    );
    expectRelativelyClose(
      controlSignalRate({ rule1Z: far, rule2: false, rule3: false, runLength: 8 }),
      2 ** -7,
      1e-12,
    );
    expectRelativelyClose(RULE2_POINT_TAIL, capHeld.controlTails.rule2, 1e-12);
    expectRelativelyClose(RULE3_POINT_TAIL, capHeld.controlTails.rule3, 1e-12);
  });
  it("decays geometrically once the hazard settles (what the long counts extrapolate)", () => {
    const set = westernElectricSet({ rule2: true, rule3: true, rule4: true });
    const survive = (k: number) => 1 - controlSignalChance(k, set);
    expectRelativelyClose(survive(500) / survive(400), survive(300) / survive(200), 1e-8);
    // Signals cluster on a running chart: per point 1/60.8 against one in 91.75 from a fresh chart.
    expect(1 / controlSignalRate(set)).toBeCloseTo(60.765, 2);
  });
  it("agrees with the judge on simulated in-control points (seeded: chain vs controlRules)", () => {
    // 4,000 series of 8 history points and 10 judged ones against limits at ±3: the share with
    // a signal of rules 1–4 among the judged points. Binomial standard error about 0.005.
    const next = normalGenerator(29);
    const rules = { rule2: true, rule3: true, rule4: true };
    const rows = Array.from({ length: 18 }, (_, i) => i);
    const at = (v: number) => () => v;
    let signalled = 0;
    const windows = 4000;
    for (let w = 0; w < windows; w++) {
      const values = rows.map(() => next());
      if (judgeControlRules(values, rows, at(-3), at(3), 8, rules).length > 0) signalled++;
    }
    const expected = controlSignalChance(10, westernElectricSet(rules));
    expect(Math.abs(signalled / windows - expected)).toBeLessThan(
      4 * Math.sqrt((expected * (1 - expected)) / windows),
    );
  });
});
