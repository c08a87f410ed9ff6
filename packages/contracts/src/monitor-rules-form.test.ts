import { describe, expect, it } from "vitest";
import { DEFAULT_MONITOR_RULES, RULE_MESSAGES } from "./monitor-rules.js";
import {
  DEFAULT_RULE_FORM,
  parseRuleInput,
  ruleFormErrors,
  ruleFormFromRules,
  rulesFromRuleForm,
} from "./monitor-rules-form.js";

describe("alert rules form (requirements.md monitor-forms §3, §5, §9)", () => {
  it("starts with the spec's defaults, all off, and maps to and from the rules API", () => {
    expect(DEFAULT_RULE_FORM).toMatchObject({
      breachesForRuns: 7,
      runs: 15,
      breachesForTime: 7,
      seconds: 900,
    });
    expect(ruleFormFromRules(DEFAULT_MONITOR_RULES)).toEqual(DEFAULT_RULE_FORM);
    const f = { ...DEFAULT_RULE_FORM, timeEnabled: true, seconds: 1200 };
    expect(ruleFormFromRules(rulesFromRuleForm(f))).toEqual(f);
  });

  it("accepts digits only", () => {
    expect(parseRuleInput("1a2")).toBe(12);
    expect(parseRuleInput("-3")).toBe(3);
    expect(parseRuleInput("")).toBeNull();
  });

  it("reports errors only for enabled rules, with the spec's messages", () => {
    const bad = {
      ...DEFAULT_RULE_FORM,
      runs: 0,
      breachesForRuns: null,
      seconds: 30,
      consecutiveBreaches: 1000,
    };
    expect(ruleFormErrors(bad)).toEqual({});
    expect(ruleFormErrors({ ...bad, runsEnabled: true })).toEqual({
      runs: RULE_MESSAGES.runsMin,
      breachesForRuns: RULE_MESSAGES.breachesRequired,
    });
    expect(ruleFormErrors({ ...bad, timeEnabled: true }).seconds).toBe(RULE_MESSAGES.timeMin);
    expect(ruleFormErrors({ ...bad, consecutiveEnabled: true }).consecutiveBreaches).toBe(
      RULE_MESSAGES.consecutiveMax,
    );
    expect(
      ruleFormErrors({ ...DEFAULT_RULE_FORM, runsEnabled: true, runs: 5, breachesForRuns: 6 })
        .breachesForRuns,
    ).toBe(RULE_MESSAGES.breachesExceedRuns);
  });
});
