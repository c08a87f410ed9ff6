import { SIGNAL_MANAGEMENT_MESSAGES as MSG, SIGNAL_MANAGEMENT_TEXT as TEXT } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { buildLargeLine, buildSignal, buildStation, fixtureId } from "../../signals/signal-tree.fixtures";
import {
  moveSignal,
  placementErrors,
  planAssociation,
  syncPlacement,
  withCurrentAssociations,
} from "./associations";
import {
  addRow,
  commonRows,
  deleteRow,
  initClassState,
  isDirty,
  makeCommon,
  rowErrors,
  signalsWithoutUnique,
  sortRows,
  toPatchBody,
  uniqueRows,
  updateRow,
} from "./classifications";
import {
  associationView,
  capFormulaReferences,
  classificationViewError,
  commonValue,
  entityChangeSummary,
  entityTypeOptions,
  showsDistribution,
} from "./signal-management.form";
import {
  buildManagementIndex,
  flattenManagementTree,
  managementStrategy,
  readRemembered,
  remember,
  searchManagementTree,
  selectablePredicate,
} from "./signal-management.tree";

const id = (n: number) => fixtureId(9, n);
const station = buildStation(id(100), "OP10", [
  { id: id(1), name: "Torque", upperLimit: id(2), lowerLimit: id(3), result: id(4) },
  { id: id(5), name: "Angle", friendlyName: "Spindle angle" },
  { id: id(2), name: "Torque USL", entityType: "UPPER_LIMIT" },
  { id: id(3), name: "Torque LSL", entityType: "LOWER_LIMIT" },
  { id: id(4), name: "Result", entityType: "RESULT" },
  { id: id(6), name: "Shift", entityType: "PART_ATTRIBUTE" },
]);
const station2 = buildStation(id(101), "OP20", [{ id: id(7), name: "Leak" }]);
const all = [...station.signals, ...station2.signals];
const index = buildManagementIndex([station, station2]);
const sig = (n: number) => index.signalById.get(id(n)) as (typeof all)[number];

describe("the tree (requirements.md settings §2.8 Tree behaviour)", () => {
  it("lists every signal of every type and searches names, friendly names and stations", () => {
    const rows = flattenManagementTree(searchManagementTree(index, ""), new Set());
    expect(rows.filter((r) => r.kind === "signal")).toHaveLength(7);
    const spindle = flattenManagementTree(searchManagementTree(index, "spindle"), new Set());
    expect(spindle.map((r) => r.key)).toEqual([`station:${id(100)}`, `signal:${id(5)}`]);
    const op20 = flattenManagementTree(searchManagementTree(index, "op20"), new Set());
    expect(op20.map((r) => r.key)).toEqual([`station:${id(101)}`, `signal:${id(7)}`]);
    const closed = flattenManagementTree(searchManagementTree(index, ""), new Set([`station:${id(100)}`]));
    expect(closed.filter((r) => r.kind === "signal")).toHaveLength(1);
  });

  it("association mode allows measurements, results and limits; classification mode locks", () => {
    const assoc = selectablePredicate("association", index.signalById);
    expect(assoc({ kind: "signal", id: id(2) })).toBe(true);
    expect(assoc({ kind: "signal", id: id(6) })).toBe(TEXT.onlyAssociable);
    expect(selectablePredicate("classification", index.signalById)({ kind: "signal", id: id(1) })).toBe(
      TEXT.lockedWhileClassifications,
    );
  });

  it("plain click replaces, ctrl/meta toggles, shift adds the range across stations (behind their flags)", () => {
    const both = managementStrategy({ multiselectTree: true, shiftSelect: true });
    const ctx = (gesture: object, anchor: string | null = null) => ({ gesture, anchor, order: index.order });
    let sel = both({ signal_uuids: [id(1)], signal_group_uuids: [] }, { kind: "signal", id: id(5) }, ctx({}));
    expect(sel.signal_uuids).toEqual([id(5)]);
    sel = both(sel, { kind: "signal", id: id(1) }, ctx({ metaKey: true }));
    expect(sel.signal_uuids).toEqual([id(5), id(1)]);
    sel = both(
      { signal_uuids: [id(4)], signal_group_uuids: [] },
      { kind: "signal", id: id(7) },
      ctx({ shiftKey: true }, id(4)),
    );
    expect(sel.signal_uuids).toEqual([id(4), id(6), id(7)]);
    const none = managementStrategy({ multiselectTree: false, shiftSelect: false });
    expect(
      none(sel, { kind: "signal", id: id(1) }, ctx({ ctrlKey: true, shiftKey: true }, id(4))).signal_uuids,
    ).toEqual([id(1)]);
  });

  it("remembers the line and signal in session storage", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    remember("line-1", "sig-1", storage);
    expect(readRemembered(storage)).toEqual({ lineId: "line-1", signalId: "sig-1" });
    remember("line-2", null, storage);
    expect(readRemembered(storage)).toEqual({ lineId: "line-2", signalId: null });
  });

  it("searches 5,000 signals", () => {
    const big = buildManagementIndex(buildLargeLine(5000, 40));
    expect(big.order).toHaveLength(5000);
    const rows = flattenManagementTree(searchManagementTree(big, "torque"), new Set());
    expect(rows.filter((r) => r.kind === "signal").length).toBeGreaterThan(300);
  });
});

