import { describe, expect, it } from "vitest";
import { slotsOf } from "./backtest.replay.js";

const t = (minute: number) => new Date(Date.UTC(2026, 10, 20) + minute * 60_000);

describe("slotsOf", () => {
  it("every frequency back from the period's end, after its start, oldest first", () => {
    expect(slotsOf(t(0), t(20), 5)).toEqual([t(5), t(10), t(15), t(20)]);
    expect(slotsOf(t(0), t(22), 5)).toEqual([t(2), t(7), t(12), t(17), t(22)]);
    expect(slotsOf(t(0), t(7 * 24 * 60), 5)).toHaveLength(2016);
    expect(slotsOf(t(10), t(10), 5)).toEqual([]);
  });
});
