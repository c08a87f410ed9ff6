import { SPC_LIMITS_MESSAGES, type TSpcSignalLimits } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import {
  applyCompletion,
  formulaToText,
  modelRowErrors,
  saveBody,
  signalCompletions,
  signalNames,
  signalRowsOf,
  type TModelRow,
  textToFormula,
} from "./spc-limits.form";

const ID = "3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c";
const names = signalNames([
  { id: ID, name: "Upper Torque" },
  { id: "00000000-0000-4000-8000-000000000001", name: "Torque" },
]);
const row = (cells: Partial<TModelRow>): TModelRow => ({
  model: "*",
  isSaved: false,
  lsl: "",
  lcl: "",
  ucl: "",
  usl: "",
  ...cells,
});

describe("formulas shown by name, stored by id", () => {
  it("round-trips a formula", () => {
    const text = formulaToText(`{${ID}} - 0.5`, names);
    expect(text).toBe("{Upper Torque} - 0.5");
    expect(textToFormula(text, names)).toEqual({ formula: `{${ID}} - 0.5` });
  });
  it("names a signal the line does not have", () => {
    expect(textToFormula("{Nope} + 1", names)).toEqual({ error: SPC_LIMITS_MESSAGES.unknownName("Nope") });
  });
});

describe("cell errors (requirements.md settings §5)", () => {
  it("allows empty cells, numbers and formulas", () => {
    expect(modelRowErrors(row({ lsl: "", lcl: "1.5", ucl: "{Upper Torque} * 0.9" }), names)).toEqual({});
  });
  it("says '{cell} must be a number' for anything else", () => {
    expect(modelRowErrors(row({ lsl: "abc", usl: "1 +" }), names)).toEqual({
      lsl: "LSL must be a number",
      usl: "USL must be a number",
    });
  });
  it("checks the order of plain numbers", () => {
    expect(modelRowErrors(row({ lsl: "5", usl: "1", lcl: "3", ucl: "3" }), names)).toEqual({
      lsl: "LSL must be < USL",
      usl: "USL must be > LSL",
      lcl: "LCL must be < UCL",
      ucl: "UCL must be > LCL",
    });
  });
});

describe("rows and the save body", () => {
  const list: TSpcSignalLimits[] = [
    {
      lineUUID: "00000000-0000-4000-8000-0000000000aa",
      stationName: "OP10",
      signalUUID: "00000000-0000-4000-8000-000000000001",
      signalName: "Torque",
      singleSide: null,
      limits: [
        {
          uuid: null,
          model_number: "B-2",
          lslFormula: "1",
          lclFormula: null,
          uclFormula: null,
          uslFormula: null,
        },
      ],
    },
  ];
  it("gives every signal a '*' row first", () => {
    const [r] = signalRowsOf(list, names);
    expect(r?.models.map((m) => m.model)).toEqual(["*", "B-2"]);
    expect(r?.hasLimits).toBe(true);
  });
  it("leaves out rows without a limit when the cap-limits flag is on", () => {
    const rows = signalRowsOf(list, names);
    expect(saveBody(rows, "L", names, true)[0]?.limits.map((l) => l.model_number)).toEqual(["B-2"]);
    expect(saveBody(rows, "L", names, false)[0]?.limits.map((l) => l.model_number)).toEqual(["*", "B-2"]);
  });
});

describe("signal name completion", () => {
  it("offers names matching what follows an open brace", () => {
    expect(signalCompletions("1 + {torq", 9, ["Upper Torque", "Torque", "Speed"])).toEqual({
      start: 4,
      matches: ["Upper Torque", "Torque"],
    });
    expect(signalCompletions("{Torque} + 1", 12, ["Torque"])).toBeNull();
  });
  it("completes the name with its closing brace", () => {
    expect(applyCompletion("1 + {torq", 9, 4, "Torque")).toEqual({ text: "1 + {Torque}", caret: 12 });
  });
});

describe("suggested control limits", () => {
  it("fill LCL and UCL of each model, adding rows for new models", async () => {
    const { applySuggestions } = await import("./spc-limits.form");
    const [r] = signalRowsOf(
      [
        {
          lineUUID: "00000000-0000-4000-8000-0000000000aa",
          stationName: "OP10",
          signalUUID: "00000000-0000-4000-8000-000000000001",
          signalName: "Torque",
          singleSide: null,
          limits: [
            {
              uuid: null,
              model_number: "*",
              lslFormula: "1",
              lclFormula: "2",
              uclFormula: "8",
              uslFormula: "9",
            },
          ],
        },
      ],
      names,
    );
    const next = applySuggestions(r as NonNullable<typeof r>, [
      { model_number: "*", lcl: 3.5, ucl: 6.5 },
      { model_number: "AX-1", lcl: 4, ucl: 6 },
    ]);
    expect(next.models).toEqual([
      { model: "*", isSaved: true, lsl: "1", lcl: "3.5", ucl: "6.5", usl: "9" },
      { model: "AX-1", isSaved: false, lsl: "", lcl: "4", ucl: "6", usl: "" },
    ]);
  });
});