describe("the signal form's rules", () => {
  it("shows mixed values when the selection differs", () => {
    expect(commonValue([sig(1), sig(5)], (s) => s.isSignalActive)).toEqual({ mixed: false, value: true });
    expect(commonValue([sig(1), sig(2)], (s) => s.entityType)).toEqual({ mixed: true, value: undefined });
  });

  it("offers entity types by flag and by what the stored values allow", () => {
    const opts = entityTypeOptions([sig(1)], {
      limitEntityTypeSelection: true,
      resultEntityTypeSelection: false,
    });
    expect(opts.map((o) => o.type)).not.toContain("RESULT");
    expect(opts.map((o) => o.type)).not.toContain("COMPONENT_ID");
    expect(opts.find((o) => o.type === "PART_ATTRIBUTE")?.disabled).toBe(true);
    expect(opts.find((o) => o.type === "UPPER_LIMIT")?.disabled).toBe(false);
  });

  it("the entity type summary lists signals to convert and associations to dissociate", () => {
    const s = entityChangeSummary(all, [sig(4), sig(6)], "PART_ATTRIBUTE");
    expect(s.converted.map((x) => x.name)).toEqual(["Result"]);
    expect(s.dissociations).toEqual([{ measurement: "Torque", role: "Result", signal: "Result" }]);
    expect(s.capLimits).toEqual([]);
    const limited = { ...sig(1), hasCapLimits: true };
    expect(entityChangeSummary(all, [limited], "UNKNOWN").capLimits).toEqual([limited]);
    expect(entityChangeSummary(all, [limited], "MEASUREMENT").capLimits).toEqual([]);
  });

  it("lists the other measurements' cap limit formulas that use a converted signal, by cell and model", () => {
    const limitsOf = (signal: number, name: string, rows: Record<string, string | null>[]) => ({
      lineUUID: id(200),
      stationName: "OP10",
      signalUUID: id(signal),
      signalName: name,
      singleSide: null,
      limits: rows.map((r) => ({
        model_number: "*",
        lslFormula: null,
        lclFormula: null,
        uclFormula: null,
        uslFormula: null,
        ...r,
      })),
    });
    const limits = [
      // Torque's USL is its limit signal plus a margin, in capitals as a user may type the id.
      limitsOf(1, "Torque", [
        { uslFormula: `{${id(2).toUpperCase()}} + 0.5`, lslFormula: `{${id(3)}}` },
        { model_number: "M-200", uslFormula: `max({${id(2)}}, {${id(5)}})`, uclFormula: "12" },
      ]),
      limitsOf(7, "Leak", [{ uclFormula: `{${id(5)}} * 2` }]),
    ];
    expect(capFormulaReferences(limits, all, new Map([[id(2), "UNKNOWN"]]))).toEqual([
      { signal: "Torque", cell: "USL", model: "*", uses: ["Torque USL"] },
      { signal: "Torque", cell: "USL", model: "M-200", uses: ["Torque USL"] },
    ]);
    // A measurement made a limit: every formula naming it, under its friendly name.
    expect(capFormulaReferences(limits, all, new Map([[id(5), "UPPER_LIMIT"]]))).toEqual([
      { signal: "Torque", cell: "USL", model: "M-200", uses: ["Spindle angle"] },
      { signal: "Leak", cell: "UCL", model: "*", uses: ["Spindle angle"] },
    ]);
    // Torque leaving measurements too: its own limits are no longer used, so only Leak's is listed.
    expect(
      capFormulaReferences(
        limits,
        all,
        new Map([
          [id(5), "UPPER_LIMIT"],
          [id(1), "UNKNOWN"],
        ]),
      ),
    ).toEqual([{ signal: "Leak", cell: "UCL", model: "*", uses: ["Spindle angle"] }]);
    // No change of type (already an upper limit): nothing to say.
    expect(capFormulaReferences(limits, all, new Map([[id(2), "UPPER_LIMIT"]]))).toEqual([]);
  });

  it("distribution only for measurements with the flag", () => {
    expect(showsDistribution([sig(1), sig(5)], { capSingleSided: true })).toBe(true);
    expect(showsDistribution([sig(1), sig(2)], { capSingleSided: true })).toBe(false);
    expect(showsDistribution([sig(1)], { capSingleSided: false })).toBe(false);
  });

  it("association view states", () => {
    expect(associationView([sig(1)], all)).toEqual({
      kind: "list",
      items: [
        { role: "Upper Limit", name: "Torque USL" },
        { role: "Lower Limit", name: "Torque LSL" },
        { role: "Result", name: "Result" },
      ],
    });
    expect(associationView([sig(5)], all)).toEqual({ kind: "message", text: TEXT.noAssociations });
    expect(associationView([sig(1), sig(5)], all)).toEqual({ kind: "message", text: TEXT.mixedAssociations });
    expect(associationView([sig(1), sig(2)], all)).toEqual({
      kind: "message",
      text: MSG.associationsMultipleTypes,
    });
    expect(associationView([sig(2), sig(4)].slice(0, 1), all)).toEqual({
      kind: "list",
      items: [{ role: "Measurement", name: "Torque" }],
    });
    const r2 = buildSignal({ id: id(8), name: "R2", stationName: "OP20", entityType: "RESULT" });
    expect(associationView([sig(4), r2], [...all, r2])).toEqual({
      kind: "message",
      text: TEXT.cannotViewMultiple,
    });
  });

  it("classifications can be viewed together only for results of the same configuration", () => {
    const r2 = buildSignal({ id: id(8), name: "R2", stationName: "OP20", entityType: "RESULT" });
    expect(classificationViewError([sig(4), sig(1)])).toBe(MSG.allMustBeResults);
    const c = (pass: string[], fail: string[]) => ({
      pass: pass.map((value) => ({ value, failureMode: null })),
      fail: fail.map((value) => ({ value, failureMode: null })),
      other: [],
    });
    expect(
      classificationViewError([sig(4), r2], { [id(4)]: c(["OK"], ["NOK"]), [id(8)]: c(["OK", "GOOD"], []) }),
    ).toBeNull();
    expect(classificationViewError([sig(4), r2], { [id(4)]: c(["OK"], []), [id(8)]: c([], ["OK"]) })).toBe(
      MSG.sameConfiguration,
    );
  });
});

