// The detection benchmark's simulation (npm run bench:detection, detection.bench.ts; issue 29 parts
// 1 and 5): seeded in-control and changed processes of the kinds real lines produce, made into the
// worker's own `Window` (records with increasing ts) and `EvaluationSettings` (from a stored monitor
// filter through `monitorEvaluationSettings`, so the window splits as the worker splits it), and
// judged by the worker's own `evaluateMonitor`. Test code: nothing in src imports it. The cells it
// runs are plain data (CellSpec), so worker threads can run them (detection.thread.ts).
import { parseStoredMonitorFilter, QUERY_BOUNDS, type TMonitorType } from "@linewatch/contracts";
import {
  ALERT_THRESHOLD_LEVELS,
  ALERT_THRESHOLDS,
  type AlertThreshold,
  measureLevelSupport,
  normalUpperTail,
  suggestControlLimits,
} from "@linewatch/stats";
import { normalGenerator, uniformGenerator } from "../../../packages/stats/test/random.js";
import {
  type EvaluationResult,
  type EvaluationSettings,
  evaluateMonitor,
  evaluationSetSize,
  monitorEvaluationSettings,
  type Window,
  type WindowRecord,
  type WindowSignal,
} from "../src/modules/evaluation/evaluate.js";

// ── Process families ─────────────────────────────────────────────────────────────────────────

/**
 * A stationary in-control process of unit marginal variance and mean 0 (signal units come later).
 * `quantum` rounds the final value to that many σ (a gauge's resolution) and rescales it to unit
 * variance again.
 */
export type Process =
  | { readonly kind: "normal" }
  | { readonly kind: "ar1"; readonly phi: number }
  | { readonly kind: "ar2"; readonly phi1: number; readonly phi2: number }
  | {
      readonly kind: "periodic";
      readonly period: number;
      /** Of the sine, in σ of the noise. */
      readonly amplitude: number;
      /** AR(1) coefficient of the noise (0: independent). */
      readonly noisePhi: number;
    }
  | { readonly kind: "t"; readonly df: number }
  | { readonly kind: "lognormal"; readonly sigma: number }
  | { readonly kind: "quantised"; readonly quantum: number };

export interface Family {
  readonly id: string;
  readonly label: string;
  readonly process: Process;
}

export const FAMILIES: readonly Family[] = [
  { id: "normal", label: "independent normal", process: { kind: "normal" } },
  { id: "ar1-0.5", label: "AR(1) φ 0.5", process: { kind: "ar1", phi: 0.5 } },
  { id: "ar1-0.7", label: "AR(1) φ 0.7", process: { kind: "ar1", phi: 0.7 } },
  { id: "ar1-0.9", label: "AR(1) φ 0.9", process: { kind: "ar1", phi: 0.9 } },
  { id: "ar2", label: "AR(2) φ 0.5, 0.3", process: { kind: "ar2", phi1: 0.5, phi2: 0.3 } },
  {
    id: "ar2-cyclic",
    label: "AR(2) φ 1.6, −0.8 (cyclic)",
    process: { kind: "ar2", phi1: 1.6, phi2: -0.8 },
  },
  {
    id: "periodic",
    label: "sine P 100 + normal",
    process: { kind: "periodic", period: 100, amplitude: 1, noisePhi: 0 },
  },
  {
    id: "periodic-ar1",
    label: "sine P 100 + AR(1) 0.5",
    process: { kind: "periodic", period: 100, amplitude: 1, noisePhi: 0.5 },
  },
  { id: "t3", label: "Student t₃", process: { kind: "t", df: 3 } },
  { id: "t5", label: "Student t₅", process: { kind: "t", df: 5 } },
  { id: "lognormal", label: "lognormal σ 0.5", process: { kind: "lognormal", sigma: 0.5 } },
  { id: "quantised", label: "normal, gauge 0.5 σ", process: { kind: "quantised", quantum: 0.5 } },
];

export function familyOf(id: string): Family {
  const f = FAMILIES.find((x) => x.id === id);
  if (!f) throw new Error(`unknown family ${id}`);
  return f;
}

/** Standard deviation of a standard normal rounded to multiples of `quantum`. */
function quantisedSd(quantum: number): number {
  // P(round(Z/q) = k) = Φ((k + ½) q) − Φ((k − ½) q); mean 0 by symmetry.
  let variance = 0;
  for (let k = 1; k * quantum < 12; k++) {
    const mass = normalUpperTail((k - 0.5) * quantum) - normalUpperTail((k + 0.5) * quantum);
    variance += 2 * mass * (k * quantum) ** 2;
  }
  return Math.sqrt(variance);
}

