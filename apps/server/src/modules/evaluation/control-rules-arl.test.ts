// The ARL₀ the Cap Alerts page states (contracts CONTROL_RULES_ARL0) is the one packages/stats
// computes for the rules the worker judges: one test holds the two together.
import { CONTROL_RULES_ARL_TEXTS, CONTROL_RULES_ARL0, RUN_RULES, type TRunRule } from "@linewatch/contracts";
import { controlRulesArl, westernElectricSet } from "@linewatch/stats";
import { describe, expect, it } from "vitest";

/** Every subset of the run rules, each in order ([], [2], [3], [2, 3], …). */
function subsets(rules: readonly TRunRule[]): TRunRule[][] {
  const all: TRunRule[][] = [[]];
  for (const r of rules) for (const s of all.slice()) all.push([...s, r]);
  return all;
}

describe("control rules' ARL₀ (contracts table = stats chain)", () => {
  it.each(subsets(RUN_RULES).map((s) => [s.join(",") || "none", s] as const))(
    "rule 1 with run rules %s",
    (_, rules) => {
      const set = westernElectricSet({
        rule2: rules.includes(2),
        rule3: rules.includes(3),
        rule4: rules.includes(4),
      });
      expect(CONTROL_RULES_ARL0[rules.join(",")]).toBeCloseTo(controlRulesArl(set), 2);
    },
  );
  it("words rules 1–4 as the issue asks", () => {
    expect(CONTROL_RULES_ARL_TEXTS.perPoint([4, 2, 3])).toBe(
      "In control, these rules signal about once in 92 points (ARL₀ 92)",
    );
    expect(CONTROL_RULES_ARL_TEXTS.perPoint([])).toBe(
      "In control, rule 1 signals about once in 370 points (ARL₀ 370)",
    );
  });
});
