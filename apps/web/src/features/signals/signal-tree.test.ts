import { describe, expect, it } from "vitest";
import {
  buildSignalTreeIndex,
  EMPTY_ROW_TEXT,
  flattenSignalTree,
  isEmptyMatch,
  isRowOpen,
  parentRowIndex,
  rowKey,
  SELECTED_ITEM_TEXT,
  searchSignalTree,
  selectedItems,
  type TTreeRow,
  toggleGroup,
  toggleSignal,
} from "./signal-tree";
import { buildGroup, buildLargeLine, buildStation, fixtureId } from "./signal-tree.fixtures";

const id = (n: number) => fixtureId(9, n);
const press = buildStation(id(1), "OP010 Press", [
  { id: id(11), name: "press_force", friendlyName: "Press Force" },
  { id: id(12), name: "press_depth", friendlyName: null },
  { id: id(13), name: "press_force_usl", entityType: "UPPER_LIMIT" },
  { id: id(14), name: "press_result", entityType: "RESULT" },
  { id: id(15), name: "housing_colour", friendlyName: "Housing Colour", entityType: "PART_ATTRIBUTE" },
]);
const leak = buildStation(id(2), "OP020 Leak Test", [
  { id: id(21), name: "leak_rate", friendlyName: "Leak Rate" },
  { id: id(22), name: "test_pressure" },
]);
const empty = buildStation(id(3), "OP030 Label", [{ id: id(31), name: "label_units", entityType: "UNITS" }]);
const groups = [
  buildGroup(id(41), "Press group", [id(11), id(12)]),
  buildGroup(id(42), "Leak checks", [id(21), id(99)]),
];
const index = buildSignalTreeIndex([press, leak, empty], groups);

const keys = (rows: TTreeRow[]) => rows.map((r) => r.key);
const none = new Set<string>();

describe("buildSignalTreeIndex", () => {
  it("keeps measurements and part attributes under their station and leaves limits, results and units out", () => {
    expect(index.stations.map((s) => s.items.map((i) => [i.signal.name, i.kind]))).toEqual([
      [
        ["press_force", "signal"],
        ["press_depth", "signal"],
        ["housing_colour", "attribute"],
      ],
      [
        ["leak_rate", "signal"],
        ["test_pressure", "signal"],
      ],
      [],
    ]);
    // Every active signal still resolves by id (group members, saved selections).
    expect(index.signalById.get(id(13))?.name).toBe("press_force_usl");
  });
});

describe("searchSignalTree", () => {
  it("an empty or blank query matches everything, the same object every time", () => {
    expect(searchSignalTree(index, "")).toBe(index.all);
    expect(searchSignalTree(index, "   ")).toBe(index.all);
  });

  it("matches signal names and friendly names without regard to case", () => {
    const byName = searchSignalTree(index, "PRESS_DEP");
    expect(byName.stations.map((s) => s.items.map((i) => i.signal.id))).toEqual([[id(12)]]);
    const byFriendly = searchSignalTree(index, "leak rate");
    expect(byFriendly.stations.map((s) => s.items.map((i) => i.signal.id))).toEqual([[id(21)]]);
  });

  it("a query does not match across the name and the friendly name", () => {
    // "press_force" + "Press Force": the joint would read "press_forcepress force".
    expect(isEmptyMatch(searchSignalTree(index, "forcepress"))).toBe(true);
  });

  it("a station matched by name keeps all its items", () => {
    const m = searchSignalTree(index, "leak test");
    expect(m.stations).toHaveLength(1);
    expect(m.stations[0]?.items.map((i) => i.signal.id)).toEqual([id(21), id(22)]);
  });

  it("finds part attributes and group names; a limit's name finds nothing", () => {
    expect(searchSignalTree(index, "colour").stations[0]?.items.map((i) => i.kind)).toEqual(["attribute"]);
    expect(searchSignalTree(index, "checks").groups.map((g) => g.group.signalGroupName)).toEqual([
      "Leak checks",
    ]);
    expect(isEmptyMatch(searchSignalTree(index, "usl"))).toBe(true);
    expect(isEmptyMatch(searchSignalTree(index, "no such thing"))).toBe(true);
  });
});