/**
 * A seeded source of fresh stretches of a process. Each `fill` is a new, independent stretch
 * started in the stationary law (AR: the first values drawn from their joint stationary law;
 * periodic: a uniform random phase), scaled to mean 0 and unit marginal variance.
 */
export class ProcessStream {
  private readonly normal: () => number;
  private readonly uniform: () => number;
  private readonly quantisedSds = new Map<number, number>();

  constructor(seed: number) {
    this.normal = normalGenerator(seed >>> 0);
    this.uniform = uniformGenerator((seed ^ 0x5bd1e995) >>> 0);
  }

  fill(process: Process, out: Float64Array): Float64Array {
    const next = this.normal;
    const length = out.length;
    switch (process.kind) {
      case "normal":
        for (let i = 0; i < length; i++) out[i] = next();
        break;
      case "ar1": {
        const { phi } = process;
        const innovation = Math.sqrt(1 - phi * phi);
        let x = next();
        for (let i = 0; i < length; i++) {
          if (i > 0) x = phi * x + innovation * next();
          out[i] = x;
        }
        break;
      }
      case "ar2": {
        // Unit variance: ρ₁ = φ₁/(1 − φ₂), ρ₂ = φ₁ρ₁ + φ₂, innovation variance 1 − φ₁ρ₁ − φ₂ρ₂;
        // (x₀, x₁) from their stationary bivariate normal law.
        const { phi1, phi2 } = process;
        const rho1 = phi1 / (1 - phi2);
        const rho2 = phi1 * rho1 + phi2;
        const innovation = Math.sqrt(1 - phi1 * rho1 - phi2 * rho2);
        let x2 = next();
        let x1 = rho1 * x2 + Math.sqrt(1 - rho1 * rho1) * next();
        for (let i = 0; i < length; i++) {
          if (i === 0) out[i] = x2;
          else if (i === 1) out[i] = x1;
          else {
            const x = phi1 * x1 + phi2 * x2 + innovation * next();
            x2 = x1;
            x1 = x;
            out[i] = x;
          }
        }
        break;
      }
      case "periodic": {
        const { period, amplitude, noisePhi } = process;
        const phase = 2 * Math.PI * this.uniform();
        const sd = Math.sqrt(1 + (amplitude * amplitude) / 2);
        const innovation = Math.sqrt(1 - noisePhi * noisePhi);
        let e = next();
        for (let i = 0; i < length; i++) {
          if (i > 0) e = noisePhi * e + innovation * next();
          out[i] = (amplitude * Math.sin((2 * Math.PI * i) / period + phase) + e) / sd;
        }
        break;
      }
      case "t": {
        // t_ν = Z / √(χ²_ν / ν), variance ν / (ν − 2).
        const { df } = process;
        const sd = Math.sqrt(df / (df - 2));
        for (let i = 0; i < length; i++) {
          let chi = 0;
          for (let k = 0; k < df; k++) {
            const v = next();
            chi += v * v;
          }
          out[i] = next() / Math.sqrt(chi / df) / sd;
        }
        break;
      }
      case "lognormal": {
        // E = exp(σ²/2), Var = (exp(σ²) − 1) exp(σ²).
        const s2 = process.sigma * process.sigma;
        const mu = Math.exp(s2 / 2);
        const sd = Math.sqrt((Math.exp(s2) - 1) * Math.exp(s2));
        for (let i = 0; i < length; i++) out[i] = (Math.exp(process.sigma * next()) - mu) / sd;
        break;
      }
      case "quantised": {
        for (let i = 0; i < length; i++) out[i] = next();
        this.quantise(process.quantum, out);
        break;
      }
    }
    return out;
  }

  /** Rounds unit-variance normal values to multiples of `quantum` and rescales to unit variance. */
  quantise(quantum: number, values: Float64Array): void {
    let sd = this.quantisedSds.get(quantum);
    if (sd === undefined) {
      sd = quantisedSd(quantum);
      this.quantisedSds.set(quantum, sd);
    }
    for (let i = 0; i < values.length; i++)
      values[i] = (Math.round((values[i] as number) / quantum) * quantum) / sd;
  }
}

// ── Windows as the worker forms them ─────────────────────────────────────────────────────────

