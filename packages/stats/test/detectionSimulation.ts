// Seeded simulations of in-control and changed processes run through the product's calibrated
// evaluations, called directly: the reduced detection run in src/detectionCalibration.test.ts.
// The detection benchmark (npm run bench:detection) drives the worker's evaluateMonitor instead,
// with its own simulation (apps/server/bench/detection.simulate.ts). Test-only: nothing in src
// imports it.
import { ALERT_THRESHOLD_LEVELS, ALERT_THRESHOLDS, type AlertThreshold } from "../src/alertThreshold.js";
import { evaluateCapCalibrated } from "../src/evaluateCapCalibrated.js";
import { evaluateMvdCalibrated } from "../src/evaluateMvdCalibrated.js";
import { evaluateSvdCalibrated } from "../src/evaluateSvdCalibrated.js";
import { createMatrix } from "../src/matrix.js";
import { normalGenerator } from "./random.js";

/** The kinds of in-control data real lines produce (docs/monitoring.md "Sensitivity"). */
export const DATA_KINDS = ["normal", "lognormal", "t5", "ar1"] as const;
export type DataKind = (typeof DATA_KINDS)[number];

export const DATA_KIND_LABELS: Record<DataKind, string> = {
  normal: "independent normal",
  lognormal: "lognormal σ 0.5",
  t5: "Student t, 5 df",
  ar1: "AR(1) φ 0.5",
};

/** A window as the product splits it: sample_size records, the newest round(size × ratio) evaluate. */
export interface Window {
  readonly sampleSize: number;
  readonly ratio: number;
}

export const WINDOWS: readonly Window[] = [
  { sampleSize: 100, ratio: 0.25 },
  { sampleSize: 150, ratio: 0.2 },
  { sampleSize: 3000, ratio: 0.2 },
];

export function windowLabel(w: Window): string {
  return `${w.sampleSize} × ${w.ratio}`;
}

/** Training (m) and evaluation (n) sizes of a window (docs/monitoring.md "The window"). */
export function windowSplit(w: Window): { m: number; n: number } {
  const n = Math.max(25, Math.round(w.sampleSize * w.ratio));
  return { m: w.sampleSize - n, n };
}

/**
 * A source of standardised (mean 0, sd 1) values of one kind. Lognormal σ 0.5 and t₅ are centred
 * and scaled by their true mean and sd; AR(1) φ 0.5 is started in its stationary law with unit
 * marginal variance. Each call of `series` is one window's fresh, independent stretch of a process.
 */
export class ProcessSource {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = normalGenerator(seed);
  }

  normal(): number {
    return this.next();
  }

  series(kind: DataKind, length: number, out = new Float64Array(length)): Float64Array {
    const next = this.next;
    switch (kind) {
      case "normal":
        for (let i = 0; i < length; i++) out[i] = next();
        break;
      case "lognormal": {
        // E = exp(σ²/2), Var = (exp(σ²) − 1) exp(σ²).
        const s2 = 0.25;
        const mu = Math.exp(s2 / 2);
        const sd = Math.sqrt((Math.exp(s2) - 1) * Math.exp(s2));
        for (let i = 0; i < length; i++) out[i] = (Math.exp(0.5 * next()) - mu) / sd;
        break;
      }
      case "t5": {
        // t₅ = Z / √(χ²₅ / 5), variance 5/3.
        const sd = Math.sqrt(5 / 3);
        for (let i = 0; i < length; i++) {
          let chi = 0;
          for (let k = 0; k < 5; k++) {
            const v = next();
            chi += v * v;
          }
          out[i] = next() / Math.sqrt(chi / 5) / sd;
        }
        break;
      }
      case "ar1": {
        const phi = 0.5;
        const innovation = Math.sqrt(1 - phi * phi);
        let x = next();
        for (let i = 0; i < length; i++) {
          x = phi * x + innovation * next();
          out[i] = x;
        }
        break;
      }
    }
    return out;
  }
}

