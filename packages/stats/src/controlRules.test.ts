import { describe, expect, it } from "vitest";
import { capHeld } from "../test/capHeldVectors.js";
import { expectRelativelyClose } from "../test/referenceVectors.js";
import { binomialUpperTail } from "./binomialUpperTail.js";
import { limitReader } from "./capLimits.js";
import { controlRuleHits, controlTest, judgeControlRules } from "./controlRules.js";
import { normalUpperTail } from "./distributions.js";

// Control limits 0 and 6: centre 3, σ 1 (zones: beyond 2 σ = above 5 or below 1; beyond 1 σ = above 4).
const limits = { lcl: 0, ucl: 6 };
const rulesAt = (values: number[], l: Parameters<typeof controlRuleHits>[1] = limits) =>
  controlRuleHits(values, l).map((h) => [h.rule, h.row]);

describe("controlRuleHits (Western Electric rules 1–4 over a whole series), hand-checked", () => {
  it("rule 1: a point outside LCL/UCL", () => {
    expect(rulesAt([3, 7, 3, -1])).toEqual([
      [1, 1],
      [1, 3],
    ]);
  });
  it("rule 2: 2 of 3 beyond 2 σ on one side, at the point that completes it", () => {
    // rows 1 and 3 at 5.5 (2.5 σ): the window 1..3 holds two; the window of row 1 is incomplete.
    expect(rulesAt([3, 5.5, 3, 5.5])).toEqual([[2, 3]]);
    // one above and one below is no run.
    expect(rulesAt([3, 5.5, 3, 0.5])).toEqual([]);
  });
  it("rule 3: 4 of 5 beyond 1 σ on one side", () => {
    expect(rulesAt([3, 4.5, 4.5, 4.5, 4.5])).toEqual([[3, 4]]);
    expect(rulesAt([3, 4.5, 4.5, 3.5, 4.5])).toEqual([]);
  });
  it("rule 4: 8 in a row on one side of the centre line", () => {
    expect(rulesAt([3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5])).toEqual([
      [4, 7],
      [4, 8],
    ]);
    expect(rulesAt([3.5, 3.5, 3.5, 3.5, 2.5, 3.5, 3.5, 3.5])).toEqual([]);
  });
  it("judges each point against its own limits and skips missing values", () => {
    // row 2's limits are 0..2 (centre 1): 3 is above its UCL; the NaN joins rows 0 and 2.
    expect(rulesAt([3, Number.NaN, 3], { lcl: [0, 0, 0], ucl: [6, 6, 2] })).toEqual([[1, 2]]);
  });
  it("without both control limits only rule 1 on the one that exists", () => {
    expect(rulesAt([3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 7], { lcl: null, ucl: 6 })).toEqual([[1, 8]]);
  });
  it("applies only the rules turned on", () => {
    const run = [3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5, 3.5];
    expect(controlRuleHits(run, limits, { rule2: true })).toEqual([]);
  });
});

describe("controlTest (p_control: a signal at least as extreme among the judged points)", () => {
  const nan = (xs: (number | null)[]) => xs.map((x) => (x === null ? Number.NaN : x));
  it.each(capHeld.controlPValue.map((c) => [c.kind, c] as const))("matches the reference: %s", (_, c) => {
    const values = nan(c.values);
    const lclAt = limitReader(nan(c.lcl), values.length, "LCL");
    const uclAt = limitReader(nan(c.ucl), values.length, "UCL");
    const kept: number[] = [];
    const rows: number[] = [];
    values.forEach((v, i) => {
      if (Number.isFinite(v)) {
        kept.push(v);
        rows.push(i);
      }
    });
    const hits = judgeControlRules(kept, rows, lclAt, uclAt, c.firstNewIndex, c.runRules);
    expect(hits.map((h) => [h.rule, h.row])).toEqual(c.expected.hits);
    const t = controlTest(kept, rows, lclAt, uclAt, c.firstNewIndex, c.runRules, hits);
    expect(t.testedCount).toBe(c.expected.testedCount);
    expect(t.isOneSided).toBe(c.expected.isOneSided);
    expect(t.extreme?.rule ?? null).toBe(c.expected.rule);
    if (c.expected.tail === null) expect(t.extreme).toBeNull();
    else expectRelativelyClose(t.extreme?.tail ?? Number.NaN, c.expected.tail, 1e-12);
    expectRelativelyClose(t.pValue, c.expected.pValue, 1e-9);
  });

  it("with rule 1 alone is Šidák on the most extreme judged point", () => {
    // Limits 0 and 6: σ 1, centre 3. Five new points, the most extreme at 4.5 σ (7.5).
    const values = [3, 3.2, 2.9, 7.5, 6.4, 3.1, 2.8];
    const rows = values.map((_, i) => i);
    const at = (v: number) => () => v;
    const hits = judgeControlRules(values, rows, at(0), at(6), 2, {});
    expect(hits.map((h) => h.row)).toEqual([3, 4]);
    const t = controlTest(values, rows, at(0), at(6), 2, {}, hits);
    const u = 2 * normalUpperTail(4.5);
    expect(t.testedCount).toBe(5);
    expectRelativelyClose(t.pValue, 1 - (1 - u) ** 5, 1e-9);
  });

  it("grades a longer rule-4 run as more extreme than a run of 8", () => {
    const at = (v: number) => () => v;
    const run = (length: number) => [
      ...Array.from({ length: 20 - length }, (_, i) => (i % 2 ? 2.5 : 3.5)),
      ...Array(length).fill(3.4),
    ];
    const p = (length: number) => {
      const values = run(length);
      const rows = values.map((_, i) => i);
      const hits = judgeControlRules(values, rows, at(0), at(6), 15, { rule4: true });
      return controlTest(values, rows, at(0), at(6), 15, { rule4: true }, hits).pValue;
    };
    expect(p(16)).toBeLessThan(p(12));
    expect(p(12)).toBeLessThan(p(8));
    // A run of 16 among 5 judged: about 5 × 2 · 2^−16 plus rule 1 beyond 4.1 σ.
    expect(p(16)).toBeLessThan(5e-4);
  });

  it("without a signal p_control is 1; a one-sided limit counts the points beyond it", () => {
    const at = (v: number) => () => v;
    const none = () => null;
    const values = [1, 2, 7, 3, 8, 2];
    const rows = values.map((_, i) => i);
    const hits = judgeControlRules(values, rows, none, at(6), 0, {});
    const t = controlTest(values, rows, none, at(6), 0, {}, hits);
    expect(t.isOneSided).toBe(true);
    expectRelativelyClose(t.pValue, binomialUpperTail(6, normalUpperTail(3), 2), 1e-12);
    expect(controlTest([1, 2, 3], [0, 1, 2], at(0), at(6), 0, {}, []).pValue).toBe(1);
  });
});
