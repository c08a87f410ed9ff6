import { RULE_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import {
  type AlertRule,
  type EvaluationPoint,
  firingRule,
  ruleErrors,
  ruleNeverFiresWarning,
  runsNeeded,
  secondsNeeded,
} from "./alerts.rules.js";

const STATE = { B: "BREACH", O: "OK", N: "NO_DATA", E: "ERROR" } as const;
const T0 = Date.parse("2026-03-01T00:00:00Z");

/** "OBBNB" → one evaluation per letter, `everyMin` minutes apart, newest last. */
function seq(s: string, everyMin = 15): EvaluationPoint[] {
  return [...s].map((c, i) => ({
    state: STATE[c as keyof typeof STATE],
    evaluatedAt: new Date(T0 + i * everyMin * 60_000),
  }));
}

const consecutive = (n: number, active = true): AlertRule => ({
  type: "Consecutive",
  active,
  breaches: n,
  runs: null,
  seconds: null,
});
const runs = (k: number, n: number, active = true): AlertRule => ({
  type: "ExceedanceRuns",
  active,
  breaches: k,
  runs: n,
  seconds: null,
});
const time = (k: number, seconds: number, active = true): AlertRule => ({
  type: "ExceedanceTime",
  active,
  breaches: k,
  runs: null,
  seconds,
});

describe("firingRule: no rule enabled", () => {
  it.each([
    ["B", "breach"],
    ["OOOB", "breach"],
    ["NNB", "breach"],
    ["BBBO", null],
    ["BN", null],
    ["BE", null],
    ["", null],
  ])("%s → %s", (s, expected) => {
    expect(firingRule([], seq(s))).toBe(expected);
    // Disabled rules are the same as none.
    expect(firingRule([consecutive(5, false), runs(3, 4, false), time(9, 60, false)], seq(s))).toBe(expected);
  });
});

describe("firingRule: Consecutive(N)", () => {
  it.each([
    [1, "B", true],
    [1, "OB", true],
    [1, "BO", false],
    [2, "B", false],
    [2, "BB", true],
    [2, "OB", false],
    [2, "BOB", false],
    [3, "BBB", true],
    [3, "OBBB", true],
    [3, "BBOB", false],
    [3, "BBBO", false],
    // NO_DATA neither breaks nor extends a streak.
    [3, "BNBNB", true],
    [3, "BBNNNNB", true],
    [3, "BNB", false],
    [3, "NNNBB", false],
    [3, "BBBN", false],
    // ERROR is skipped like NO_DATA.
    [3, "BEBEB", true],
    [3, "BBEB", true],
    [3, "BOEBB", false],
    [2, "OENB", false],
    [2, "BENB", true],
  ])("N=%i %s → %s", (n, s, fires) => {
    expect(firingRule([consecutive(n)], seq(s))).toBe(fires ? "Consecutive" : null);
  });
});

describe("firingRule: ExceedanceRuns(k of n)", () => {
  it.each([
    [1, 1, "B", true],
    [1, 1, "BO", false],
    [2, 3, "BOB", true],
    [2, 3, "BOOB", false],
    [2, 3, "OBB", true],
    [3, 5, "BOBOB", true],
    [3, 5, "BOOBOB", false],
    [3, 5, "BBOOOB", false],
    [3, 5, "BBOOB", true],
    // Fewer than n evaluations so far: k breaches among them still fire.
    [2, 5, "BB", true],
    [3, 5, "BB", false],
    // NO_DATA gaps do not take a place among the last n.
    [3, 5, "BNNNNNNBONB", true],
    [3, 5, "BNNNNNNOONB", false],
    [3, 5, "BNONONONB", false],
    [2, 3, "BNNNNNNNNNB", true],
    [2, 2, "BNO", false],
    // ERROR likewise.
    [2, 3, "BEEEEB", true],
    [2, 3, "BOEOB", false],
    // The newest must be a breach.
    [2, 3, "BBO", false],
    [2, 3, "BBN", false],
    [7, 15, "BBBBBBOOOOOOOOB", true],
    [7, 15, "BBBBBBOOOOOOOOOB", false],
  ])("%i of %i %s → %s", (k, n, s, fires) => {
    expect(firingRule([runs(k, n)], seq(s))).toBe(fires ? "ExceedanceRuns" : null);
  });
});

describe("firingRule: ExceedanceTime(k in T s), evaluations 15 min apart", () => {
  it.each([
    [1, 900, "B", true],
    [2, 900, "BB", true], // 15 min apart: both inside [t − 900 s, t]
    [2, 899, "BB", false],
    [3, 1800, "BBB", true],
    [3, 1800, "BOBB", false], // the first breach is 45 min back
    [3, 2700, "BOBB", true],
    [2, 1800, "BOB", true],
    [2, 1800, "BOOB", false],
    // NO_DATA does not stretch or shrink the window: time is time.
    [2, 1800, "BNB", true],
    [2, 1800, "BNNB", false],
    [2, 3600, "BNNNB", true],
    // ERROR likewise counts as no breach.
    [2, 1800, "BEB", true],
    [2, 1800, "EEB", false],
    [2, 1800, "BBO", false],
  ])("%i in %i s %s → %s", (k, seconds, s, fires) => {
    expect(firingRule([time(k, seconds)], seq(s))).toBe(fires ? "ExceedanceTime" : null);
  });

  it("uses the evaluations' times, not their positions", () => {
    const history: EvaluationPoint[] = [
      { state: "BREACH", evaluatedAt: new Date(T0) },
      { state: "BREACH", evaluatedAt: new Date(T0 + 3_600_000) },
    ];
    expect(firingRule([time(2, 3600)], history)).toBe("ExceedanceTime");
    expect(firingRule([time(2, 3599)], history)).toBeNull();
  });
});

describe("firingRule: enabled rules combine with OR", () => {
  const all = [consecutive(3), runs(3, 5), time(2, 900)];
  it.each([
    ["B", null],
    ["BB", "ExceedanceTime"],
    ["BOB", null], // 30 min apart: outside the 15 min window; only 2 of 5
    ["BOBOB", "ExceedanceRuns"],
    ["BBB", "Consecutive"], // the first in rule order is reported
    ["OOOOO", null],
    ["BNNOB", null],
    ["BNB", null], // 30 min apart
  ])("%s → %s", (s, expected) => {
    expect(firingRule(all, seq(s))).toBe(expected);
  });

  it("fires when any one enabled rule holds, ignoring disabled ones", () => {
    expect(firingRule([consecutive(1, false), runs(5, 5)], seq("B"))).toBeNull();
    expect(firingRule([consecutive(1), runs(5, 5)], seq("B"))).toBe("Consecutive");
    expect(firingRule([consecutive(9), runs(1, 5, false), time(1, 60)], seq("B"))).toBe("ExceedanceTime");
  });

  it("an invalid enabled rule never fires (breaches above runs, missing values)", () => {
    expect(firingRule([runs(5, 3)], seq("BBBBB"))).toBeNull();
    expect(firingRule([{ ...consecutive(1), breaches: null }], seq("B"))).toBeNull();
    expect(firingRule([{ ...time(1, 900), seconds: null }], seq("B"))).toBeNull();
  });
});

describe("ruleErrors (requirements.md monitor-forms §5)", () => {
  const M = RULE_MESSAGES;
  it.each<[AlertRule, string[]]>([
    [runs(7, 15), []],
    [runs(15, 15), []],
    [runs(16, 15), [M.breachesExceedRuns]],
    [runs(0, 15), [M.breachesMin]],
    [runs(1, 1000), [M.runsMax]],
    [{ ...runs(1, 1), runs: null }, [M.runsRequired]],
    [{ ...runs(1, 1), breaches: null }, [M.breachesRequired]],
    [runs(1000, 0), [M.breachesMax, M.runsMin]],
    [consecutive(0), [M.consecutiveMin]],
    [consecutive(1000), [M.consecutiveMax]],
    [consecutive(999), []],
    [time(7, 900), []],
    [time(7, 59), [M.timeMin]],
    [time(7, 86_401), [M.timeMax]],
    [{ ...time(7, 900), seconds: null }, [M.timeRequired]],
    [time(0, 60), [M.breachesMin]],
    [time(1.5, 60), [M.breachesMin]],
    // Only enabled rules are checked.
    [runs(16, 15, false), []],
  ])("%o → %o", (rule, messages) => {
    expect(ruleErrors(rule).map((e) => e.message)).toEqual(messages);
  });
});

describe("ruleNeverFiresWarning", () => {
  it.each([
    // k × f × 60 > T + f × 60
    [7, 900, 15, true], // 6300 > 1800
    [2, 900, 15, false], // 1800 > 1800 is false: two breaches 15 min apart fit
    [3, 900, 15, true],
    [7, 5400, 15, false], // 6300 > 6300 false
    [7, 5399, 15, true],
    [1, 60, 1440, false], // one breach always fits
    [5, 1200, 5, false],
  ])("%i breaches in %i s every %i min → %s", (k, seconds, freq, warns) => {
    const w = ruleNeverFiresWarning(time(k, seconds), freq);
    if (warns) expect(w).toBe(RULE_MESSAGES.timeRuleNeverFires(k, freq, seconds));
    else expect(w).toBeNull();
  });

  it("says why, in minutes", () => {
    expect(ruleNeverFiresWarning(time(7, 900), 15)).toBe(
      "This rule can never fire: 7 breaches at one evaluation every 15 min span 90 min, longer than its 15 min window",
    );
  });

  it("matches firingRule: a warned rule cannot fire even with every evaluation breached", () => {
    for (const [k, seconds, freq] of [
      [3, 900, 15],
      [7, 5399, 15],
      [2, 299, 5],
    ] as const) {
      expect(ruleNeverFiresWarning(time(k, seconds), freq)).not.toBeNull();
      expect(firingRule([time(k, seconds)], seq("B".repeat(50), freq))).toBeNull();
    }
    expect(firingRule([time(7, 5400)], seq("B".repeat(7), 15))).toBe("ExceedanceTime");
  });

  it("is null for other rule types", () => {
    expect(ruleNeverFiresWarning(runs(7, 15), 15)).toBeNull();
    expect(ruleNeverFiresWarning(consecutive(900), 1440)).toBeNull();
  });
});

describe("history needed", () => {
  it("counts the longest lookback of the enabled rules", () => {
    expect(runsNeeded([])).toBe(1);
    expect(runsNeeded([consecutive(4), runs(7, 15), runs(1, 99, false)])).toBe(15);
    expect(secondsNeeded([time(2, 900), time(1, 9999, false)])).toBe(900);
    expect(secondsNeeded([consecutive(3)])).toBe(0);
  });
});
