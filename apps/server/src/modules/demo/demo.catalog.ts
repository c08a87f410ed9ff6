/**
 * The demo plant's configuration: plants, lines, stations, signals (every entity type, with
 * associations and result classifications), signal groups, model numbers and challenge parts.
 * Plain data; demo.seed.ts writes it, demo.records.ts fills the part records that match it.
 */
import { DEMO_LINES, DEMO_PLANTS, DEMO_STATIONS } from "./demo.constants.js";
import type { DemoClassification, DemoLine, DemoPlant, DemoSignal } from "./demo.types.js";

/** A measurement with its limit signals (named "<name> Upper Limit" / "<name> Lower Limit"). */
function measured(
  name: string,
  unit: string,
  o: Omit<DemoSignal, "name" | "type" | "unit" | "upper" | "lower"> & { limits: "both" | "upper" | "lower" },
): DemoSignal[] {
  const { limits, ...rest } = o;
  const upper = limits !== "lower" ? `${name} Upper Limit` : undefined;
  const lower = limits !== "upper" ? `${name} Lower Limit` : undefined;
  const out: DemoSignal[] = [{ name, type: "MEASUREMENT", unit, upper, lower, ...rest }];
  if (upper) out.push({ name: upper, type: "UPPER_LIMIT", unit });
  if (lower) out.push({ name: lower, type: "LOWER_LIMIT", unit });
  return out;
}

const result = (name: string, classifications: [string, DemoClassification["result"], string?][]) => ({
  name,
  type: "RESULT" as const,
  classifications: classifications.map(([value, r, failureMode]) => ({
    value,
    result: r,
    failureMode: failureMode ?? null,
  })),
});

const attribute = (name: string): DemoSignal => ({ name, type: "PART_ATTRIBUTE" });

const S = DEMO_STATIONS;

const axle: DemoLine = {
  name: DEMO_LINES.axle,
  friendlyName: "Rear Axle",
  ingestionThresholdHours: 2,
  isNewLine: false,
  hasRecords: true,
  feeders: [DEMO_LINES.brake],
  stations: [
    {
      name: S.axle.press,
      signals: [
        ...measured("Press Force", "kN", { limits: "both", quality: "CRITICAL", result: "Press Result" }),
        ...measured("Press Depth", "mm", { limits: "both", quality: "SIGNIFICANT", result: "Press Result" }),
        result("Press Result", [
          ["OK", "pass"],
          ["NOK", "fail", "Press force out of range"],
          ["NOK-D", "fail", "Press depth out of range"],
          ["ERR", "other", "Force sensor error"],
        ]),
        { name: "Bearing Serial", type: "COMPONENT_ID" },
        attribute("Shift"),
        attribute("Material Lot"),
        { name: "Force Units", type: "UNITS" },
      ],
    },
    {
      name: S.axle.nutRunner,
      signals: [
        ...measured("Torque", "Nm", {
          limits: "both",
          quality: "CRITICAL",
          friendlyName: "Wheel Nut Torque",
          result: "Torque Result",
        }),
        ...measured("Angle", "deg", {
          limits: "upper",
          singleSide: "UPPER",
          quality: "HIGH_IMPACT",
          result: "Torque Result",
        }),
        result("Torque Result", [
          ["OK", "pass"],
          ["NOK-T", "fail", "Torque out of range"],
          ["NOK-A", "fail", "Angle out of range"],
          ["ABORT", "other", "Cycle aborted"],
        ]),
        attribute("Operator"),
        { name: "Torque Units", type: "UNITS" },
        // A raw PLC word nobody has mapped yet.
        { name: "DB12_DBW4", type: "UNKNOWN", storage: "num", inactive: true },
      ],
    },
    {
      name: S.axle.leakTest,
      final: true,
      signals: [
        ...measured("Leak Rate", "sccm", {
          limits: "upper",
          singleSide: "UPPER",
          quality: "CRITICAL",
          result: "Leak Test Result",
        }),
        ...measured("Test Pressure", "bar", { limits: "both", result: "Leak Test Result" }),
        result("Leak Test Result", [
          ["PASS", "pass"],
          ["FAIL", "fail", "Leak rate above limit"],
          ["NOK-01", "fail", "Gross leak"],
          ["E-101", "other", "Test pressure not reached"],
        ]),
        attribute("Fixture"),
        { name: "Housing Serial", type: "COMPONENT_ID" },
        { name: "Test Program", type: "UNKNOWN" },
      ],
    },
  ],
  groups: [
    {
      name: "Press Fit",
      members: [
        [S.axle.press, "Press Force"],
        [S.axle.press, "Press Depth"],
      ],
    },
    {
      name: "Tightening",
      members: [
        [S.axle.nutRunner, "Torque"],
        [S.axle.nutRunner, "Angle"],
      ],
    },
    {
      name: "Critical Characteristics",
      members: [
        [S.axle.press, "Press Force"],
        [S.axle.nutRunner, "Torque"],
        [S.axle.leakTest, "Leak Rate"],
      ],
    },
  ],
  modelNumbers: [
    { value: "AX-100", isChallenge: false },
    { value: "AX-200", isChallenge: false },
    { value: "AX-CHK", isChallenge: true },
  ],
  challengeParts: ["AX-MASTER-01", "AX-MASTER-02"],
};

