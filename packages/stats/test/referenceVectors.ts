// Loads reference/stats-vectors.json (SciPy/NumPy values from reference/make_vectors.py) for the
// *.test.ts files, and the relative-error check they share. Test-only: nothing in src imports it.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import type { AlertThreshold } from "../src/alertThreshold.js";

export interface ReferenceVectors {
  readonly about: string;
  readonly wasserstein: ReadonlyArray<{
    u: number[];
    v: number[];
    uWeights?: number[];
    vWeights?: number[];
    expected: number;
  }>;
  /**
   * The uncorrected SVD's cases. Read by no test since issue 29 removed evaluateSvd (and its test);
   * make_vectors.py still writes them, until the reference drops them at a regeneration.
   */
  readonly svd: ReadonlyArray<{
    train: number[];
    eval: number[];
    alertThreshold: AlertThreshold;
    expected: { w1: number; scale: number; score: number; threshold: number; breach: boolean };
  }>;
  readonly hotellingUcl: ReadonlyArray<{ m: number; p: number; alpha: number; expected: number }>;
  readonly binomialTail: ReadonlyArray<{ n: number; alpha: number; k: number; expected: number }>;
  readonly quantiles: ReadonlyArray<
    | { dist: "f"; p: number; d1: number; d2: number; expected: number }
    | { dist: "chisquare"; p: number; k: number; expected: number }
  >;
  /** SciPy's chi2.sf(x, k): the control rules' rule-4 tie (Σ z² over a run of k points). */
  readonly chiSquareTails: ReadonlyArray<{ x: number; k: number; expected: number }>;
  /**
   * The uncorrected MVD's cases (evaluateMvd, removed in issue 29): only their training rows and
   * Ledoit–Wolf shrinkage are still read (ledoitWolfShrinkage.test.ts).
   */
  readonly mvd: ReadonlyArray<{
    kind: string;
    train: number[][];
    eval: number[][];
    alertThreshold: AlertThreshold;
    expected: {
      keptSignals: number[];
      shrinkage: number;
      t2: number[];
      ucl: number;
      exceedances: number;
      pValue: number;
      score: number;
      breach: boolean;
      worstRow: number;
      worstRowContributions: number[];
    };
  }>;
  readonly capability: ReadonlyArray<{
    values: number[];
    lsl: number | null;
    usl: number | null;
    expected: {
      mean: number;
      sigmaWithin: number;
      sigmaOverall: number;
      cp: number | null;
      cpk: number;
      pp: number | null;
      ppk: number;
    };
  }>;
  readonly capabilityQcc: {
    note: string;
    subgroups: number[][];
    lsl: number;
    usl: number;
    expected: Record<"cp" | "cpl" | "cpu" | "cpk" | "pp" | "ppl" | "ppu" | "ppk", number>;
    tolerance: number;
  };
  readonly vif: ReadonlyArray<{
    kind: string;
    values: number[];
    expected: { bartlett: number; ar1: number; autocorrelations: number[] };
  }>;
  readonly svdCalibrated: ReadonlyArray<{
    kind: string;
    train: number[];
    eval: number[];
    alertThreshold: AlertThreshold;
    expected: {
      w1: number;
      scale: number;
      score: number;
      vif: number;
      dependenceFactor: number;
      kurtosis: number;
      degrees: number;
      vifWidening: number;
      nullQuantile: number;
      dispersionRatio: number;
      threshold: number;
      breach: boolean;
    };
  }>;
  readonly mvdCalibrated: ReadonlyArray<{
    kind: string;
    train: number[][];
    eval: number[][];
    alertThreshold: AlertThreshold;
    expected: {
      keptSignals: number[];
      shrinkage: number;
      vifs: number[];
      t2Mean: number;
      pMean: number;
      meanDegrees: number;
      effectiveSignals: number;
      meanLaw: {
        scale: number;
        degrees: number;
        offset: number;
        shrinkage: number;
      };
      meanContributions: number[];
      t2: number[];
      crossValidatedT2: number[];
      structT2: number[];
      pooledCoefficient: number;
      arOrder: number;
      effectiveRows: number;
      vifT2: number;
      u: number;
      z: number;
      pMannWhitney: number;
      savage: SavageExpected;
      pStruct: number;
      pValue: number;
      score: number;
      breach: boolean;
      worstRow: number;
      worstRowContributions: number[];
    };
  }>;
  /** Cap monitors' dependence from the window's training values (null: a missing value). */
  readonly capCalibratedDependence: ReadonlyArray<{
    kind: string;
    train: (number | null)[];
    values: number[];
    lsl: number;
    usl: number;
    alertThreshold: AlertThreshold;
    expected: CapDependenceExpected;
    expectedWithoutTraining: CapDependenceExpected;
  }>;
  readonly capCalibrated: ReadonlyArray<{
    values: number[];
    lsl: number | null;
    usl: number | null;
    alertThreshold: AlertThreshold;
    expected: {
      mean: number;
      sigmaWithin: number;
      sigmaOverall: number;
      cp: number | null;
      cpk: number;
      pp: number | null;
      ppk: number;
      vif: number;
      vifVariance: number;
      kurtosis: number;
      skewness: number;
      nEff: number;
      ppkSe: number;
      ppkUpperBound: number;
      criticalValue: number;
      sideCorrelation: number | null;
      sideGap: number | null;
      isCapabilityBreach: boolean;
      cpInterval: [number, number] | null;
      ppInterval: [number, number] | null;
      cpkInterval: [number, number];
      ppkInterval: [number, number];
    };
  }>;
  readonly ppkStandardError: ReadonlyArray<{
    index: number;
    nMean: number;
    nVar: number;
    kurtosis: number;
    expected: number;
  }>;
  readonly bissell: ReadonlyArray<{ index: number; nEff: number; expected: number }>;
  readonly capShape: ReadonlyArray<{
    kind: string;
    values: number[];
    expected: { skewness: number; kurtosis: number };
  }>;
  readonly ar1SpreadCorrection: ReadonlyArray<{ rho: number; n: number; expected: number }>;
  readonly ar1WindowVif: ReadonlyArray<{ coefficient: number; m: number; n: number; expected: number }>;
  readonly dependence: {
    burg: ReadonlyArray<{
      kind: string;
      columns: number[][];
      m: number;
      maxOrder: number;
      expected: {
        reflections: number[];
        coefficients: number[][];
        innovationRatios: number[];
        order: number;
      };
    }>;
    processes: ReadonlyArray<{
      coefficients: number[];
      m: number;
      expected: { autocorrelations: number[]; longRunVif: number; degrees: number };
    }>;
    estimates: ReadonlyArray<{
      kind: string;
      values: number[];
      expected: {
        order: number;
        coefficients: number[];
        vif: number;
        uncappedVif: number;
        degrees: number | null;
        effectiveSize: number;
        acfLength: number;
        autocorrelations: number[];
        windowVif: Record<string, number>;
      };
    }>;
    pooled: {
      columns: number[][];
      m: number;
      lag1: number;
      expected: { order: number; coefficients: number[]; vif: number; degrees: number | null };
    };
    bridgeLaw: ReadonlyArray<{
      kind: string;
      values: number[];
      arCoefficients: number[];
      n: number;
      expected: { mean: number; cv: number; factor: Record<AlertThreshold, number> };
    }>;
  };
  readonly svdDependence: ReadonlyArray<{
    kind: string;
    values: number[];
    coefficient: number;
    n: number;
    expected: { mean: number; cv: number; factor: Record<AlertThreshold, number> };
  }>;
  readonly ppkSideStandardError: ReadonlyArray<{
    index: number;
    nMean: number;
    nVar: number;
    kurtosis: number;
    skewness: number;
    side: "upper" | "lower";
    expected: number;
  }>;
  readonly normalBridgeMean: number;
  readonly mannWhitney: ReadonlyArray<{ x: number[]; y: number[]; expected: { u: number; pValue: number } }>;
  readonly savage: ReadonlyArray<{
    x: number[];
    y: number[];
    vif: number;
    /** null: Infinity (no VIF estimated). */
    degrees: number | null;
    expected: SavageExpected;
  }>;
  /**
   * Subsets of 6 of 16 distinct values far in the upper tail: the exact permutation tail P(S ≥ s)
   * by enumeration of the 8,008 subsets, the Pearson III tail at the same z and skewness, and the
   * reference's savage_greater (the saddlepoint).
   */
  readonly savageExactTail: ReadonlyArray<{
    x: number[];
    y: number[];
    exact: number;
    pearson3: number;
    expected: SavageExpected;
  }>;
  /** `expected` the Wilson–Hilferty form the product uses; `gammaTail` SciPy's exact pearson3.sf. */
  readonly pearson3: ReadonlyArray<{ z: number; skewness: number; expected: number; gammaTail: number }>;
  readonly twoSidedCritical: ReadonlyArray<{ alpha: number; rho: number; gap: number; expected: number }>;
  readonly bivariateNormal: ReadonlyArray<{ h: number; k: number; rho: number; expected: number }>;
  readonly owensT: ReadonlyArray<{ h: number; a: number; expected: number }>;
  /** A periodic component beside the AR process (issue 29). */
  readonly periodic: {
    fits: ReadonlyArray<{
      kind: string;
      values: number[];
      expected: {
        fit: {
          frequency: number;
          amplitude: number;
          periodogram: number;
          searched: number;
          residuals: number[];
          residualSumSquares: number;
        } | null;
        dependence: PeriodicDependenceExpected;
      };
    }>;
    pooled: {
      columns: number[][];
      m: number;
      lag1: number;
      expected: {
        frequency: number;
        amplitude: number;
        periodogram: number;
        dependence: PeriodicDependenceExpected;
      };
    };
    pValues: ReadonlyArray<{ statistic: number; searched: number; expected: number }>;
    spectra: ReadonlyArray<{ coefficients: number[]; omega: number; expected: number }>;
    svd: ReadonlyArray<{
      train: number[];
      eval: number[];
      alertThreshold: AlertThreshold;
      expected: ReferenceVectors["svdCalibrated"][number]["expected"];
    }>;
    mvd: {
      train: number[][];
      eval: number[][];
      alertThreshold: AlertThreshold;
      expected: ReferenceVectors["mvdCalibrated"][number]["expected"];
    };
    cap: {
      train: number[];
      values: number[];
      lsl: number;
      usl: number;
      alertThreshold: AlertThreshold;
      expected: { vif: number; ppkSe: number; ppkUpperBound: number; isCapabilityBreach: boolean };
    };
  };
  /**
   * SVD's law simulated for a fit whose autocorrelations change sign (decision 0304): the factor
   * from 400,000 NumPy draws of the block law, compared at `tolerance` (the TypeScript draws 10,000,
   * 20,000 at high).
   */
  readonly svdSimulatedLaw: ReadonlyArray<{
    kind: string;
    values: number[];
    arCoefficients: number[];
    n: number;
    expected: Record<AlertThreshold, number>;
    tolerance: Record<AlertThreshold, number>;
    /** The TypeScript's own draws (mulberry32, Box–Muller) repeated in NumPy: to 1e-9. */
    exact: Record<AlertThreshold, number>;
  }>;
  /** A gauge's training values, their grid, and the normal reference read on it (SciPy Φ⁻¹). */
  readonly svdGaugeReference: ReadonlyArray<{
    values: number[];
    step: number;
    origin: number;
    expected: { reference: number[]; nullQuantile: Record<AlertThreshold, number> };
  }>;
  /** MVD on dependent rows: the held-out T² factors (from the Toeplitz matrix) and the covariance's degrees for its inverse. */
  readonly mvdDependence: {
    heldOutDeviationFactors: ReadonlyArray<{
      autocorrelations: number[];
      m: number;
      n: number;
      expected: { training: number[]; evaluation: number[] };
    }>;
    inverseCovarianceDegrees: ReadonlyArray<{
      coefficients: number[];
      blocks: number[];
      p: number;
      expected: number;
    }>;
    squaredSeriesLag1VarianceRatio: ReadonlyArray<{
      coefficients: number[];
      autocorrelations: number[];
      p: number;
      expected: number;
    }>;
  };
}

