import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import {
  arResiduals,
  arVifDegrees,
  type Dependence,
  estimateDependence,
  estimatePooledDependence,
} from "./dependence.js";
import { MIN_COVARIANCE_DEGREES } from "./evaluateMvdCalibrated.js";
import { MIN_SVD_THRESHOLD, svdExpectedThreshold } from "./evaluateSvdCalibrated.js";
import { fitMarginalShape } from "./marginalShape.js";
import { StatsError } from "./statsError.js";
import { pooledAr1Coefficient } from "./varianceInflation.js";
import { MIN_EVALUATION_RECORDS } from "./windowMinimums.js";

/**
 * Whether a window can hold its alert threshold's false-alarm rate for a signal of a given
 * dependence (issue 29): the evaluations divide by a dependence they estimate from the window's
 * own training records, and with strong dependence and few records that estimate is too uncertain
 * (and too often misses the dependence altogether) for any widening to pay for it. Measured: at
 * 25 training records an AR(1) of φ 0.5 (ν 9) breached 3–4α at medium, at 75 (ν 28) 1.45α; an
 * AR(2) of VIF 11 at 120 records (ν 12) 2.9α, at 2400 (ν 245) 0.8α.
 *
 * - A dependence counts when its VIF is at least MATERIAL_VIF (below, a missed or rough estimate
 *   moves a threshold by less than about 10 %).
 * - Then the estimate's degrees of freedom for m training records must reach MIN_DEPENDENCE_DEGREES.
 * - MVD: the covariance's effective degrees (m + n)/(1 + 2 Σ ρ(k)²) − p − 1 must reach
 *   MIN_COVARIANCE_DEGREES.
 */
export const MATERIAL_VIF = 1.5;
export const MIN_DEPENDENCE_DEGREES = 20;
/**
 * A CAP monitor's control rules judge single points by the tail of the process its training values
 * show (controlNullSimulation): with heavy or skewed tails, fewer training records than this cannot
 * pin the tail down. Measured (bench:detection, 600 windows, medium): t₃, t₅ and lognormal at 25–120
 * training records breached 1.5–6α, t₃ at 480 0.5–1α.
 */
export const MIN_TAIL_TRAINING = 400;

/**
 * A CAP monitor holds its level only from this many training records, whatever the signal: below,
 * its two parts are judged on coarse levels (issue 29). The control rules' p-values move in steps
 * (rules 2–4 count points, and 25 values cannot tell a normal tail from a heavier one, so the
 * rules' null is a mixture of shapes), and the capability part cannot tell a capable process from
 * one at its target, so it keeps a share of α it cannot use. Measured on independent normal values
 * with 5 new records an evaluation (bench:detection and evaluateCapCalibrated directly, 4,000–16,000
 * windows, low / medium): spec limits at Ppk 2 over 25 + 25 records 0.71–0.81α / 0.72–0.85α, over
 * 50 + 25 0.84 / 0.82α, 75 + 25 0.80 / 0.78α, 120 + 30 0.89 / 0.84α; at the target over 25 + 25
 * 0.94–0.99α / 1.03–1.43α.
 */
export const MIN_CAP_TRAINING = 50;

/**
 * A signal with a cycle (a periodic component, estimateDependence's `periodic`) holds its level
 * only when the evaluation records span this many of its periods: over fewer, the part of a
 * period each window holds moves the means and the distributions by the cycle's phase, which the
 * dependence law reads only on average. Measured (a sine of period 100 and half the noise's
 * variance, SVD at medium, 2,000–4,000 windows): evaluation sets of 120 records 0.32–0.54α, of 200
 * 0.90α, of 300 0.72α, of 600 0.80–0.85α.
 */
export const MIN_CYCLE_PERIODS_EVALUATED = 2;

/**
 * An SVD monitor's signal whose innovations' fitted t has at most this many degrees of freedom
 * (fitMarginalShape's grid: 2.5–4; no finite kurtosis) breaches more often than α at low whatever
 * the window, and is quiet on the smallest windows. Measured (independent Student t₃, 4,000–10,000
 * windows): at low 1.21α (75 + 25), 1.22–1.29α (480 + 120), 1.21α (2400 + 600) — the kurtosis
 * widening cannot read a tail with no fourth moment (docs/decisions 0294, 0297); medium and high
 * met from 75 training records. t₅ (fitted ν 5–6) and lognormal σ 0.5 meet every level.
 */
export const SVD_HEAVY_TAIL_NU = 4;
/**
 * Training records an SVD monitor needs on a signal of SVD_HEAVY_TAIL_NU tails at any level:
 * at 25 t₃ was 0.55–0.71α at medium and 0.2–0.5α at high (the widening's ν from 25 values' kurtosis
 * pays too much), at 75 1.12α at medium.
 */
export const MIN_SVD_TAIL_TRAINING = 50;

/**
 * What a window that does not hold falls short in. "floor": an SVD threshold that sits at its
 * 0.1 σ floor (docs/monitoring.md "SVD"), so the monitor alarms less often than its level says.
 * "coarse": a CAP monitor with fewer than MIN_CAP_TRAINING training records, whose false alarms
 * stray from its level either way.
 */
