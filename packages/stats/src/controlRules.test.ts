import { describe, expect, it } from "vitest";
import { controlRuleHits } from "./controlRules.js";

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