/** A monitor's records window: sample_size and evaluation_ratio of its stored filter. */
export interface WindowShape {
  readonly sampleSize: number;
  readonly ratio: number;
}

export const WINDOW_SHAPES: readonly WindowShape[] = [
  { sampleSize: 50, ratio: 0.2 },
  { sampleSize: 100, ratio: 0.25 },
  { sampleSize: 150, ratio: 0.2 },
  { sampleSize: 600, ratio: 0.2 },
  { sampleSize: 3000, ratio: 0.2 },
];

export const windowLabel = (w: WindowShape) => `${w.sampleSize} × ${w.ratio}`;

/** Training and evaluation records of a full window, as the worker splits it (splitWindow). */
export function windowSizes(w: WindowShape): { m: number; n: number } {
  const n = Math.min(w.sampleSize, evaluationSetSize(w.sampleSize, w.ratio));
  return { m: w.sampleSize - n, n };
}

/** The evaluation settings the worker builds from a saved monitor with this filter. */
export function workerSettings(
  type: TMonitorType,
  level: AlertThreshold,
  shape: WindowShape,
  previousLastRecordTs: Date | null,
  runRules: readonly (2 | 3 | 4)[] = [],
) {
  const filter = parseStoredMonitorFilter({
    sample_size: shape.sampleSize,
    evaluation_ratio: shape.ratio,
    ...(type === "cap" ? { run_rules: [...runRules] } : {}),
  });
  return monitorEvaluationSettings({ type, alertThreshold: level, filter }, previousLastRecordTs);
}

const T0 = Date.UTC(2026, 0, 5, 6, 0, 0);
const RECORD_SPACING_MS = 60_000;

/** Records oldest first, a minute apart; `columns[j][i]` is signal j of record i. */
function recordsOf(columns: readonly Float64Array[], length: number): WindowRecord[] {
  const records: WindowRecord[] = new Array(length);
  for (let i = 0; i < length; i++) {
    const values = new Array<number>(columns.length);
    for (let j = 0; j < columns.length; j++) values[j] = (columns[j] as Float64Array)[i] as number;
    records[i] = {
      ts: new Date(T0 + i * RECORD_SPACING_MS),
      partId: `P${String(i).padStart(6, "0")}`,
      modelNumber: null,
      values,
    };
  }
  return records;
}

const signalsOf = (p: number): WindowSignal[] =>
  Array.from({ length: p }, (_, j) => ({
    id: `00000000-0000-4000-8000-${String(j).padStart(12, "0")}`,
    name: `Signal ${j + 1}`,
    stationId: "00000000-0000-4000-8000-000000000100",
    singleSide: null,
  }));

/**
 * The previous evaluation's newest record: `newPoints` records before the window's newest, so the
 * evaluation has that many new records; null is a monitor's first evaluation.
 */
function previousTs(records: readonly WindowRecord[], newPoints: number | null): Date | null {
  if (newPoints === null) return null;
  return records[records.length - 1 - newPoints]?.ts ?? null;
}

// ── Cells ────────────────────────────────────────────────────────────────────────────────────

// A change in the evaluation records (the newest n of the window), in σ of the signal: the
// packages/stats simulation's own type and labels.
export { type Change, changeLabel } from "../../../packages/stats/test/detectionSimulation.js";

import type { Change } from "../../../packages/stats/test/detectionSimulation.js";

/** CAP's spec limits: at each level's Cpk target (the α promise), or at a fixed Ppk. */
export type CapSpec = { readonly kind: "target" } | { readonly kind: "ppk"; readonly ppk: number };

/** One cell of the benchmark: plain data, so a worker thread can run it. */
export interface CellSpec {
  readonly method: "svd" | "mvd" | "cap";
  readonly family: string;
  readonly shape: WindowShape;
  /** mvd: number of signals. */
  readonly p?: number;
  /** mvd: equicorrelation of the signals (the correlation break uses 0.8). */
  readonly correlation?: number;
  /** cap: spec limits, and whether the run rules 2–4 are on (rule 1 always is). */
  readonly capSpec?: CapSpec;
  readonly runRules?: readonly (2 | 3 | 4)[];
  /** cap: records of the preceding stretch "Suggest control limits" reads. */
  readonly suggestRecords?: number;
  /** New records since the previous evaluation; null = the monitor's first evaluation. */
  readonly newPoints: number | null;
  readonly change: Change;
  readonly levels: readonly AlertThreshold[];
}