const brake: DemoLine = {
  name: DEMO_LINES.brake,
  ingestionThresholdHours: null,
  isNewLine: true,
  hasRecords: false,
  stations: [
    {
      name: S.brake.caliper,
      signals: [
        ...measured("Clamp Force", "kN", { limits: "both", result: "Caliper Result" }),
        result("Caliper Result", [
          ["OK", "pass"],
          ["NOK", "fail", "Clamp force out of range"],
        ]),
        { name: "Caliper Serial", type: "COMPONENT_ID" },
        attribute("Shift"),
      ],
    },
  ],
  groups: [],
  modelNumbers: [{ value: "BR-300", isChallenge: false }],
  challengeParts: [],
};

const valve: DemoLine = {
  name: DEMO_LINES.valve,
  ingestionThresholdHours: 4,
  isNewLine: false,
  hasRecords: true,
  stations: [
    {
      name: S.valve.boring,
      signals: [
        ...measured("Bore Diameter", "mm", { limits: "both", quality: "CRITICAL", result: "Bore Result" }),
        ...measured("Roundness", "µm", {
          limits: "upper",
          singleSide: "UPPER",
          quality: "SIGNIFICANT",
          result: "Bore Result",
        }),
        { name: "Spindle Load", type: "MEASUREMENT", unit: "%" },
        result("Bore Result", [
          ["i.O.", "pass"],
          ["n.i.O.", "fail", "Bore out of tolerance"],
          ["ABBRUCH", "other", "Cycle aborted"],
        ]),
        { name: "Tool ID", type: "COMPONENT_ID" },
        attribute("Shift"),
      ],
    },
    {
      name: S.valve.milling,
      signals: [
        ...measured("Flatness", "µm", { limits: "upper", singleSide: "UPPER", result: "Mill Result" }),
        ...measured("Surface Roughness Ra", "µm", {
          limits: "upper",
          singleSide: "UPPER",
          friendlyName: "Ra",
          result: "Mill Result",
        }),
        { name: "Coolant Temperature", type: "MEASUREMENT", unit: "°C" },
        result("Mill Result", [
          ["OK", "pass"],
          ["NOK", "fail", "Flatness out of tolerance"],
          ["NOK-RA", "fail", "Surface too rough"],
        ]),
        attribute("Material Lot"),
        { name: "Units", type: "UNITS" },
      ],
    },
    {
      name: S.valve.cmm,
      final: true,
      signals: [
        ...measured("Position X", "mm", { limits: "both", quality: "HIGH_IMPACT", result: "CMM Result" }),
        ...measured("Position Y", "mm", { limits: "both", quality: "HIGH_IMPACT", result: "CMM Result" }),
        ...measured("Bore Depth", "mm", { limits: "lower", singleSide: "LOWER", result: "CMM Result" }),
        result("CMM Result", [
          ["PASS", "pass"],
          ["FAIL", "fail", "Position out of tolerance"],
          ["NOK-PROBE", "other", "Probe error"],
        ]),
        attribute("Operator"),
      ],
    },
  ],
  groups: [
    {
      name: "Bore Geometry",
      members: [
        [S.valve.boring, "Bore Diameter"],
        [S.valve.boring, "Roundness"],
      ],
    },
    {
      name: "Surface",
      members: [
        [S.valve.milling, "Flatness"],
        [S.valve.milling, "Surface Roughness Ra"],
      ],
    },
    {
      name: "CMM Position",
      members: [
        [S.valve.cmm, "Position X"],
        [S.valve.cmm, "Position Y"],
      ],
    },
  ],
  modelNumbers: [
    { value: "VB-25-S", isChallenge: false },
    { value: "VB-25-L", isChallenge: false },
    { value: "VB-GOLD", isChallenge: true },
  ],
  challengeParts: ["VB-GOLD-01"],
};

export const DEMO_CATALOG: readonly DemoPlant[] = [
  { ...DEMO_PLANTS.detroit, topic: "linewatch/demo/detroit/#", lines: [axle, brake] },
  { ...DEMO_PLANTS.stuttgart, topic: "linewatch/demo/stuttgart/#", lines: [valve] },
];
