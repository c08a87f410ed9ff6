import { describe, expect, it } from "vitest";
import { finiteValues, noData } from "./evaluation.js";

describe("evaluation helpers", () => {
  it("noData builds the NO_DATA answer", () => {
    expect(noData("CONSTANT_SIGNAL", "constant signal")).toEqual({
      state: "NO_DATA",
      code: "CONSTANT_SIGNAL",
      reason: "constant signal",
    });
  });

  it("finiteValues keeps finite values in order and lists the others", () => {
    const { values, leftOut } = finiteValues([1, Number.NaN, 2, Number.POSITIVE_INFINITY, 3]);
    expect(Array.from(values)).toEqual([1, 2, 3]);
    expect(leftOut).toEqual([1, 3]);
  });
});