describe("association editing (requirements.md settings §2.8, §4, §5)", () => {
  it("places signals by entity type, moves them, and checks the container rules", () => {
    const shown = withCurrentAssociations([id(1)], index.signalById);
    expect(shown).toEqual([id(1), id(2), id(3), id(4)]);
    let p = syncPlacement(
      { measurement: [], upperLimit: [], lowerLimit: [], result: [] },
      shown,
      index.signalById,
    );
    expect(p).toEqual({ measurement: [id(1)], upperLimit: [id(2)], lowerLimit: [id(3)], result: [id(4)] });
    expect(placementErrors(p)).toEqual({});
    p = moveSignal(p, id(5), "upperLimit");
    expect(placementErrors(p).upperLimit).toBe(MSG.noMoreThanOne("upper limit"));
    expect(placementErrors({ ...p, measurement: [] }).measurement).toBe(MSG.atLeastOneMeasurement);
  });

  it("plans entity changes, creates and deletes, and the one request", () => {
    // Angle becomes Torque's upper limit (instead of Torque USL); no lower limit; Leak is measured too.
    const p = { measurement: [id(1), id(7)], upperLimit: [id(5)], lowerLimit: [], result: [id(4)] };
    const plan = planAssociation(p, all);
    expect(plan.entityChanges).toEqual([
      { signal: "Spindle angle", from: "Measurement", to: "Upper Limit", capLimits: false },
    ]);
    expect(plan.associationChanges).toEqual([
      { kind: "delete", measurement: "Torque", role: "upperLimit", signal: "Torque USL" },
      { kind: "create", measurement: "Torque", role: "upperLimit", signal: "Spindle angle" },
      { kind: "delete", measurement: "Torque", role: "lowerLimit", signal: "Torque LSL" },
      { kind: "create", measurement: "Leak", role: "upperLimit", signal: "Spindle angle" },
      { kind: "create", measurement: "Leak", role: "result", signal: "Result" },
    ]);
    expect(plan.request).toEqual([
      { signal_uuid: id(5), signal_attributes: { signal_entity_type: "UPPER_LIMIT" } },
      { signal_uuid: id(1), signal_attributes: { upper_limit: id(5), lower_limit: null } },
      { signal_uuid: id(7), signal_attributes: { upper_limit: id(5), result: id(4) } },
    ]);
  });
});