/** Wilson 95 % interval of a proportion k / n. */
export function wilsonInterval(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface RateCell {
  readonly breaches: number;
  readonly evaluations: number;
  readonly noData: number;
  /** Time spent in the evaluation functions, ms. */
  readonly evaluationMs: number;
}

type Counts = Record<AlertThreshold, number>;

function emptyCounts(): Counts {
  return { low: 0, medium: 0, high: 0 };
}

const now = () => performance.now();

/** A change applied to the evaluation part of a window (standardised units). */
export type Change =
  | { readonly kind: "none" }
  | { readonly kind: "shift"; readonly sigmas: number }
  | { readonly kind: "spread"; readonly factor: number }
  | { readonly kind: "correlationBreak" };

export function changeLabel(change: Change): string {
  switch (change.kind) {
    case "none":
      return "in control";
    case "shift":
      return `mean shift ${change.sigmas} σ`;
    case "spread":
      return `spread × ${change.factor}`;
    case "correlationBreak":
      return "correlation 0.8 → −0.8";
  }
}

/**
 * SVD: `windows` windows of one kind through evaluateSvdCalibrated at each level; the change hits
 * the evaluation values. Returns breaches per level.
 */
export function simulateSvd(
  seed: number,
  kind: DataKind,
  window: Window,
  windows: number,
  change: Change,
  levels: readonly AlertThreshold[] = ALERT_THRESHOLDS,
): { counts: Counts; cell: RateCell } {
  const source = new ProcessSource(seed);
  const { m, n } = windowSplit(window);
  const values = new Float64Array(m + n);
  const counts = emptyCounts();
  let noData = 0;
  let ms = 0;
  let calls = 0;
  for (let w = 0; w < windows; w++) {
    source.series(kind, m + n, values);
    applyToValues(values, m, change);
    const training = values.subarray(0, m);
    const evaluation = values.subarray(m);
    for (const level of levels) {
      const t0 = now();
      const result = evaluateSvdCalibrated(training, evaluation, level);
      ms += now() - t0;
      calls++;
      if (result.state === "NO_DATA") noData++;
      else if (result.breach) counts[level]++;
    }
  }
  return {
    counts,
    cell: { breaches: counts.medium, evaluations: windows, noData, evaluationMs: ms / calls },
  };
}

function applyToValues(values: Float64Array, m: number, change: Change): void {
  if (change.kind === "shift")
    for (let i = m; i < values.length; i++) values[i] = (values[i] as number) + change.sigmas;
  if (change.kind === "spread")
    for (let i = m; i < values.length; i++) values[i] = (values[i] as number) * change.factor;
}

/**
 * MVD: p signals equicorrelated ρ (0.5; 0.8 for the correlation break) built from independent
 * series of one kind (xᵢ = √ρ c + √(1 − ρ) eᵢ, c and eᵢ of that kind), through
 * evaluateMvdCalibrated once per window; a level breaches when p < its α. Shift and spread change
 * signal 0; the correlation break flips the sign of signal 1 in the evaluation rows (ρ → −ρ with
 * every other signal).
 */
export function simulateMvd(
  seed: number,
  kind: DataKind,
  window: Window,
  p: number,
  windows: number,
  change: Change,
): { counts: Counts; cell: RateCell } {
  const source = new ProcessSource(seed);
  const { m, n } = windowSplit(window);
  const rows = m + n;
  const rho = change.kind === "correlationBreak" ? 0.8 : 0.5;
  const a = Math.sqrt(rho);
  const b = Math.sqrt(1 - rho);
  const common = new Float64Array(rows);
  const own = new Float64Array(rows);
  const data = new Float64Array(rows * p);
  const counts = emptyCounts();
  let noData = 0;
  let ms = 0;
  for (let w = 0; w < windows; w++) {
    source.series(kind, rows, common);
    for (let j = 0; j < p; j++) {
      source.series(kind, rows, own);
      for (let i = 0; i < rows; i++)
        data[i * p + j] = 20 + a * (common[i] as number) + b * (own[i] as number);
    }
    for (let i = m; i < rows; i++) {
      if (change.kind === "shift") data[i * p] = (data[i * p] as number) + change.sigmas;
      if (change.kind === "spread") data[i * p] = 20 + ((data[i * p] as number) - 20) * change.factor;
      if (change.kind === "correlationBreak") data[i * p + 1] = 40 - (data[i * p + 1] as number);
    }
    const training = createMatrix(m, p, data.subarray(0, m * p));
    const evaluation = createMatrix(n, p, data.subarray(m * p));
    const t0 = now();
    const result = evaluateMvdCalibrated(training, evaluation, "low", { worstRowCount: 3 });
    ms += now() - t0;
    if (result.state === "NO_DATA") {
      noData++;
      continue;
    }
    for (const level of ALERT_THRESHOLDS)
      if (result.pValue < ALERT_THRESHOLD_LEVELS[level].alpha) counts[level]++;
  }
  return {
    counts,
    cell: { breaches: counts.medium, evaluations: windows, noData, evaluationMs: ms / windows },
  };
}

/**
 * CAP capability: n evaluation values of one kind with true Ppk `ppk` against symmetric spec limits
 * (LSL, USL = ∓3 · ppk σ around the true mean), through evaluateCapCalibrated's capability decision
 * at each level (its p-value against α); `targetPpk: true` puts the process exactly at each level's
 * own target (the α promise). Control limits at ±3σ judge only the newest point, as an evaluation
 * after one new record would; control hits (points outside the limits) are counted separately.
 */
export function simulateCap(
  seed: number,
  kind: DataKind,
  window: Window,
  windows: number,
  ppk: number | "target",
  levels: readonly AlertThreshold[] = ALERT_THRESHOLDS,
): { counts: Counts; controlHits: number; cell: RateCell } {
  const source = new ProcessSource(seed);
  // The window as the product reads it: the older m records give the dependence, the newest n
  // are judged.
  const { m, n } = windowSplit(window);
  const series = new Float64Array(m + n);
  const training = series.subarray(0, m);
  const values = series.subarray(m);
  const counts = emptyCounts();
  let controlHits = 0;
  let noData = 0;
  let ms = 0;
  let calls = 0;
  for (let w = 0; w < windows; w++) {
    source.series(kind, m + n, series);
    for (const level of levels) {
      const index = ppk === "target" ? ALERT_THRESHOLD_LEVELS[level].cpkTarget : ppk;
      const limits = { lsl: -3 * index, usl: 3 * index, lcl: -3, ucl: 3 };
      const t0 = now();
      const result = evaluateCapCalibrated(values, limits, level, {
        firstNewIndex: n - 1,
        dependenceValues: training,
      });
      ms += now() - t0;
      calls++;
      if (result.state === "NO_DATA") {
        noData++;
        continue;
      }
      // The capability part's own test at α (its p-value below α: the bound at α below the
      // target). In the evaluation it is one of two parts, each at α/2 (issue 29), so the
      // evaluation's isCapabilityBreach would count α/2 here.
      const { alpha } = ALERT_THRESHOLD_LEVELS[level];
      if (result.pCapability !== null && result.pCapability < alpha) counts[level]++;
      if (level === "medium" && result.controlHits.length > 0) controlHits++;
    }
  }
  return {
    counts,
    controlHits,
    cell: { breaches: counts.medium, evaluations: windows, noData, evaluationMs: ms / calls },
  };
}
