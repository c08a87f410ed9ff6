import { describe, expect, it } from "vitest";
import { assertFinite, StatsError } from "./statsError.js";

describe("StatsError", () => {
  it("carries a code and a message and is an Error", () => {
    const error = new StatsError("EMPTY_INPUT", "nothing to do");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("StatsError");
    expect(error.code).toBe("EMPTY_INPUT");
    expect(error.message).toBe("nothing to do");
  });

  it("assertFinite names the input and the first bad index", () => {
    expect(() => assertFinite([1, 2, 3], "x")).not.toThrow();
    expect(() => assertFinite([1, Number.NEGATIVE_INFINITY, Number.NaN], "torque")).toThrow(
      "torque has a non-finite value (-Infinity) at index 1",
    );
  });
});
