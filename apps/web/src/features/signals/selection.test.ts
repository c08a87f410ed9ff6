import { describe, expect, it } from "vitest";
import {
  ctrlToggleStrategy,
  signalOrder,
  singleStrategy,
  type TSelectionContext,
  toggleStrategy,
  withShiftRange,
} from "./selection";
import { buildSignalTreeIndex } from "./signal-tree";
import { buildStation, fixtureId } from "./signal-tree.fixtures";

const none = { signal_uuids: [], signal_group_uuids: [] };
const ctx = (over: Partial<TSelectionContext> = {}): TSelectionContext => ({
  gesture: {},
  anchor: null,
  order: [],
  ...over,
});
const sig = (id: string) => ({ kind: "signal" as const, id });
const grp = (id: string) => ({ kind: "group" as const, id });

describe("selection strategies", () => {
  it("toggle adds and removes signals and groups", () => {
    const a = toggleStrategy(none, sig("a"), ctx());
    expect(a).toEqual({ signal_uuids: ["a"], signal_group_uuids: [] });
    const ag = toggleStrategy(a, grp("g"), ctx());
    expect(ag).toEqual({ signal_uuids: ["a"], signal_group_uuids: ["g"] });
    expect(toggleStrategy(ag, sig("a"), ctx())).toEqual({ signal_uuids: [], signal_group_uuids: ["g"] });
  });

  it("single keeps one signal: another replaces it, the same clears it, groups go", () => {
    const a = singleStrategy({ signal_uuids: [], signal_group_uuids: ["g"] }, sig("a"), ctx());
    expect(a).toEqual({ signal_uuids: ["a"], signal_group_uuids: [] });
    expect(singleStrategy(a, sig("b"), ctx()).signal_uuids).toEqual(["b"]);
    expect(singleStrategy(a, sig("a"), ctx()).signal_uuids).toEqual([]);
    expect(singleStrategy({ signal_uuids: ["a"], signal_group_uuids: ["g"] }, grp("g"), ctx())).toEqual(a);
  });

  it("ctrl/meta toggles; a plain choice selects the node alone", () => {
    const ab = { signal_uuids: ["a", "b"], signal_group_uuids: [] };
    expect(ctrlToggleStrategy(ab, sig("c"), ctx())).toEqual({ signal_uuids: ["c"], signal_group_uuids: [] });
    expect(ctrlToggleStrategy(ab, sig("c"), ctx({ gesture: { ctrlKey: true } })).signal_uuids).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(ctrlToggleStrategy(ab, sig("a"), ctx({ gesture: { metaKey: true } })).signal_uuids).toEqual(["b"]);
  });

  it("shift adds the range from the anchor across stations, in tree order", () => {
    const s1 = buildStation(fixtureId(1, 1), "OP10", [
      { id: fixtureId(2, 1), name: "A" },
      { id: fixtureId(2, 2), name: "B" },
    ]);
    const s2 = buildStation(fixtureId(1, 2), "OP20", [
      { id: fixtureId(2, 3), name: "C" },
      { id: fixtureId(2, 4), name: "D" },
    ]);
    const order = signalOrder(buildSignalTreeIndex([s1, s2], []));
    expect(order).toEqual([fixtureId(2, 1), fixtureId(2, 2), fixtureId(2, 3), fixtureId(2, 4)]);
    const range = withShiftRange(toggleStrategy);
    const sel = { signal_uuids: [fixtureId(2, 4)], signal_group_uuids: [] };
    const next = range(
      sel,
      sig(fixtureId(2, 2)),
      ctx({ gesture: { shiftKey: true }, anchor: fixtureId(2, 4), order }),
    );
    expect(next.signal_uuids).toEqual([fixtureId(2, 4), fixtureId(2, 2), fixtureId(2, 3)]);
    // Without an anchor Shift falls back to the base strategy.
    expect(range(none, sig("x"), ctx({ gesture: { shiftKey: true }, order })).signal_uuids).toEqual(["x"]);
  });

  it("leaves out of the order what the predicate refuses", () => {
    const s1 = buildStation(fixtureId(1, 1), "OP10", [
      { id: fixtureId(2, 1), name: "A" },
      { id: fixtureId(2, 2), name: "B" },
    ]);
    const order = signalOrder(buildSignalTreeIndex([s1], []), (n) =>
      n.id === fixtureId(2, 1) ? "no" : true,
    );
    expect(order).toEqual([fixtureId(2, 2)]);
  });
});
