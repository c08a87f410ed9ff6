import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { type Capability, capability } from "./capability.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { StatsError } from "./statsError.js";
import { MIN_EVALUATION_RECORDS } from "./windowMinimums.js";

/**
 * One limit for the whole evaluation set (a number), none (null or left out), or one value per
 * record as the limit formulas evaluated on that record (a non-finite entry = no limit for that
 * record, e.g. an empty cell).
 */
export type LimitValues = number | null | ArrayLike<number>;

export interface CapLimits {
  readonly lsl?: LimitValues;
  readonly lcl?: LimitValues;
  readonly ucl?: LimitValues;
  readonly usl?: LimitValues;
  /**
   * The signal's single-sided boundary (spec settings "Signal form"): LOWER keeps only the lower
   * limits (LSL, LCL), UPPER only the upper ones; the other side is ignored.
   */
  readonly singleSide?: "LOWER" | "UPPER" | null;
}

export interface CapEvaluation {
  readonly state: EvaluatedState;
  /** Any control violation, or Ppk < the Cpk target. */
  readonly breach: boolean;
  /** Evaluation values used. */
  readonly n: number;
  /** Number of values outside [LCL, UCL] (strictly below LCL or above UCL). */
  readonly controlViolations: number;
  /** Their indices in `values` as given. */
  readonly violationRows: readonly number[];
  /** The spec limits the indices were computed against (null = that side is absent). */
  readonly lsl: number | null;
  readonly usl: number | null;
  /** Cpk target of the alert threshold (1.67 / 1.33 / 1.00). */
  readonly cpkTarget: number;
  /** Capability against the spec limits; null without spec limits or for a constant signal. */
  readonly capability: Capability | null;
  /** Ppk < cpkTarget (false when there is no capability). */
  readonly isPpkBelowTarget: boolean;
  /** Indices of missing or non-finite values that were left out (monitoring.md "The window"). */
  readonly leftOut: readonly number[];
}

/**
 * CAP evaluation of one signal against its SPC limits on the evaluation set, in record (time)
 * order, monitoring.md "CAP": control violations outside [LCL, UCL]; capability against the spec
 * limits (one-sided when only one exists or the signal is single-sided); breach ⇔ any violation
 * or Ppk < the Cpk target. NO_DATA when fewer than 25 values remain (EVALUATION_TOO_SMALL), when
 * the spec limits differ between records (SPEC_LIMITS_DIFFER: one set of indices needs one set of
 * limits), or for a constant signal with no violation and nothing out of spec (CONSTANT_SIGNAL:
 * σ = 0 leaves the indices undefined). A constant signal that is outside its limits breaches.
 */
export function evaluateCap(
  values: ArrayLike<number>,
  limits: CapLimits,
  alertThreshold: AlertThreshold,
): CapEvaluation | NoDataEvaluation {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const total = values.length;
  const keepLower = limits.singleSide !== "UPPER";
  const keepUpper = limits.singleSide !== "LOWER";
  const lcl = keepLower ? limitReader(limits.lcl, total, "LCL") : noLimit;
  const ucl = keepUpper ? limitReader(limits.ucl, total, "UCL") : noLimit;
  const lslAt = keepLower ? limitReader(limits.lsl, total, "LSL") : noLimit;
  const uslAt = keepUpper ? limitReader(limits.usl, total, "USL") : noLimit;

  const kept: number[] = [];
  const keptRows: number[] = [];
  const leftOut: number[] = [];
  for (let i = 0; i < total; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) {
      kept.push(v);
      keptRows.push(i);
    } else leftOut.push(i);
  }
  const n = kept.length;
  if (n < MIN_EVALUATION_RECORDS) {
    return noData(
      "EVALUATION_TOO_SMALL",
      `evaluation set has ${n} values; at least ${MIN_EVALUATION_RECORDS} are needed`,
    );
  }

  const lsl = commonLimit(keptRows, lslAt);
  const usl = commonLimit(keptRows, uslAt);
  if (lsl === "differ" || usl === "differ") {
    return noData("SPEC_LIMITS_DIFFER", `the ${lsl === "differ" ? "LSL" : "USL"} differs between records`);
  }
  if (lsl !== null && usl !== null && !(lsl < usl)) {
    throw new StatsError("INVALID_ARGUMENT", `LSL must be < USL, got ${lsl} and ${usl}`);
  }

  const violationRows: number[] = [];
  let isOutOfSpec = false;
  for (let r = 0; r < n; r++) {
    const v = kept[r] as number;
    const row = keptRows[r] as number;
    const low = lcl(row);
    const high = ucl(row);
    if ((low !== null && v < low) || (high !== null && v > high)) violationRows.push(row);
    if ((lsl !== null && v < lsl) || (usl !== null && v > usl)) isOutOfSpec = true;
  }
  const controlViolations = violationRows.length;

  const isConstant = kept.every((v) => v === kept[0]);
  let cap: Capability | null = null;
  if (isConstant) {
    if (controlViolations === 0 && !isOutOfSpec) return noData("CONSTANT_SIGNAL", "constant signal");
  } else if (lsl !== null || usl !== null) {
    cap = capability(kept, { lsl, usl });
  }
  const isPpkBelowTarget = cap !== null && cap.ppk < level.cpkTarget;
  // A constant value outside its spec limits has Ppk = −∞ in the limit: a breach, not NO_DATA.
  const breach = controlViolations > 0 || isPpkBelowTarget || (isConstant && isOutOfSpec);
  return {
    state: breach ? "BREACH" : "OK",
    breach,
    n,
    controlViolations,
    violationRows,
    lsl,
    usl,
    cpkTarget: level.cpkTarget,
    capability: cap,
    isPpkBelowTarget,
    leftOut,
  };
}

export type LimitAt = (row: number) => number | null;

const noLimit: LimitAt = () => null;

export function limitReader(limit: LimitValues | undefined, total: number, name: string): LimitAt {
  if (limit === undefined || limit === null) return noLimit;
  if (typeof limit === "number") {
    if (!Number.isFinite(limit)) return noLimit;
    return () => limit;
  }
  if (limit.length !== total) {
    throw new StatsError("DIMENSION_MISMATCH", `${name} has ${limit.length} values for ${total} records`);
  }
  return (row) => {
    const v = limit[row] as number;
    return Number.isFinite(v) ? v : null;
  };
}

/** The one value a spec limit takes on the used records, null if none, "differ" if several. */
export function commonLimit(rows: readonly number[], at: LimitAt): number | null | "differ" {
  let value: number | null = null;
  for (const row of rows) {
    const v = at(row);
    if (v === null) continue;
    if (value === null) value = v;
    else if (v !== value) return "differ";
  }
  return value;
}
