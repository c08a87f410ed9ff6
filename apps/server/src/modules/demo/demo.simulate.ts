/**
 * The physics of the two simulated lines: what each station measures for one part. Normal noise,
 * correlated measurements (press force↔depth, torque↔angle, roughness↔coolant, X↔Y), rare faults,
 * retests of failed final tests, the step change (DEMO_STEP_CHANGE) and the drift (DEMO_DRIFT).
 */
import { DEMO_DRIFT, DEMO_LINES, DEMO_STEP_CHANGE } from "./demo.constants.js";
import type { Random } from "./demo.random.js";

export type Values = Record<string, number | string | null>;

export type PartContext = {
  /** 0-based part number within the line's simulated period. */
  index: number;
  /** Parts in the period. */
  count: number;
  /** Nominal time from the part's start to the end of the period. */
  msBeforeEnd: number;
  partId: string;
  modelNumber: string;
  isChallenge: boolean;
  /** Shift in the plant's local time: A 06–14, B 14–22, C 22–06. */
  shift: "A" | "B" | "C";
  /** Which material lot is in use (changes every two days). */
  lotIndex: number;
};

export type LineSimulator = {
  partPrefix: string;
  productionModels: readonly string[];
  challengeModel: string;
  challengeParts: readonly string[];
  /** When the part reaches each station, after its start (ms), in station order. */
  stationOffsetsMs: readonly number[];
  /** One values object per station; `retest` re-runs the final station (op 2) after a failure. */
  simulate(rng: Random, part: PartContext): { values: Values[]; retest?: Values };
};

const HOUR_MS = 3_600_000;
const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};
const outside = (x: number, lo: number, hi: number) => x < lo || x > hi;

const OPERATORS = {
  detroit: { A: ["D-1041", "D-1187"], B: ["D-1203", "D-1310"], C: ["D-1422", "D-1455"] },
  stuttgart: { A: ["S-2011", "S-2034"], B: ["S-2102", "S-2150"], C: ["S-2207", "S-2261"] },
} as const;

function leakTest(rng: Random, p: PartContext, isRetest: boolean): Values {
  const isNest2 = p.index % 2 === 1;
  const isPressureFault = !isRetest && rng.chance(0.0005);
  const isGrossLeak = !isRetest && rng.chance(0.0003);
  let leak = Math.exp(rng.normal(isNest2 ? 0.15 : 0, 0.3));
  if (isGrossLeak) leak = rng.normal(25, 4);
  // The leak master is built to fail: it proves the tester still finds a leak.
  if (p.partId === "AX-MASTER-02") leak = rng.normal(4.5, 0.15);
  leak = round(leak, 3);
  const pressure = round(isPressureFault ? rng.normal(1.6, 0.05) : rng.normal(2.0, 0.01), 3);
  const result = isPressureFault ? "E-101" : leak > 10 ? "NOK-01" : leak > 3 ? "FAIL" : "PASS";
  return {
    "Leak Rate": isPressureFault ? null : leak,
    "Leak Rate Upper Limit": 3,
    "Test Pressure": pressure,
    "Test Pressure Upper Limit": 2.05,
    "Test Pressure Lower Limit": 1.95,
    "Leak Test Result": result,
    Fixture: isNest2 ? "Nest 2" : "Nest 1",
    "Housing Serial": `HSG-${510_000 + p.index}`,
    "Test Program": p.modelNumber === "AX-200" ? "LT-08" : "LT-07",
  };
}

const axle: LineSimulator = {
  partPrefix: "AXL-",
  productionModels: ["AX-100", "AX-200"],
  challengeModel: "AX-CHK",
  challengeParts: ["AX-MASTER-01", "AX-MASTER-02"],
  stationOffsetsMs: [0, 35_000, 80_000],
  simulate(rng, p) {
    // OP10: the deeper the bearing goes, the harder the press pushes.
    const forceNominal = p.modelNumber === "AX-200" ? 28 : 24;
    const isSensorError = rng.chance(0.0005);
    const forceRaw = rng.normal(forceNominal, 1.0);
    const force = round(forceRaw, 2);
    const depth = round(12 + 0.04 * (forceRaw - forceNominal) + rng.normal(0, 0.03), 3);
    const press: Values = {
      "Press Force": isSensorError ? null : force,
      "Press Force Upper Limit": forceNominal + 3,
      "Press Force Lower Limit": forceNominal - 3,
      "Press Depth": depth,
      "Press Depth Upper Limit": 12.15,
      "Press Depth Lower Limit": 11.85,
      "Press Result": isSensorError
        ? "ERR"
        : outside(force, forceNominal - 3, forceNominal + 3)
          ? "NOK"
          : outside(depth, 11.85, 12.15)
            ? "NOK-D"
            : "OK",
      "Bearing Serial": `BRG-${7_340_000 + p.index}`,
      Shift: p.shift,
      "Material Lot": `L-${24_017 + p.lotIndex}`,
      "Force Units": "kN",
    };

    // OP20: angle follows the joint's real torque; after the step the transducer reads high.
    const isAborted = rng.chance(0.0003);
    const jointTorque = rng.normal(45, 0.6);
    const offset = p.msBeforeEnd <= DEMO_STEP_CHANGE.hoursBeforeEnd * HOUR_MS ? DEMO_STEP_CHANGE.delta : 0;
    const torque = round(jointTorque + offset, 2);
    const angle = round(70 + 3 * (jointTorque - 45) + rng.normal(0, 1.0), 1);
    const operatorPick = rng.next();
    const nutRunner: Values = {
      Torque: isAborted ? null : torque,
      "Torque Upper Limit": 47.5,
      "Torque Lower Limit": 42.5,
      Angle: isAborted ? null : angle,
      "Angle Upper Limit": 80,
      "Torque Result": isAborted
        ? "ABORT"
        : outside(torque, 42.5, 47.5)
          ? "NOK-T"
          : angle > 80
            ? "NOK-A"
            : "OK",
      Operator: OPERATORS.detroit[p.shift][operatorPick < 0.5 ? 0 : 1],
      "Torque Units": "Nm",
      DB12_DBW4: (p.index * 7) % 65_536,
    };

    const leak = leakTest(rng, p, false);
    const retest = leak["Leak Test Result"] !== "PASS" && !p.isChallenge ? leakTest(rng, p, true) : undefined;
    return { values: [press, nutRunner, leak], retest };
  },
};

