import { parseStoredMonitorFilter } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import type { Window, WindowRecord } from "../evaluation/evaluate.js";
import { createReplay, type ReplayMonitor, replayMonitor, slotsOf } from "./backtest.replay.js";

const t = (minute: number) => new Date(Date.UTC(2026, 10, 20) + minute * 60_000);

describe("slotsOf", () => {
  it("every frequency back from the period's end, after its start, oldest first", () => {
    expect(slotsOf(t(0), t(20), 5)).toEqual([t(5), t(10), t(15), t(20)]);
    expect(slotsOf(t(0), t(22), 5)).toEqual([t(2), t(7), t(12), t(17), t(22)]);
    expect(slotsOf(t(0), t(7 * 24 * 60), 5)).toHaveLength(2016);
    expect(slotsOf(t(10), t(10), 5)).toEqual([]);
  });
});

describe("createReplay (issue 31 §4: the records fed in chunks as they are read)", () => {
  // Two parts a minute, both at the minute's start, so records share their time with each other
  // and with the slots (every 5 minutes); a shift after minute 300 makes breaches and alerts.
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const records: WindowRecord[] = Array.from({ length: 5_000 }, (_, i) => {
    const minute = Math.floor(i / 2);
    return {
      ts: t(minute),
      partId: `P-${String(i).padStart(5, "0")}`,
      modelNumber: null,
      values: [10 + rand() + (minute > 300 && minute < 420 ? 2 : 0)],
    };
  });
  const window: Window = {
    signals: [{ id: "s-1", name: "Torque", stationId: "st-1", singleSide: null }],
    references: [],
    records,
  };
  const monitor: ReplayMonitor = {
    type: "svd",
    alertThreshold: "medium",
    filter: parseStoredMonitorFilter({ signal_uuids: ["s-1"], sample_size: 60, evaluation_ratio: 0.25 }),
    frequency: 5,
    rules: [],
  };
  // 5,000 records: the replay drops the ones behind every window a block at a time.
  const slots = slotsOf(t(30), t(2_500), 5);

  it("gives what one read gives, whatever the chunks, records of a slot's time split between two included", () => {
    const whole = replayMonitor(monitor, window, slots);
    expect(whole.slots.some((s) => s.result.state === "BREACH")).toBe(true);
    expect(whole.alerts.length).toBeGreaterThan(0);
    for (const size of [1, 7, 64, 5_000]) {
      const done: number[] = [];
      const replay = createReplay(monitor, window, slots, (n) => done.push(n));
      for (let k = 0; k < records.length; k += size) replay.push(records.slice(k, k + size));
      expect(replay.finish()).toEqual(whole);
      expect(done).toEqual(slots.map((_, i) => i + 1));
    }
    // Uneven chunks, each ending on a record of a slot's own time (the other one of that minute comes next).
    const replay = createReplay(monitor, window, slots);
    let k = 0;
    while (k < records.length) {
      const size = 1 + Math.floor(rand() * 40);
      replay.push(records.slice(k, k + size));
      k += size;
    }
    expect(replay.finish()).toEqual(whole);
  });

  it("evaluates a slot only once a later record has arrived, or at the end", () => {
    const evaluated: Date[] = [];
    const replay = createReplay(monitor, window, slots, (_, slot) => evaluated.push(slot));
    // Up to the first record of minute 40 (a slot): the slot at minute 35 is complete, 40 is not.
    const upTo = records.findIndex((r) => r.ts.getTime() === t(40).getTime());
    replay.push(records.slice(0, upTo + 1));
    expect(evaluated).toEqual([t(35)]);
    replay.push(records.slice(upTo + 1, upTo + 2));
    expect(evaluated).toEqual([t(35)]);
    replay.push(records.slice(upTo + 2, upTo + 3));
    expect(evaluated).toEqual([t(35), t(40)]);
    const result = replay.finish();
    expect(result.slots).toHaveLength(slots.length);
  });
});