describe("flattenSignalTree", () => {
  it("shows both sections, groups closed and stations open, and says when a station has nothing to pick", () => {
    const rows = flattenSignalTree(index, index.all, none);
    expect(keys(rows)).toEqual([
      "section:groups",
      `group:${id(41)}`,
      `group:${id(42)}`,
      "section:stations",
      `station:${id(1)}`,
      `signal:${id(11)}`,
      `signal:${id(12)}`,
      `attribute:${id(15)}`,
      `station:${id(2)}`,
      `signal:${id(21)}`,
      `signal:${id(22)}`,
      `station:${id(3)}`,
      `empty:station:${id(3)}`,
    ]);
    expect(rows.at(-1)).toMatchObject({ kind: "empty", text: EMPTY_ROW_TEXT.station });
    expect(rows[4]).toMatchObject({ kind: "station", count: 3, open: true });
  });

  it("toggled keys open a group (its members, unknown ones with no signal) and close a station or a section", () => {
    const toggled = new Set([rowKey.group(id(42)), rowKey.station(id(1)), rowKey.section("groups")]);
    expect(isRowOpen(rowKey.group(id(42)), toggled)).toBe(true);
    // The groups section is closed, so the open group is not drawn.
    expect(keys(flattenSignalTree(index, index.all, toggled)).slice(0, 3)).toEqual([
      "section:groups",
      "section:stations",
      `station:${id(1)}`,
    ]);
    toggled.delete(rowKey.section("groups"));
    const rows = flattenSignalTree(index, index.all, toggled);
    const members = rows.filter((r) => r.kind === "member");
    expect(members.map((r) => (r.kind === "member" ? [r.signalId, r.signal?.name ?? null] : null))).toEqual([
      [id(21), "leak_rate"],
      [id(99), null],
    ]);
    expect(keys(rows)).toContain(`station:${id(1)}`);
    expect(keys(rows)).not.toContain(`signal:${id(11)}`);
  });

  it("while searching leaves out a section without matches; an empty line shows both sections with a note", () => {
    const rows = flattenSignalTree(index, searchSignalTree(index, "depth"), none);
    expect(keys(rows)).toEqual(["section:stations", `station:${id(1)}`, `signal:${id(12)}`]);
    const bare = buildSignalTreeIndex([], []);
    expect(flattenSignalTree(bare, bare.all, none).map((r) => (r.kind === "empty" ? r.text : r.key))).toEqual(
      ["section:groups", EMPTY_ROW_TEXT.groups, "section:stations", EMPTY_ROW_TEXT.stations],
    );
  });

  it("parentRowIndex finds a row's station and a station's section", () => {
    const rows = flattenSignalTree(index, index.all, none);
    const signalAt = keys(rows).indexOf(`signal:${id(22)}`);
    expect(rows[parentRowIndex(rows, signalAt)]?.key).toBe(`station:${id(2)}`);
    expect(rows[parentRowIndex(rows, keys(rows).indexOf(`station:${id(2)}`))]?.key).toBe("section:stations");
    expect(parentRowIndex(rows, 0)).toBe(-1);
  });

  it("5,000 signals over 100 stations flatten to one row per station, measurement and part attribute", () => {
    const big = buildSignalTreeIndex(buildLargeLine(5000, 100), []);
    const rows = flattenSignalTree(big, big.all, none);
    // 2 sections + the "no groups" note + 100 stations + 46 of every 50 signals.
    expect(rows).toHaveLength(2 + 1 + 100 + 4600);
  });
});

describe("selection rules", () => {
  const empty = { signal_uuids: [], signal_group_uuids: [] };

  it("MVD adds and removes signals and groups", () => {
    let sel = toggleSignal("mvd", empty, "a");
    sel = toggleSignal("mvd", sel, "b");
    sel = toggleGroup("mvd", sel, "g");
    expect(sel).toEqual({ signal_uuids: ["a", "b"], signal_group_uuids: ["g"] });
    sel = toggleSignal("mvd", sel, "a");
    sel = toggleGroup("mvd", sel, "g");
    expect(sel).toEqual({ signal_uuids: ["b"], signal_group_uuids: [] });
  });

  it("SVD keeps exactly one signal: another replaces it, the same one clears it, groups cannot be added", () => {
    let sel = toggleSignal("svd", empty, "a");
    sel = toggleSignal("svd", sel, "b");
    expect(sel).toEqual({ signal_uuids: ["b"], signal_group_uuids: [] });
    expect(toggleSignal("svd", sel, "b")).toEqual(empty);
    expect(toggleGroup("svd", sel, "g")).toBe(sel);
    // A group left over (e.g. from MVD values) can be removed, and choosing a signal drops it.
    expect(toggleGroup("svd", { signal_uuids: [], signal_group_uuids: ["g"] }, "g")).toEqual(empty);
    expect(toggleSignal("svd", { signal_uuids: ["a", "c"], signal_group_uuids: ["g"] }, "b")).toEqual({
      signal_uuids: ["b"],
      signal_group_uuids: [],
    });
  });

  it("selectedItems lists signals by friendly name with their station, then groups; unknown ids stay removable", () => {
    expect(
      selectedItems(index, { signal_uuids: [id(11), id(12), id(77)], signal_group_uuids: [id(41), id(78)] }),
    ).toEqual([
      { kind: "signal", id: id(11), name: "Press Force", detail: "OP010 Press" },
      { kind: "signal", id: id(12), name: "press_depth", detail: "OP010 Press" },
      { kind: "signal", id: id(77), name: id(77), detail: SELECTED_ITEM_TEXT.notOnLine },
      { kind: "group", id: id(41), name: "Press group", detail: SELECTED_ITEM_TEXT.groupSize(2) },
      { kind: "group", id: id(78), name: id(78), detail: SELECTED_ITEM_TEXT.groupNotOnLine },
    ]);
  });
});
