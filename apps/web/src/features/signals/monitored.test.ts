import { describe, expect, it } from "vitest";
import { unmonitoredSignals } from "./monitored";
import { buildStation, fixtureId } from "./signal-tree.fixtures";

const id = (n: number) => fixtureId(4, n);
const G1 = fixtureId(7, 1);
const G2 = fixtureId(7, 2);
// The line's active signals (the tree's query leaves out switched-off ones: id(2) is off).
const stations = [
  buildStation(fixtureId(1, 1), "OP10", [
    { id: id(1), name: "Torque" },
    { id: id(3), name: "Torque USL", entityType: "UPPER_LIMIT" },
    { id: id(5), name: "Angle" },
  ]),
];
const groups = [
  { signalGroupUuid: G1, signalGroupName: "Tightening", signalUuids: [id(1), id(2), id(5)] },
  { signalGroupUuid: G2, signalGroupName: "Limits", signalUuids: [id(3), id(6)] },
];
const filter = (signal_uuids: string[], signal_group_uuids: string[] = []) => ({
  signal_uuids,
  signal_group_uuids,
});

describe("unmonitoredSignals", () => {
  it("names the monitor's listed signals that are switched off, converted or gone", () => {
    expect(unmonitoredSignals(filter([id(1), id(2), id(3), id(4)]), stations, groups)).toEqual({
      listed: [id(2), id(3), id(4)],
      grouped: [],
      isNoneLeft: false,
    });
    expect(unmonitoredSignals(filter([id(1)]), stations, groups).listed).toEqual([]);
  });

  it("counts the members of its signal groups by the worker's rule (active measurements), once each", () => {
    // id(1) listed and in G1 counts once, as listed; id(2) in G1 is off.
    expect(unmonitoredSignals(filter([id(1)], [G1]), stations, groups)).toEqual({
      listed: [],
      grouped: [id(2)],
      isNoneLeft: false,
    });
    // G2: a converted member (id(3), now a limit) and a gone one (id(6)): nothing left to watch.
    expect(unmonitoredSignals(filter([], [G2]), stations, groups)).toEqual({
      listed: [],
      grouped: [id(3), id(6)],
      isNoneLeft: true,
    });
    expect(unmonitoredSignals(filter([id(2)], [G2]), stations, groups).isNoneLeft).toBe(true);
  });

  it("counts no group member before the groups are loaded", () => {
    expect(unmonitoredSignals(filter([id(1)], [G1]), stations, undefined)).toEqual({
      listed: [],
      grouped: [],
      isNoneLeft: false,
    });
  });
});
