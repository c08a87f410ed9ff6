import type { Capability } from "./capability.js";
import { chiSquareQuantile } from "./quantiles.js";
import { StatsError } from "./statsError.js";

/** z of a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

export type Interval = readonly [lower: number, upper: number];

export interface CapabilityIntervals {
  /** 95 % intervals; null where the index is undefined (Cp and Pp of a one-sided process). */
  readonly cp: Interval | null;
  readonly pp: Interval | null;
  readonly cpk: Interval;
  readonly ppk: Interval;
}

/**
 * Bissell's standard error of Cpk or Ppk (monitoring.md "CAP"): √(1/(9 n′) + index² / (2 (n′ − 1))),
 * n′ the effective number of values (n / VIF). Throws INVALID_ARGUMENT for n′ ≤ 1 or a non-finite index.
 */
export function bissellStandardError(index: number, effectiveCount: number): number {
  if (!(effectiveCount > 1)) {
    throw new StatsError("INVALID_ARGUMENT", `the effective count must exceed 1, got ${effectiveCount}`);
  }
  if (!Number.isFinite(index))
    throw new StatsError("INVALID_ARGUMENT", `the index must be finite, got ${index}`);
  return Math.sqrt(1 / (9 * effectiveCount) + (index * index) / (2 * (effectiveCount - 1)));
}

/**
 * 95 % confidence intervals of Cp, Cpk, Pp, Ppk for the line's capability views: Cp and Pp by the
 * chi-square law of the variance with ν = n′ − 1 (Cp · √(χ²_{0.025,ν}/ν) … Cp · √(χ²_{0.975,ν}/ν)),
 * Cpk and Ppk as index ± 1.96 · Bissell's standard error. n′ = n / VIF.
 */
export function capabilityIntervals(cap: Capability, effectiveCount: number): CapabilityIntervals {
  const nu = effectiveCount - 1;
  if (!(nu > 0))
    throw new StatsError("INVALID_ARGUMENT", `the effective count must exceed 1, got ${effectiveCount}`);
  const low = Math.sqrt(chiSquareQuantile(0.025, nu) / nu);
  const high = Math.sqrt(chiSquareQuantile(0.975, nu) / nu);
  const ratio = (value: number | null): Interval | null =>
    value === null ? null : [value * low, value * high];
  const around = (value: number): Interval => {
    const se = bissellStandardError(value, effectiveCount);
    return [value - Z_95 * se, value + Z_95 * se];
  };
  return { cp: ratio(cap.cp), pp: ratio(cap.pp), cpk: around(cap.cpk), ppk: around(cap.ppk) };
}
