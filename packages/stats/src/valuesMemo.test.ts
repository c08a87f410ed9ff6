import { describe, expect, it } from "vitest";
import { valuesMemo } from "./valuesMemo.js";

describe("valuesMemo", () => {
  it("answers the same values and key from memory, and anything else anew", () => {
    const memo = valuesMemo<{ sum: number }>(2);
    let computed = 0;
    const sum = (values: number[], key = "") =>
      memo(values, key, () => {
        computed++;
        return { sum: values.reduce((a, b) => a + b, 0) };
      });
    const first = sum([1, 2, 3]);
    expect(sum([1, 2, 3])).toBe(first);
    expect(computed).toBe(1);
    // One value different, another length, another key: each computed.
    expect(sum([1, 2, 4]).sum).toBe(7);
    expect(sum([1, 2]).sum).toBe(3);
    expect(sum([1, 2, 3], "limits").sum).toBe(6);
    expect(computed).toBe(4);
    // NaN matches NaN (a missing value stays missing).
    sum([Number.NaN, 1]);
    sum([Number.NaN, 1]);
    expect(computed).toBe(5);
  });

  it("keeps the newest entries up to its capacity", () => {
    const memo = valuesMemo<number>(2);
    let computed = 0;
    const f = (v: number) =>
      memo([v], "", () => {
        computed++;
        return v;
      });
    f(1);
    f(2);
    f(1); // 1 is the newest again
    f(3); // 2 leaves
    expect(computed).toBe(3);
    f(1);
    expect(computed).toBe(3);
    f(2);
    expect(computed).toBe(4);
  });

  it("does not keep a reference to the caller's array, so changing it later does not change what matches", () => {
    const memo = valuesMemo<string>(2);
    const values = [1, 2, 3];
    memo(values, "", () => "first");
    values[0] = 9;
    expect(memo(values, "", () => "second")).toBe("second");
    expect(memo([1, 2, 3], "", () => "third")).toBe("first");
  });
});
