// The reference vectors of issue 29 part 4 (CAP held per evaluation, "Suggest control limits"
// measuring autocorrelation), from reference/make_vectors.py's cap_held_cases: typed here so the
// shared ReferenceVectors interface stays as it is. Test-only.
import type { AlertThreshold } from "../src/alertThreshold.js";
import { vectors } from "./referenceVectors.js";

type RuleSet = { rule2?: boolean; rule3?: boolean; rule4?: boolean };
type Pair = { lcl: number; ucl: number; expectedFalseAlarmRate: number };

export interface CapHeldVectors {
  readonly controlRulesArl: ReadonlyArray<{ rules: RuleSet; expected: number }>;
  readonly controlSignalChance: ReadonlyArray<{
    /** rule1Z null = Infinity (JSON has none). */
    set: { rule1Z: number | null; rule2: boolean; rule3: boolean; runLength: number | null };
    count: number;
    history: "stationary" | "none";
    expected: number;
  }>;
  readonly controlPValue: ReadonlyArray<{
    kind: string;
    values: (number | null)[];
    lcl: (number | null)[];
    ucl: (number | null)[];
    firstNewIndex: number;
    runRules: RuleSet;
    expected: {
      testedCount: number;
      isOneSided: boolean;
      hits: [number, number][];
      tail: number | null;
      rule: number | null;
      pValue: number;
    };
  }>;
  readonly capabilityPValue: ReadonlyArray<{
    t: number;
    sideCorrelation: number | null;
    sideGap: number | null;
    expected: number;
  }>;
  readonly capHeld: ReadonlyArray<{
    kind: string;
    values: number[];
    train: number[];
    lsl: number | null;
    usl: number | null;
    lcl: number;
    ucl: number;
    alertThreshold: AlertThreshold;
    firstNewIndex: number;
    runRules: RuleSet;
    expected: {
      pControl: number | null;
      pCapability: number;
      pValue: number;
      testCount: number;
      capabilityAlpha: number;
      ppkUpperBound: number;
      criticalValue: number;
      isControlBreach: boolean;
      isCapabilityBreach: boolean;
      breach: boolean;
    };
  }>;
  readonly suggestControlLimits: ReadonlyArray<{
    phi: number;
    values: number[];
    expected: {
      n: number;
      mean: number;
      sigmaWithin: number;
      sigmaOverall: number;
      sigmaProcess: number;
      lag1Autocorrelation: number;
      sigmaRatio: number;
      isAutocorrelated: boolean;
      basis: "moving_range" | "overall";
      lcl: number;
      ucl: number;
      expectedFalseAlarmRate: number;
      movingRange: Pair;
      overall: Pair;
    };
  }>;
  readonly expectedExceedanceRate: ReadonlyArray<{
    n: number;
    phi: number;
    basis: "moving_range" | "overall";
    expected: number;
  }>;
  readonly controlTails: { rule2: number; rule3: number; oneSided: number };
  /** The rules' chance on an autocorrelated in-control process, from NumPy simulations (with their SE). */
  readonly controlNullSimulation: ReadonlyArray<{
    coefficients: number[];
    count: number;
    lead: number;
    set: { rule1Z: number; rule2: boolean; rule3: boolean; runLength: number | null };
    expected: number;
    standardError: number;
  }>;
}

export const capHeld = vectors as unknown as CapHeldVectors;