export interface LevelTally {
  /** Windows evaluated (neither NO_DATA nor ERROR). */
  evaluated: number;
  breaches: number;
  noData: number;
  errors: number;
  /** Evaluations whose details say the configuration cannot hold its level (calibration.holds false). */
  labelled: number;
  /** Sum and count of details' numeric effectiveSampleSize. */
  essSum: number;
  essCount: number;
  /** cap: breaches with a control signal, with a capability breach. */
  controlBreaches: number;
  capabilityBreaches: number;
  /** mvd: breaches the mean test decided (p_mean ≤ p_struct), and the structure test. */
  meanBreaches: number;
  structureBreaches: number;
}

export interface CellResult {
  readonly windows: number;
  readonly levels: Partial<Record<AlertThreshold, LevelTally>>;
  readonly firstNoDataReason: string | null;
  readonly firstErrorReason: string | null;
  /** Time inside evaluateMonitor, ms, and its calls. */
  readonly evaluationMs: number;
  readonly calls: number;
  /** Wall time of the whole cell (simulation included), ms. */
  readonly wallMs: number;
  /**
   * What the monitor form's preview says up front of this configuration: measureLevelSupport on
   * PREVIEW_RECORDS records of the same process (the previewed period), judging the cell's sample
   * size and ratio; false = the form warns that the window cannot hold its level.
   */
  readonly previewHolds: boolean | null;
  /** The smallest sample size the preview advises (null: none up to 100,000 or it holds). */
  readonly previewMinimum: number | null;
  /** SVD: the preview's judgement at each level (its heavy tails and threshold floor are level's own). */
  readonly previewLevelHolds: Partial<Record<AlertThreshold, boolean | null>>;
}

/** Records of the process the up-front (preview) measurement reads: a period of a few days. */
export const PREVIEW_RECORDS = 2000;

/**
 * The preview's judgement of a cell: one fresh stretch of PREVIEW_RECORDS in-control records
 * (another seed than the cell's windows), its signals' dependence measured as the preview
 * measures it, the cell's own sample size and ratio judged.
 */
export function previewSupport(
  spec: CellSpec,
  seed: number,
  level?: AlertThreshold,
): { holds: boolean | null; minimum: number | null } {
  const stretch: CellSpec = {
    ...spec,
    method: spec.method === "cap" ? "svd" : spec.method,
    shape: { sampleSize: PREVIEW_RECORDS, ratio: spec.shape.ratio },
    change: { kind: "none" },
    suggestRecords: 0,
  };
  const first = simulateWindows(stretch, seed ^ 0x5f3759df, 1).next();
  if (first.done) return { holds: null, minimum: null };
  const records = first.value.records;
  const p = records[0]?.values.length ?? 0;
  const columns = Array.from({ length: p }, (_, j) => records.map((r) => r.values[j] ?? Number.NaN));
  const support = measureLevelSupport(columns, spec.shape.sampleSize, spec.shape.ratio, {
    controlTails: spec.method === "cap",
    // SVD: the form's preview judges the monitor's own level too (its heavy tails, its floor).
    ...(spec.method === "svd" && level !== undefined ? { svdLevel: level } : {}),
  });
  return support
    ? { holds: support.holds, minimum: support.holds ? null : support.minimumSampleSize }
    : { holds: null, minimum: null };
}

const emptyTally = (): LevelTally => ({
  evaluated: 0,
  breaches: 0,
  noData: 0,
  errors: 0,
  labelled: 0,
  essSum: 0,
  essCount: 0,
  controlBreaches: 0,
  capabilityBreaches: 0,
  meanBreaches: 0,
  structureBreaches: 0,
});

