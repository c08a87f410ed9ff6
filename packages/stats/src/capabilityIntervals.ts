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
 * Bissell's standard error of Cpk or Ppk (docs/monitoring.md "CAP"): √(1/(9 n′) + index² / (2 (n′ − 1))),
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
 * What the uncertainty of a capability index depends on beyond n: the effective sizes of the mean
 * (n / VIF) and of the variance (n / VIF₂, VIF₂ = (1 + ρ²)/(1 − ρ²) for an AR(1) of ρ: squared
 * deviations are less alike than the values), and the kurtosis κ (3 for normal data; the variance
 * of s grows with κ − 1).
 */
export interface CapabilityUncertainty {
  readonly meanCount: number;
  readonly varianceCount: number;
  readonly kurtosis: number;
  /**
   * The skewness γ (0 for symmetric data, the default): the mean and s of skewed values move
   * together (Cov(x̄, s) ≈ γ σ² / 2n), which widens one side's index and narrows the other's
   * (capabilitySideStandardError).
   */
  readonly skewness?: number;
}

/**
 * Bissell's standard error generalised: √(1/(9 n_mean) + index² (κ − 1)/(4 (n_var − 1))). With
 * κ = 3 and n_mean = n_var = n′ it is bissellStandardError. Throws INVALID_ARGUMENT for n_var ≤ 1,
 * κ < 1 or a non-finite index.
 */
export function capabilityStandardError(index: number, uncertainty: CapabilityUncertainty): number {
  const { meanCount, varianceCount, kurtosis } = uncertainty;
  if (!(varianceCount > 1) || !(meanCount > 0)) {
    throw new StatsError(
      "INVALID_ARGUMENT",
      `the effective counts must exceed 1, got ${meanCount} and ${varianceCount}`,
    );
  }
  if (!(kurtosis >= 1)) throw new StatsError("INVALID_ARGUMENT", `the kurtosis must be ≥ 1, got ${kurtosis}`);
  if (!Number.isFinite(index))
    throw new StatsError("INVALID_ARGUMENT", `the index must be finite, got ${index}`);
  return Math.sqrt(1 / (9 * meanCount) + (index * index * (kurtosis - 1)) / (4 * (varianceCount - 1)));
}

/**
 * Standard error of one side's index, Ppu = (USL − x̄)/3s or Ppl = (x̄ − LSL)/3s, with the skewness
 * (delta method): √(1/(9 n_mean) + index² (κ − 1)/(4 (n_var − 1)) ± index γ / (3 n_mean)), + for
 * the upper side (a right-skewed sample with a high mean also has a large s, so Ppu falls on both
 * counts), − for the lower; the third term never takes the variance below the mean's own part.
 * With γ = 0 it is capabilityStandardError. Throws as capabilityStandardError.
 */
export function capabilitySideStandardError(
  index: number,
  uncertainty: CapabilityUncertainty,
  side: "upper" | "lower",
): number {
  const total = capabilityStandardError(index, uncertainty) ** 2;
  const meanPart = 1 / (9 * uncertainty.meanCount);
  const cross = (index * (uncertainty.skewness ?? 0)) / (3 * uncertainty.meanCount);
  return Math.sqrt(Math.max(meanPart, total + (side === "upper" ? cross : -cross)));
}

/**
 * 95 % confidence intervals of Cp, Cpk, Pp, Ppk for the line's capability views: Cp and Pp by the
 * chi-square law of the variance with ν = 2 (n_var − 1)/(κ − 1) (n_var − 1 for normal data;
 * Cp · √(χ²_{0.025,ν}/ν) … Cp · √(χ²_{0.975,ν}/ν)), Cpk and Ppk as index ± 1.96 ·
 * capabilityStandardError.
 */
export function capabilityIntervals(
  cap: Pick<Capability, "cp" | "cpk" | "pp" | "ppk">,
  uncertainty: CapabilityUncertainty,
): CapabilityIntervals {
  const nu = (2 * (uncertainty.varianceCount - 1)) / (uncertainty.kurtosis - 1);
  if (!(nu > 0) || !Number.isFinite(nu)) {
    throw new StatsError("INVALID_ARGUMENT", `the variance's degrees of freedom must be positive, got ${nu}`);
  }
  const low = Math.sqrt(chiSquareQuantile(0.025, nu) / nu);
  const high = Math.sqrt(chiSquareQuantile(0.975, nu) / nu);
  const ratio = (value: number | null): Interval | null =>
    value === null ? null : [value * low, value * high];
  const around = (value: number): Interval => {
    const se = capabilityStandardError(value, uncertainty);
    return [value - Z_95 * se, value + Z_95 * se];
  };
  return { cp: ratio(cap.cp), pp: ratio(cap.pp), cpk: around(cap.cpk), ppk: around(cap.ppk) };
}

/**
 * 95 % intervals as Minitab documents them for individual values (Normal Capability Analysis,
 * "Methods and formulas"): Cp and Pp by the chi-square law with ν = n − 1 (σ within from the
 * average moving range of span 2: ν ≈ n − span + 1), Cpk and Ppk as index ∓ z₀.₉₇₅ ·
 * √(1/(9 n) + index²/(2 (n − 1))) — Bissell's normal approximation, no dependence or kurtosis
 * correction. Throws INVALID_ARGUMENT for n < 2.
 */
export function minitabCapabilityIntervals(
  cap: Pick<Capability, "cp" | "cpk" | "pp" | "ppk">,
  n: number,
): CapabilityIntervals {
  if (!(n >= 2)) throw new StatsError("INVALID_ARGUMENT", `capability intervals need n ≥ 2, got ${n}`);
  return capabilityIntervals(cap, { meanCount: n, varianceCount: n, kurtosis: 3 });
}
