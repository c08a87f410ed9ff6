import { describe, expect, it } from "vitest";
import { normalSample } from "../test/random.js";
import { type CapEvaluation, evaluateCap } from "./evaluateCap.js";
import type { NoDataEvaluation } from "./evaluation.js";

function evaluated(result: CapEvaluation | NoDataEvaluation): CapEvaluation {
  if (result.state === "NO_DATA") throw new Error(`expected an evaluation, got NO_DATA: ${result.reason}`);
  return result;
}

// N(10, 0.1²): Ppk against 9.4 / 10.6 is about 2, comfortably capable.
const capable = normalSample(41, 60, 10, 0.1);

describe("evaluateCap", () => {
  it("is OK for a capable process inside its control limits", () => {
    const result = evaluated(evaluateCap(capable, { lsl: 9.4, usl: 10.6, lcl: 9.5, ucl: 10.5 }, "medium"));
    expect(result.state).toBe("OK");
    expect(result.controlViolations).toBe(0);
    expect(result.capability?.ppk).toBeGreaterThan(1.67);
    expect(result.cpkTarget).toBe(1.33);
    expect(result.n).toBe(60);
  });

  it("breaches on a single point outside [LCL, UCL] and lists it", () => {
    const values = Float64Array.from(capable);
    values[17] = 10.55;
    const result = evaluated(evaluateCap(values, { lsl: 9.4, usl: 10.6, lcl: 9.5, ucl: 10.5 }, "high"));
    expect(result.breach).toBe(true);
    expect(result.violationRows).toEqual([17]);
    // A point exactly on a control limit is not a violation.
    values[17] = 10.5;
    expect(evaluated(evaluateCap(values, { lcl: 9.5, ucl: 10.5 }, "high")).controlViolations).toBe(0);
  });

  it("breaches when Ppk falls below the target of the alert threshold", () => {
    // N(10, 0.15²) against ±0.6: Ppk ≈ 1.33 ± sampling noise; check each level against its own target.
    const values = normalSample(42, 200, 10, 0.15);
    for (const level of ["low", "medium", "high"] as const) {
      const result = evaluated(evaluateCap(values, { lsl: 9.4, usl: 10.6 }, level));
      const ppk = result.capability?.ppk as number;
      expect(result.isPpkBelowTarget).toBe(ppk < result.cpkTarget);
      expect(result.breach).toBe(ppk < result.cpkTarget);
    }
    expect(evaluated(evaluateCap(values, { lsl: 9.4, usl: 10.6 }, "low")).breach).toBe(true);
    expect(evaluated(evaluateCap(values, { lsl: 9.4, usl: 10.6 }, "high")).breach).toBe(false);
  });

  it("evaluates one-sided when the signal is single-sided, ignoring the other side's limits", () => {
    const result = evaluated(
      evaluateCap(capable, { lsl: 9.4, usl: 10.01, ucl: 10.0, singleSide: "LOWER" }, "medium"),
    );
    expect(result.usl).toBeNull();
    expect(result.controlViolations).toBe(0);
    expect(result.capability?.cp).toBeNull();
    expect(result.capability?.pp).toBeNull();
    expect(result.capability?.ppk).toBe(result.capability?.ppl);
  });

  it("uses per-record control limits from formulas", () => {
    const values = Float64Array.from({ length: 30 }, (_, i) => i);
    const ucl = Float64Array.from({ length: 30 }, (_, i) => (i === 4 ? 3.5 : i + 1));
    const result = evaluated(evaluateCap(values, { ucl }, "medium"));
    expect(result.violationRows).toEqual([4]);
    expect(result.capability).toBeNull();
    expect(() => evaluateCap(values, { ucl: ucl.subarray(0, 10) }, "medium")).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });

  it("answers NO_DATA when spec limits differ between records", () => {
    const usl = Float64Array.from(capable, (_, i) => (i < 30 ? 10.6 : 10.7));
    expect(evaluateCap(capable, { usl }, "medium")).toMatchObject({
      state: "NO_DATA",
      code: "SPEC_LIMITS_DIFFER",
    });
    // A record without a value for its limit (NaN) does not count as a different limit.
    usl.fill(10.6);
    usl[3] = Number.NaN;
    expect(evaluated(evaluateCap(capable, { usl }, "medium")).usl).toBe(10.6);
  });

  it("answers NO_DATA with fewer than 25 values", () => {
    const values = [...capable.subarray(0, 25)];
    expect(evaluateCap(values, { usl: 11 }, "medium").state).toBe("OK");
    values[0] = Number.NaN;
    expect(evaluateCap(values, { usl: 11 }, "medium")).toMatchObject({
      state: "NO_DATA",
      code: "EVALUATION_TOO_SMALL",
    });
  });

  it("treats a constant signal as NO_DATA inside its limits but as a breach outside them", () => {
    const constant = new Float64Array(30).fill(5);
    expect(evaluateCap(constant, { lsl: 4, usl: 6 }, "medium")).toEqual({
      state: "NO_DATA",
      code: "CONSTANT_SIGNAL",
      reason: "constant signal",
    });
    const outside = evaluated(evaluateCap(constant, { lsl: 6, usl: 8 }, "medium"));
    expect(outside.breach).toBe(true);
    expect(outside.capability).toBeNull();
    expect(evaluated(evaluateCap(constant, { ucl: 4.9 }, "medium")).controlViolations).toBe(30);
  });
});
