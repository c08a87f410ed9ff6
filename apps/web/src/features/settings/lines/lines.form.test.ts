import { defaultFeatureFlags, LINE_MANAGEMENT_MESSAGES as M } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { testLine } from "../../../test/fixtures";
import { canSaveEditor, editorChanges, editorValuesOf, validateEditor } from "./line-editor.form";
import {
  exportRows,
  filterLines,
  lineCounts,
  toLineRows,
  validateAlertFilterText,
  validateThresholdText,
} from "./lines.form";

const line = testLine({
  id: "00000000-0000-4000-8000-000000000011",
  plantId: "00000000-0000-4000-8000-000000000002",
  name: "Axle",
  ingestionThresholdHours: 4,
  alertViewingWindowDays: 30,
});
const flags = {
  ...defaultFeatureFlags(),
  partMarriage: true,
  capExclusion: true,
  feederLineAssignment: true,
};

describe("inline edits (requirements.md settings §5)", () => {
  it("checks the threshold as typed: empty allowed, whole numbers 0 to 1,000,000", () => {
    expect(validateThresholdText("")).toBeNull();
    expect(validateThresholdText(" 0 ")).toBeNull();
    expect(validateThresholdText("1000000")).toBeNull();
    expect(validateThresholdText("abc")).toBe(M.wholeNumber);
    expect(validateThresholdText("1e3")).toBe(M.wholeNumber);
    expect(validateThresholdText("-1")).toBe(M.thresholdMin);
    expect(validateThresholdText("1000001")).toBe(M.thresholdMax);
  });
  it("checks the overview alert filter: 1 to 90, never empty", () => {
    for (const t of ["", "0", "91", "2.5", "x"]) expect(validateAlertFilterText(t)).toBe(M.alertFilterRange);
    expect(validateAlertFilterText("1")).toBeNull();
    expect(validateAlertFilterText("90")).toBeNull();
  });
});

describe("rows, counts and filters", () => {
  it("takes the polled monitor count and window, 90 when the window list lacks the line", () => {
    const [row] = toLineRows([line], [{ lineId: line.id, activeTaskCount: 5 }], []);
    expect(row).toMatchObject({ activeMonitors: 5, alertViewingWindowDays: 90, label: "Axle" });
  });
  it("counts and filters by active", () => {
    const rows = [line, { ...line, id: "x", active: false }];
    expect(lineCounts(rows)).toEqual({ active: 1, inactive: 1, total: 2 });
    expect(filterLines(rows, "inactive").map((r) => r.id)).toEqual(["x"]);
    expect(filterLines(rows, "all")).toHaveLength(2);
  });
  it("exports the grid's columns with times in the plant's zone", () => {
    const [row] = toLineRows([{ ...line, lastIngestedTime: "2026-11-22T10:00:00Z" }], undefined, undefined);
    expect(exportRows(row ? [row] : [], "UTC")[1]).toEqual([
      "Axle",
      "Yes",
      0,
      "2026-11-22 10:00:00 UTC",
      4,
      30,
    ]);
  });
});

describe("the line editor (requirements.md settings §5 'Line editor')", () => {
  it("requires No Data Alert and Alert Displayed with part marriage, with their ranges", () => {
    const v = { ...editorValuesOf(line), noDataAlert: "", alertDisplayed: "91" };
    expect(validateEditor(v, flags)).toEqual({ noDataAlert: M.required, alertDisplayed: M.alertFilterRange });
    expect(validateEditor(v, { ...flags, partMarriage: false })).toEqual({});
  });
  it("sends only the changed fields, the window apart, and the empty friendly name as null", () => {
    const named = { ...line, friendlyName: "Main" };
    const v = { ...editorValuesOf(named), friendlyName: "", alertDisplayed: "7" };
    expect(editorChanges(named, v, [], flags)).toEqual({
      patch: { friendlyName: null },
      alertViewingWindowDays: 7,
    });
    expect(editorChanges(line, editorValuesOf(line), [], flags)).toEqual({ patch: {} });
    expect(editorChanges(line, editorValuesOf(line), ["f1"], flags).patch).toEqual({ feederLineIds: ["f1"] });
  });
  it("enables Save Changes only when valid and changed (feeder lines count as a change)", () => {
    expect(canSaveEditor(line, editorValuesOf(line), [], flags)).toBe(false);
    expect(canSaveEditor(line, editorValuesOf(line), ["f1"], flags)).toBe(true);
    expect(canSaveEditor(line, { ...editorValuesOf(line), friendlyName: " x" }, ["f1"], flags)).toBe(false);
  });
});
