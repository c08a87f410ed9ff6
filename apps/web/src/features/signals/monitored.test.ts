import { describe, expect, it } from "vitest";
import { unmonitoredSignalIds } from "./monitored";
import { buildStation, fixtureId } from "./signal-tree.fixtures";

describe("unmonitoredSignalIds", () => {
  it("names the monitor's signals that are switched off, converted or gone", () => {
    const id = (n: number) => fixtureId(4, n);
    const stations = [
      buildStation(fixtureId(1, 1), "OP10", [
        { id: id(1), name: "Torque" },
        { id: id(2), name: "Angle", isSignalActive: false },
        { id: id(3), name: "Torque USL", entityType: "UPPER_LIMIT" },
      ]),
    ];
    expect(unmonitoredSignalIds([id(1), id(2), id(3), id(4)], stations)).toEqual([id(2), id(3), id(4)]);
    expect(unmonitoredSignalIds([id(1)], stations)).toEqual([]);
  });
});
