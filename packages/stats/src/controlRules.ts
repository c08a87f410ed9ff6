import { type LimitAt, type LimitValues, limitReader } from "./evaluateCap.js";

/** Western Electric rules: 1 a point outside the control limits; 2 two of three beyond 2σ on one side; 3 four of five beyond 1σ on one side; 4 eight in a row on one side of the centre line. */
export type ControlRule = 1 | 2 | 3 | 4;

/** The run rules turned on besides rule 1 (which always applies). They need both LCL and UCL. */
export interface RunRules {
  readonly rule2?: boolean;
  readonly rule3?: boolean;
  readonly rule4?: boolean;
}

export interface ControlRuleHit {
  readonly rule: ControlRule;
  /** Index in `values` of the new point that fired the rule (the run ends there). */
  readonly row: number;
  readonly value: number;
}

/** Every rule 1–4 (the capability view marks them all). */
export const ALL_RUN_RULES: RunRules = { rule2: true, rule3: true, rule4: true };

/**
 * Western Electric rules over a whole series in record order (the capability view's I chart):
 * each point judged, rule 1 against its own LCL/UCL, rules 2–4 (those turned on) with the centre
 * line and σ of each point's own limits (judgeControlRules). Non-finite values are left out and
 * their neighbours join. A limit is one number, one value per record (NaN = none) or null.
 * Throws DIMENSION_MISMATCH when a per-record limit's length is not the values'.
 */
export function controlRuleHits(
  values: ArrayLike<number>,
  limits: { readonly lcl: LimitValues; readonly ucl: LimitValues },
  runRules: RunRules = ALL_RUN_RULES,
): ControlRuleHit[] {
  const total = values.length;
  const lclAt = limitReader(limits.lcl, total, "LCL");
  const uclAt = limitReader(limits.ucl, total, "UCL");
  const kept: number[] = [];
  const keptRows: number[] = [];
  for (let i = 0; i < total; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) {
      kept.push(v);
      keptRows.push(i);
    }
  }
  return judgeControlRules(kept, keptRows, lclAt, uclAt, 0, runRules);
}

/**
 * Rule 1 on each new point; rules 2–4 (when on) over the values in record order with the centre
 * line (LCL + UCL)/2 and σ = (UCL − LCL)/6 of each point's own limits, a rule firing at a new point
 * when the run it completes ends there and that point is part of the pattern. Points without both
 * control limits are skipped by rules 2–4 (and break their runs).
 */
export function judgeControlRules(
  kept: readonly number[],
  keptRows: readonly number[],
  lclAt: LimitAt,
  uclAt: LimitAt,
  firstNewIndex: number,
  runRules: RunRules,
): ControlRuleHit[] {
  const hits: ControlRuleHit[] = [];
  // Zone of each point: signed number of σ from the centre line, or null without both limits.
  const sigmas: (number | null)[] = kept.map((v, k) => {
    const low = lclAt(keptRows[k] as number);
    const high = uclAt(keptRows[k] as number);
    if (low === null || high === null || !(high > low)) return null;
    return (v - (low + high) / 2) / ((high - low) / 6);
  });
  const beyond = (k: number, sign: number, zone: number): boolean => {
    const s = sigmas[k];
    return s !== null && s !== undefined && sign * s > zone;
  };
  for (let k = 0; k < kept.length; k++) {
    const row = keptRows[k] as number;
    if (row < firstNewIndex) continue;
    const v = kept[k] as number;
    const low = lclAt(row);
    const high = uclAt(row);
    if ((low !== null && v < low) || (high !== null && v > high)) hits.push({ rule: 1, row, value: v });
    const s = sigmas[k];
    if (s === null || s === undefined || s === 0) continue;
    const sign = Math.sign(s);
    const countBeyond = (window: number, zone: number): number | null => {
      if (k - window + 1 < 0) return null;
      let count = 0;
      for (let j = k - window + 1; j <= k; j++) {
        if (sigmas[j] === null) return null;
        if (beyond(j, sign, zone)) count++;
      }
      return count;
    };
    if (runRules.rule2 === true && beyond(k, sign, 2) && (countBeyond(3, 2) ?? 0) >= 2) {
      hits.push({ rule: 2, row, value: v });
    }
    if (runRules.rule3 === true && beyond(k, sign, 1) && (countBeyond(5, 1) ?? 0) >= 4) {
      hits.push({ rule: 3, row, value: v });
    }
    if (runRules.rule4 === true && (countBeyond(8, 0) ?? 0) >= 8) hits.push({ rule: 4, row, value: v });
  }
  return hits;
}
