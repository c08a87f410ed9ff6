// CAP's SPC limits as the evaluation reads them (evaluateCapCalibrated, controlRules): the limits
// handed in, and the readers that give each record its limit and the spec limit all records share.
import { StatsError } from "./statsError.js";

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

/** A limit's value at a record (its index in the values as given), null where it has none. */
export type LimitAt = (row: number) => number | null;

const noLimit: LimitAt = () => null;

/**
 * The reader of one limit over `total` records: a number (finite) everywhere, none for null,
 * undefined or a non-finite number, or one value per record (non-finite = none for that record).
 * Throws DIMENSION_MISMATCH when per-record values do not number `total`.
 */
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
