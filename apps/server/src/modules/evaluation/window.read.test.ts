import { describe, expect, it, vi } from "vitest";
import type { Cell } from "./window.plan.js";
import { recordsOfRows } from "./window.read.js";

const cell = (stationId: string, slot: number): Cell => ({ stationId, storage: "num", slot });

describe("recordsOfRows", () => {
  // Slots 0, 2 and 3 of station a are one run (a slice), slot 1 of station b a run of its own.
  const columns = [cell("a", 3), cell("b", 1), cell("a", 0), cell("a", 2)];

  it("reads slices as PostgreSQL's text or as arrays, NULLs and missing elements as NaN", async () => {
    const rows = [
      // newest first, as a window of the newest records is read
      ["1764230400.5", "P-2", null, [10, null, 12], "7"],
      ["1764230400", "P-1", "M-1", "{1.5,NULL,3,-4e-05}", null],
      ["1764230399", "P-0", "M-1", "{5}", "8"],
      ["1764230398", "P--1", null, null, "9"],
    ];
    const records = await recordsOfRows(rows, columns, false);
    expect(records.map((r) => r.partId)).toEqual(["P--1", "P-0", "P-1", "P-2"]);
    expect(records.map((r) => r.values)).toEqual([
      [Number.NaN, 9, Number.NaN, Number.NaN],
      [Number.NaN, 8, 5, Number.NaN],
      [-4e-5, Number.NaN, 1.5, 3],
      [Number.NaN, 7, 10, 12],
    ]);
    expect(records[3]?.ts.getTime()).toBe(1764230400500);
    expect(records[3]?.modelNumber).toBeNull();
  });

  it("gives the event loop a turn while it converts (a window of 10⁷ values takes seconds)", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => [String(i), `P-${i}`, null, "{1,2,3,4}", "5"]);
    const turned = async (yieldEveryMs: number) => {
      let ran = false;
      setImmediate(() => {
        ran = true;
      });
      await recordsOfRows(rows, columns, true, yieldEveryMs);
      return ran;
    };
    expect(await turned(Number.POSITIVE_INFINITY)).toBe(false);
    expect(await turned(0)).toBe(true);
  });

  it("conversions running together share the turns: one slice a turn, not one each", async () => {
    // A clock that moves 1 ms each time it is read: each row of each conversion reads it once.
    let now = performance.now() + 1_000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => ++now);
    try {
      const rows = Array.from({ length: 30 }, (_, i) => [String(i), `P-${i}`, null, "{1,2,3,4}", "5"]);
      let turns = 0;
      let counting = true;
      const count = () =>
        setImmediate(() => {
          turns++;
          if (counting) count();
        });
      count();
      // Slices of 3 ms: 3 or 4 rows a turn in all (the turn reads the clock too), so 90 rows take
      // over 20 turns; a slice each would be 9 to 12 rows a turn, about 10 turns.
      await Promise.all([
        recordsOfRows(rows, columns, true, 3),
        recordsOfRows(rows, columns, true, 3),
        recordsOfRows(rows, columns, true, 3),
      ]);
      counting = false;
      expect(turns).toBeGreaterThanOrEqual(18);
    } finally {
      clock.mockRestore();
    }
  });
});