export type LevelSupportLimit = "dependence" | "covariance" | "tails" | "cycle" | "floor" | "coarse";

export interface LevelSupport {
  /** False: with this dependence the window cannot hold 1 false alarm in 1/α evaluations. */
  readonly holds: boolean;
  /** m: the window's training records at its sample size and ratio. */
  readonly trainingRecords: number;
  /** m / VIF: how many independent records the training set is worth. */
  readonly effectiveSampleSize: number;
  /** Degrees of freedom of the dependence estimate on m records (Infinity when independent). */
  readonly dependenceDegrees: number;
  /** The smallest sample size (same ratio) that holds; null when none up to MAX_SAMPLE_SIZE does. */
  readonly minimumSampleSize: number | null;
  /** What the window falls short in (null when it holds). */
  readonly limitedBy: LevelSupportLimit | null;
}

export interface LevelSupportOptions {
  /** The signal's tails are heavy or skewed and the monitor's control rules judge them (CAP): MIN_TAIL_TRAINING applies. */
  readonly heavyTails?: boolean;
  /** A CAP monitor: MIN_CAP_TRAINING applies. */
  readonly cap?: boolean;
  /**
   * An SVD monitor at this level: `heavyTails` — the signal's tails have no fourth moment
   * (SVD_HEAVY_TAIL_NU): low never holds, other levels from MIN_SVD_TAIL_TRAINING training records;
   * `floored` — its threshold at this window sits at the 0.1 σ floor (svdExpectedThreshold).
   */
  readonly svd?: { readonly level: AlertThreshold; readonly heavyTails: boolean; readonly floored: boolean };
}

/** Largest sample size the advice looks at (the product's MVD_QUERY_MAX_RECORD_COUNT is of this order). */
export const MAX_ADVISED_SAMPLE_SIZE = 100_000;

/** Degrees of freedom of a dependence's VIF estimate from m records (its order's own law). */
export function dependenceDegreesAt(dependence: Dependence, m: number): number {
  if (dependence.order === 0) return Number.POSITIVE_INFINITY;
  if (dependence.order === 1) {
    const r = dependence.coefficients[0] as number;
    return (m * (1 - r * r)) / 2;
  }
  return arVifDegrees(dependence.coefficients, m);
}

function splitOf(sampleSize: number, ratio: number): { m: number; n: number } {
  const n = Math.min(sampleSize, Math.max(MIN_EVALUATION_RECORDS, Math.round(sampleSize * ratio)));
  return { m: sampleSize - n, n };
}

function limitAt(
  dependence: Dependence,
  m: number,
  n: number,
  signals: number,
  options: LevelSupportOptions,
): LevelSupportLimit | null {
  if (m < 1) return "dependence";
  const cycle = dependence.periodic;
  if (cycle !== null && n < MIN_CYCLE_PERIODS_EVALUATED * cycle.period) return "cycle";
  if (dependence.uncappedVif >= MATERIAL_VIF && dependenceDegreesAt(dependence, m) < MIN_DEPENDENCE_DEGREES)
    return "dependence";
  if (signals > 1) {
    const rows = (m + n) / dependence.secondMomentVif;
    if (rows - signals - 1 < MIN_COVARIANCE_DEGREES) return "covariance";
  }
  if (options.heavyTails === true && m < MIN_TAIL_TRAINING) return "tails";
  if (options.cap === true && m < MIN_CAP_TRAINING) return "coarse";
  const svd = options.svd;
  if (svd?.heavyTails === true && (svd.level === "low" || m < MIN_SVD_TAIL_TRAINING)) return "tails";
  return null;
}

/**
 * Whether a monitor of `signals` signals (1 for SVD and CAP) with this sample size and evaluation
 * ratio holds its level for a signal of this dependence, and the smallest sample size that does.
 * The dependence is best measured on a longer stretch of the signal than the window (the monitor
 * form's preview period); the evaluations measure it on their own window.
 */
export function levelSupport(
  dependence: Dependence,
  sampleSize: number,
  ratio: number,
  signals = 1,
  options: LevelSupportOptions = {},
): LevelSupport {
  if (!Number.isInteger(sampleSize) || sampleSize < 1)
    throw new StatsError("INVALID_ARGUMENT", `sampleSize must be an integer ≥ 1, got ${sampleSize}`);
  if (!(ratio > 0 && ratio < 1))
    throw new StatsError("INVALID_ARGUMENT", `ratio must lie in (0, 1), got ${ratio}`);
  const { m, n } = splitOf(sampleSize, ratio);
  const holdsWith = (size: number) => {
    const split = splitOf(size, ratio);
    return limitAt(dependence, split.m, split.n, signals, options) === null;
  };
  const limit = limitAt(dependence, m, n, signals, options);
  // The floor is of this window's size alone (a larger window only lowers the threshold further):
  // no sample size to advise.
  const floored = limit === null && options.svd?.floored === true;
  const limitedBy: LevelSupportLimit | null = floored ? "floor" : limit;
  const holds = limitedBy === null;
  return {
    holds,
    limitedBy,
    trainingRecords: m,
    effectiveSampleSize: m / dependence.uncappedVif,
    dependenceDegrees: dependenceDegreesAt(dependence, m),
    minimumSampleSize: holds ? sampleSize : floored ? null : smallestHolding(sampleSize, holdsWith),
  };
}