/** The first numeric `effectiveSampleSize` in the details (top level or nested objects), if any. */
export function effectiveSampleSizeOf(value: unknown, depth = 0): number | null {
  if (value === null || typeof value !== "object" || Array.isArray(value) || depth > 3) return null;
  const record = value as Record<string, unknown>;
  const own = record.effectiveSampleSize;
  if (typeof own === "number" && Number.isFinite(own)) return own;
  for (const v of Object.values(record)) {
    const found = effectiveSampleSizeOf(v, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function isLabelledUnableToHold(details: unknown): boolean {
  if (details === null || typeof details !== "object") return false;
  const calibration = (details as { calibration?: unknown }).calibration;
  return (
    calibration !== null &&
    typeof calibration === "object" &&
    (calibration as { holds?: unknown }).holds === false
  );
}

function tally(t: LevelTally, r: EvaluationResult): void {
  if (r.state === "NO_DATA") t.noData++;
  else if (r.state === "ERROR") t.errors++;
  else {
    t.evaluated++;
    if (r.state === "BREACH") {
      t.breaches++;
      const d = r.details as {
        kind?: string;
        isControlBreach?: boolean;
        isCapabilityBreach?: boolean;
        p_mean?: number;
        p_struct?: number;
      } | null;
      if (d?.kind === "cap") {
        if (d.isControlBreach) t.controlBreaches++;
        if (d.isCapabilityBreach) t.capabilityBreaches++;
      }
      if (d?.kind === "mvd" && typeof d.p_mean === "number" && typeof d.p_struct === "number") {
        if (d.p_mean <= d.p_struct) t.meanBreaches++;
        else t.structureBreaches++;
      }
    }
  }
  if (isLabelledUnableToHold(r.details)) t.labelled++;
  const ess = effectiveSampleSizeOf(r.details);
  if (ess !== null) {
    t.essSum += ess;
    t.essCount++;
  }
}

/** Signal units: SVD and CAP one gauge; MVD p signals with sd from 1e-3 to 1e3 and means far from 0. */
export function signalScale(p: number, j: number): { mean: number; sd: number } {
  if (p === 1) return { mean: 250, sd: 0.5 };
  const sd = 10 ** (-3 + (6 * j) / (p - 1));
  const sign = j % 2 === 0 ? 1 : -1;
  return { mean: sign * (1000 * sd + 10 ** (j % 4)), sd };
}

/** One simulated window of a cell: the worker's settings and Window at each level. */
export interface SimulatedWindow {
  readonly records: readonly WindowRecord[];
  /** cap: the suggested control limits (null for svd and mvd). */
  readonly controlLimits: { lcl: number; ucl: number } | null;
  settings(level: AlertThreshold): EvaluationSettings;
  window(level: AlertThreshold): Window;
}

/** The cell's `windows` fresh windows, one after the other (the same seed gives the same windows). */
export function* simulateWindows(spec: CellSpec, seed: number, windows: number): Generator<SimulatedWindow> {
  const family = familyOf(spec.family);
  const stream = new ProcessStream(seed);
  const { m } = windowSizes(spec.shape);
  const length = spec.shape.sampleSize;
  const p = spec.method === "mvd" ? (spec.p ?? 2) : 1;
  const signals = signalsOf(p);
  const rho = spec.change.kind === "correlationBreak" ? 0.8 : (spec.correlation ?? 0.3);
  const a = Math.sqrt(rho);
  const b = Math.sqrt(1 - rho);
  const quantum = family.process.kind === "quantised" ? family.process.quantum : null;
  // MVD's signals mix a common and an own stretch of the family's process; a gauge's rounding
  // applies to each signal's final value.
  const base: Process = quantum === null ? family.process : { kind: "normal" };
  const suggestRecords = spec.method === "cap" ? (spec.suggestRecords ?? 0) : 0;
  const total = suggestRecords + length;
  const common = new Float64Array(total);
  const own = new Float64Array(total);
  const before = new Float64Array(suggestRecords);
  const columns = Array.from({ length: p }, () => new Float64Array(length));

  for (let w = 0; w < windows; w++) {
    let controlLimits: { lcl: number; ucl: number } | null = null;
    if (p === 1) {
      stream.fill(base, common);
      if (quantum !== null) stream.quantise(quantum, common);
      const { mean, sd } = signalScale(1, 0);
      const col = columns[0] as Float64Array;
      for (let i = 0; i < length; i++) col[i] = mean + sd * (common[suggestRecords + i] as number);
      if (suggestRecords > 0) {
        // "Suggest control limits" on the stretch before the window, as the SPC limits service
        // calls it (suggestControlLimits of the period's values, rounded to 6 places).
        for (let i = 0; i < suggestRecords; i++) before[i] = mean + sd * (common[i] as number);
        const s = suggestControlLimits(before);
        if (!s) throw new Error("no control limits suggested");
        const round = (x: number) => Math.round(x * 1e6) / 1e6;
        controlLimits = { lcl: round(s.lcl), ucl: round(s.ucl) };
      }
    } else {
      stream.fill(base, common);
      for (let j = 0; j < p; j++) {
        stream.fill(base, own);
        const col = columns[j] as Float64Array;
        for (let i = 0; i < length; i++) col[i] = a * (common[i] as number) + b * (own[i] as number);
        if (quantum !== null) stream.quantise(quantum, col);
        const { mean, sd } = signalScale(p, j);
        for (let i = 0; i < length; i++) col[i] = mean + sd * (col[i] as number);
      }
    }
    applyChange(spec.change, columns, m, p);
    const records = recordsOf(columns, length);
    const previous = previousTs(records, spec.newPoints);
    const limits = controlLimits;
    yield {
      records,
      controlLimits: limits,
      settings: (level) => workerSettings(spec.method, level, spec.shape, previous, spec.runRules),
      window: (level) => ({
        signals,
        references: [],
        records,
        ...(spec.method === "cap" ? { limits: { "*": capLimits(spec.capSpec, level, limits) } } : {}),
      }),
    };
  }
}

/** Runs one cell: `windows` fresh windows through evaluateMonitor at each of the cell's levels. */
export function runCell(spec: CellSpec, seed: number, windows: number): CellResult {
  const started = performance.now();
  const tallies: Partial<Record<AlertThreshold, LevelTally>> = {};
  for (const level of spec.levels) tallies[level] = emptyTally();
  let firstNoDataReason: string | null = null;
  let firstErrorReason: string | null = null;
  let evaluationMs = 0;
  let calls = 0;
  for (const simulated of simulateWindows(spec, seed, windows)) {
    for (const level of spec.levels) {
      const window = simulated.window(level);
      const settings = simulated.settings(level);
      const t0 = performance.now();
      const r = evaluateMonitor(settings, window);
      evaluationMs += performance.now() - t0;
      calls++;
      tally(tallies[level] as LevelTally, r);
      if (r.state === "NO_DATA") firstNoDataReason ??= r.reason;
      if (r.state === "ERROR") firstErrorReason ??= r.reason;
    }
  }
  const preview = previewSupport(spec, seed);
  const previewLevelHolds: Partial<Record<AlertThreshold, boolean | null>> = {};
  if (spec.method === "svd")
    for (const level of ALERT_THRESHOLDS) previewLevelHolds[level] = previewSupport(spec, seed, level).holds;
  return {
    previewLevelHolds,
    windows,
    levels: tallies,
    previewHolds: preview.holds,
    previewMinimum: preview.minimum,
    firstNoDataReason,
    firstErrorReason,
    evaluationMs,
    calls,
    wallMs: performance.now() - started,
  };
}

/** Changes the evaluation records (index ≥ m): signal 0 shifts or spreads, signal 1 mirrors. */
function applyChange(change: Change, columns: Float64Array[], m: number, p: number): void {
  if (change.kind === "none") return;
  const scale0 = signalScale(p, 0);
  const col0 = columns[0] as Float64Array;
  for (let i = m; i < col0.length; i++) {
    if (change.kind === "shift") col0[i] = (col0[i] as number) + change.sigmas * scale0.sd;
    if (change.kind === "spread") col0[i] = scale0.mean + ((col0[i] as number) - scale0.mean) * change.factor;
  }
  if (change.kind === "correlationBreak") {
    const scale1 = signalScale(p, 1);
    const col1 = columns[1] as Float64Array;
    for (let i = m; i < col1.length; i++) col1[i] = 2 * scale1.mean - (col1[i] as number);
  }
}

/**
 * CAP's limits as Window.limits formulas (numbers as strings): spec limits symmetric around the
 * process mean at ±3 · Ppk σ (Ppk = the level's Cpk target, or the cell's), control limits from the
 * suggestion.
 */
function capLimits(
  spec: CapSpec | undefined,
  level: AlertThreshold,
  control: { lcl: number; ucl: number } | null,
) {
  const { mean, sd } = signalScale(1, 0);
  const ppk = !spec || spec.kind === "target" ? ALERT_THRESHOLD_LEVELS[level].cpkTarget : spec.ppk;
  return {
    lsl: String(mean - 3 * ppk * sd),
    lcl: control ? String(control.lcl) : null,
    ucl: control ? String(control.ucl) : null,
    usl: String(mean + 3 * ppk * sd),
  };
}

/** Records "Suggest control limits" reads at most (MVD_QUERY_MAX_RECORD_COUNT's default). */
export const SUGGEST_RECORDS = QUERY_BOUNDS.defaultMaxRecordCount;

/** Wilson 95 % interval of a proportion k / n. */
export function wilsonInterval(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