describe("the result classifications table (requirements.md settings §2.8, §5)", () => {
  const c = (pass: string[], fail: string[]) => ({
    pass: pass.map((value) => ({ value, failureMode: null })),
    fail: fail.map((value) => ({ value, failureMode: "Leak" })),
    other: [],
  });
  const start = initClassState(["a", "b"], { a: c(["OK"], ["NOK"]), b: c(["OK", "GOOD"], []) });

  it("splits common and unique rows and names signals without unique ones", () => {
    expect(commonRows(start).map((r) => r.value)).toEqual(["OK"]);
    expect(uniqueRows(start, "a").map((r) => r.value)).toEqual(["NOK"]);
    expect(uniqueRows(start, "b").map((r) => r.value)).toEqual(["GOOD"]);
    expect(signalsWithoutUnique(makeCommon(start, "saved:NOK", "a"))).toEqual(["a"]);
  });

  it("sorts rows by value, new rows first", () => {
    const s = addRow(initClassState(["a"], { a: c(["b", "C", "a"], []) }), "new-1");
    expect(sortRows(s.rows.a ?? []).map((r) => r.value)).toEqual(["", "a", "b", "C"]);
  });

  it("adds a new row on top (result other), validates it, and only new rows change value or go", () => {
    let s = addRow(start, "new-1");
    expect(sortRows(commonRows(s))[0]).toMatchObject({
      id: "new-1",
      value: "",
      result: "other",
      isNew: true,
    });
    expect(rowErrors(s).get("a|new-1")).toBe(MSG.classificationEmpty);
    s = updateRow(s, "new-1", { value: "GOOD" });
    expect(rowErrors(s).get("b|new-1")).toBe(MSG.classificationExists);
    s = updateRow(s, "new-1", { value: "RETRY" });
    expect(rowErrors(s).size).toBe(0);
    expect(isDirty(s, start)).toBe(true);
    const renamed = updateRow(s, "saved:OK", { value: "CHANGED", result: "fail" });
    expect(commonRows(renamed).find((r) => r.id === "saved:OK")).toMatchObject({
      value: "OK",
      result: "fail",
    });
    expect(deleteRow(s, "saved:OK")).toEqual(s);
    expect(isDirty(deleteRow(s, "new-1"), start)).toBe(false);
    expect(toPatchBody(s).b?.resultClassifications.other).toEqual([{ value: "RETRY", failureMode: null }]);
  });
});