/**
 * The smallest size above `from` for which `holds` is true (the conditions only get easier with
 * more records): doubling, then bisection; null when even MAX_ADVISED_SAMPLE_SIZE does not hold.
 */
function smallestHolding(from: number, holds: (size: number) => boolean): number | null {
  let low = from;
  let high = Math.min(2 * from, MAX_ADVISED_SAMPLE_SIZE);
  while (!holds(high)) {
    if (high >= MAX_ADVISED_SAMPLE_SIZE) return null;
    low = high;
    high = Math.min(2 * high, MAX_ADVISED_SAMPLE_SIZE);
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (holds(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** "1 false alarm in 100 evaluations" for a level: 1/α evaluations. */
export function evaluationsPerFalseAlarm(alertThreshold: AlertThreshold): number {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  return Math.round(1 / level.alpha);
}

export interface MeasuredLevelSupport extends LevelSupport {
  /** The dependence measured (on every record given, not only a window's training set). */
  readonly dependence: Dependence;
  /** Records the dependence was measured on (rows with every signal's value). */
  readonly measuredRecords: number;
  /** The signal's innovations showed heavy or skewed tails (measured only with controlTails). */
  readonly heavyTails: boolean;
}

/**
 * levelSupport for a monitor of these signals, the dependence measured on a stretch of their
 * history (`signals`: one array of values per signal in record order, NaN for a missing value; a
 * longer stretch than the window measures better — the monitor form's preview period). One signal:
 * its finite values; several: the rows where every signal has a value, each signal standardised,
 * constant signals left out, one pooled dependence. Null with fewer than 4 usable records.
 */
export function measureLevelSupport(
  signals: ReadonlyArray<ArrayLike<number>>,
  sampleSize: number,
  ratio: number,
  options: {
    /** A CAP monitor: its control rules judge the signal's tails, and MIN_CAP_TRAINING applies. */
    readonly controlTails?: boolean;
    /** An SVD monitor's level: its heavy tails and its threshold's floor are judged (LevelSupportOptions.svd). */
    readonly svdLevel?: AlertThreshold;
  } = {},
): MeasuredLevelSupport | null {
  if (signals.length === 0) return null;
  const length = Math.min(...signals.map((s) => s.length));
  const rows: number[] = [];
  for (let t = 0; t < length; t++) if (signals.every((s) => Number.isFinite(s[t] as number))) rows.push(t);
  const m = rows.length;
  if (m < 4) return null;
  let dependence: Dependence;
  let heavyTails = false;
  let svd: LevelSupportOptions["svd"];
  if (signals.length === 1) {
    const only = signals[0] as ArrayLike<number>;
    const values = Float64Array.from(rows, (t) => only[t] as number);
    // As the evaluations measure it: a cycle first (estimateDependence's `periodic`).
    dependence = estimateDependence(values, undefined, { periodic: true });
    if (options.controlTails === true) {
      // The shape of the innovations, as a CAP evaluation fits it on its training values (its
      // control rules' null: the plain AR fit, cycle or not).
      const plain = dependence.periodic === null ? dependence : estimateDependence(values);
      const shape = fitMarginalShape(arResiduals(values, plain.coefficients)).shape;
      heavyTails = Number.isFinite(shape.nu) || shape.gamma !== 1;
    }
    if (options.svdLevel !== undefined) {
      const plain = dependence.periodic === null ? dependence : estimateDependence(values);
      const shape = fitMarginalShape(arResiduals(values, plain.coefficients)).shape;
      const { m: trainingRecords, n } = splitOf(sampleSize, ratio);
      const expected = svdExpectedThreshold(values, trainingRecords, n, options.svdLevel, dependence);
      svd = {
        level: options.svdLevel,
        heavyTails: shape.nu <= SVD_HEAVY_TAIL_NU,
        floored: expected !== null && expected < MIN_SVD_THRESHOLD,
      };
    }
  } else {
    const columns: number[] = [];
    let kept = 0;
    for (const s of signals) {
      let sum = 0;
      for (const t of rows) sum += s[t] as number;
      const mu = sum / m;
      let squares = 0;
      for (const t of rows) squares += ((s[t] as number) - mu) ** 2;
      const sd = Math.sqrt(squares / (m - 1));
      if (!(sd > 0)) continue;
      for (const t of rows) columns.push(((s[t] as number) - mu) / sd);
      kept++;
    }
    if (kept === 0) return null;
    const z = Float64Array.from(columns);
    dependence = estimatePooledDependence(z, m, kept, pooledAr1Coefficient(z, m, kept), { periodic: true });
  }
  return {
    ...levelSupport(dependence, sampleSize, ratio, signals.length, {
      heavyTails,
      ...(options.controlTails === true ? { cap: true } : {}),
      ...(svd ? { svd } : {}),
    }),
    dependence,
    measuredRecords: m,
    heavyTails,
  };
}
