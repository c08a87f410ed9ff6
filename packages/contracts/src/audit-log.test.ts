import { describe, expect, it } from "vitest";
import { auditChanges } from "./audit-log.js";

describe("auditChanges", () => {
  it("lists only the fields an update changed, in the order they appear", () => {
    expect(
      auditChanges({ name: "A", ucl: 1, tags: ["x"] }, { name: "A", ucl: 2, tags: ["x"], lcl: 0 }),
    ).toEqual([
      { field: "ucl", before: 1, after: 2 },
      { field: "lcl", before: undefined, after: 0 },
    ]);
  });

  it("lists every field of a create and of a delete", () => {
    expect(auditChanges(null, { name: "A", active: true })).toEqual([
      { field: "name", before: undefined, after: "A" },
      { field: "active", before: undefined, after: true },
    ]);
    expect(auditChanges({ name: "A" }, null)).toEqual([{ field: "name", before: "A", after: undefined }]);
  });

  it("compares nested values by content", () => {
    expect(auditChanges({ f: { a: [1, 2] } }, { f: { a: [1, 2] } })).toEqual([]);
    expect(auditChanges({ f: { a: [1, 2] } }, { f: { a: [2, 1] } })).toHaveLength(1);
  });
});