export interface PeriodicDependenceExpected {
  order: number;
  coefficients: number[];
  vif: number;
  uncappedVif: number;
  /** null: Infinity. */
  degrees: number | null;
  effectiveSize: number;
  secondMomentVif: number;
  vifFloor: number;
  acfLength: number;
  autocorrelations: number[];
  /** windowVif(acf, m, max(1, ⌊m/4⌋), vifFloor). */
  windowVif: number;
  /** blockVif(acf, max(1, ⌊m/4⌋), vifFloor). */
  blockVif: number;
  periodic: {
    frequency: number;
    period: number;
    amplitude: number;
    share: number;
    residualVariance: number;
    statistic: number;
    pValue: number;
  } | null;
}

export interface SavageExpected {
  statistic: number;
  z: number;
  skewness: number;
  pValue: number;
}

export const vectors: ReferenceVectors = JSON.parse(
  readFileSync(new URL("../reference/stats-vectors.json", import.meta.url), "utf8"),
);

/** The file's own tolerance: 1e-9 relative unless a vector says otherwise. */
export const RELATIVE_TOLERANCE = 1e-9;

/** |actual − expected| ≤ tolerance · |expected|; an expected 0 must be met exactly. */
export function expectRelativelyClose(
  actual: number,
  expected: number,
  tolerance = RELATIVE_TOLERANCE,
): void {
  const error = Math.abs(actual - expected);
  const allowed = tolerance * Math.abs(expected);
  if (!(error <= allowed)) {
    expect.fail(`expected ${actual} to be within ${tolerance} relative of ${expected} (error ${error})`);
  }
}

type CapDependenceExpected = {
  vif: number;
  ppkSe: number;
  ppkUpperBound: number;
  isCapabilityBreach: boolean;
};
