import { describe, expect, it } from "vitest";
import { compareValues, detailRowId, flattenExpandableRows } from "./expandable-rows";
import { capSignals, capSignalTree } from "./expandable-rows.fixtures";

const signals = capSignals;
const tree = capSignalTree;
const shape = (rows: { id: string; __row: { kind: string } }[]) => rows.map((r) => `${r.__row.kind}:${r.id}`);

describe("flattenExpandableRows", () => {
  it("lists the parents only until one is expanded, then its children right under it", () => {
    expect(shape(flattenExpandableRows(signals, { ...tree, expandedIds: new Set() }).rows)).toEqual([
      "parent:s1",
      "parent:s2",
      "parent:s3",
    ]);
    const { rows } = flattenExpandableRows(signals, { ...tree, expandedIds: new Set(["s1"]) });
    expect(shape(rows)).toEqual(["parent:s1", "child:s1::0", "child:s1::1", "parent:s2", "parent:s3"]);
    expect(rows[0]?.__row).toEqual({ kind: "parent", isExpanded: true, childCount: 2 });
    expect(rows[1]).toMatchObject({ model: "M-100", __row: { kind: "child", parentId: "s1" } });
  });

  it("sorts parents by the sort model and children under their parent by the same model", () => {
    const { rows } = flattenExpandableRows(signals, {
      ...tree,
      getChildId: (m, s) => `${s.id}/${m.model}`,
      expandedIds: new Set(["s1", "s2"]),
      sortModel: [
        { field: "station", sort: "asc" },
        { field: "model", sort: "desc" },
      ],
    });
    // OP10, OP20, OP30; the models under each descending.
    expect(shape(rows)).toEqual([
      "parent:s2",
      "child:s2/M-300",
      "parent:s1",
      "child:s1/M-200",
      "child:s1/M-100",
      "parent:s3",
    ]);
  });

  it("pages by parents, keeping each page's children with it", () => {
    const { rows, parentCount } = flattenExpandableRows(signals, {
      ...tree,
      expandedIds: new Set(["s1", "s2"]),
      page: { index: 1, size: 2 },
    });
    expect(parentCount).toBe(3);
    expect(shape(rows)).toEqual(["parent:s3"]);
  });

  it("expands a row into one detail row holding its parent", () => {
    const { rows } = flattenExpandableRows(signals, {
      getId: (s) => s.id,
      hasDetail: true,
      expandedIds: new Set(["s2"]),
    });
    expect(shape(rows)).toEqual(["parent:s1", "parent:s2", `detail:${detailRowId("s2")}`, "parent:s3"]);
    expect(rows[2]).toMatchObject({ parent: { id: "s2" } });
  });

  it("compares numbers by value and puts empty values last", () => {
    expect([3, null, 1, ""].sort(compareValues)).toEqual([1, 3, null, ""]);
    expect(["M-10", "M-2"].sort(compareValues)).toEqual(["M-2", "M-10"]);
  });
});