function cmm(rng: Random, p: PartContext, isRetest: boolean): Values {
  const isProbeError = !isRetest && rng.chance(0.0004);
  // X and Y move together: the fixture sits slightly rotated.
  const x = round(rng.normal(0, 0.012), 4);
  const y = round(0.6 * x + rng.normal(0, 0.01), 4);
  const depthNominal = p.modelNumber === "VB-25-L" ? 45 : 30;
  const depth = round(rng.normal(depthNominal + 0.02, 0.015), 3);
  const operatorPick = rng.next();
  const isOut = outside(x, -0.05, 0.05) || outside(y, -0.05, 0.05) || depth < depthNominal - 0.03;
  return {
    "Position X": isProbeError ? null : x,
    "Position X Upper Limit": 0.05,
    "Position X Lower Limit": -0.05,
    "Position Y": isProbeError ? null : y,
    "Position Y Upper Limit": 0.05,
    "Position Y Lower Limit": -0.05,
    "Bore Depth": depth,
    "Bore Depth Lower Limit": depthNominal - 0.03,
    "CMM Result": isProbeError ? "NOK-PROBE" : isOut ? "FAIL" : "PASS",
    Operator: OPERATORS.stuttgart[p.shift][operatorPick < 0.5 ? 0 : 1],
  };
}

const PARTS_PER_TOOL = 2 * 1440;

const valve: LineSimulator = {
  partPrefix: "VB7-",
  productionModels: ["VB-25-S", "VB-25-L"],
  challengeModel: "VB-GOLD",
  challengeParts: ["VB-GOLD-01"],
  stationOffsetsMs: [0, 25_000, 50_000],
  simulate(rng, p) {
    // OP10: the tool put in when the drift starts wears and opens the bore, linearly.
    const driftMs = DEMO_DRIFT.hoursBeforeEnd * HOUR_MS;
    const wear = Math.min(1, Math.max(0, (driftMs - p.msBeforeEnd) / driftMs));
    const driftStart = p.count - Math.round(driftMs / 60_000);
    const toolNo =
      p.index >= driftStart
        ? 1 + Math.ceil(driftStart / PARTS_PER_TOOL)
        : 1 + Math.floor(p.index / PARTS_PER_TOOL);
    const isAborted = rng.chance(0.0003);
    const diameter = round(rng.normal(25 + DEMO_DRIFT.total * wear, 0.003), 4);
    const z = rng.normal();
    const roundness = round(Math.exp(Math.log(1.6) + 0.3 * z), 2);
    const load = round(42 + 5 * z + rng.normal(0, 2), 1);
    const boring: Values = {
      "Bore Diameter": isAborted ? null : diameter,
      "Bore Diameter Upper Limit": 25.02,
      "Bore Diameter Lower Limit": 24.98,
      Roundness: isAborted ? null : roundness,
      "Roundness Upper Limit": 4,
      "Spindle Load": load,
      "Bore Result": isAborted
        ? "ABBRUCH"
        : outside(diameter, 24.98, 25.02) || roundness > 4
          ? "n.i.O."
          : "i.O.",
      "Tool ID": `T-0412-${String(toolNo).padStart(2, "0")}`,
      Shift: p.shift,
    };

    // OP20: roughness follows the coolant temperature, which follows the day.
    const coolant = round(22 + 1.5 * Math.sin((2 * Math.PI * p.index) / 1440) + rng.normal(0, 0.2), 2);
    const ra = round(0.8 + 0.05 * (coolant - 22) + rng.normal(0, 0.04), 3);
    const flatness = round(Math.exp(rng.normal(Math.log(6), 0.25)), 2);
    const milling: Values = {
      Flatness: flatness,
      "Flatness Upper Limit": 12,
      "Surface Roughness Ra": ra,
      "Surface Roughness Ra Upper Limit": 1,
      "Coolant Temperature": coolant,
      "Mill Result": flatness > 12 ? "NOK" : ra > 1 ? "NOK-RA" : "OK",
      "Material Lot": `C-${8_830 + p.lotIndex}`,
      Units: "µm",
    };

    const final = cmm(rng, p, false);
    const retest = final["CMM Result"] === "FAIL" && !p.isChallenge ? cmm(rng, p, true) : undefined;
    return { values: [boring, milling, final], retest };
  },
};

/** The simulated lines, by line name; lines not listed get no records. */
export const LINE_SIMULATORS: Readonly<Record<string, LineSimulator>> = {
  [DEMO_LINES.axle]: axle,
  [DEMO_LINES.valve]: valve,
};
