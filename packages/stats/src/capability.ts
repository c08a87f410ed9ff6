import { assertFinite, StatsError } from "./statsError.js";

/** d₂ for subgroups of 2: the mean moving range of normal data is 1.128 σ (docs/monitoring.md "CAP"). */
export const D2_MOVING_RANGE = 1.128;

export interface SpecLimits {
  /** Lower spec limit, or null when the signal has none. */
  readonly lsl: number | null;
  /** Upper spec limit, or null when the signal has none. */
  readonly usl: number | null;
}

export interface CapabilityIndices {
  /** (USL − LSL) / 6σ_within; null unless both limits exist (one-sided: undefined by definition). */
  readonly cp: number | null;
  /** (μ − LSL) / 3σ_within, or null without an LSL. */
  readonly cpl: number | null;
  /** (USL − μ) / 3σ_within, or null without a USL. */
  readonly cpu: number | null;
  /** The smaller of cpl and cpu that exist. */
  readonly cpk: number;
  /** As cp with σ_overall. */
  readonly pp: number | null;
  readonly ppl: number | null;
  readonly ppu: number | null;
  readonly ppk: number;
}

export interface Capability extends CapabilityIndices {
  /** Mean of the values, in signal units. */
  readonly mean: number;
  /** Mean moving range / 1.128, in signal units. */
  readonly sigmaWithin: number;
  /** Sample sd (n − 1), in signal units. */
  readonly sigmaOverall: number;
}

/**
 * Capability indices from a mean and two sigmas. Separate from `capability` so other estimates of
 * σ_within (R̄/d₂ of subgroups, as R qcc uses) go through the same formulas.
 * Throws INVALID_ARGUMENT without any limit, for LSL ≥ USL, or for a sigma that is not > 0.
 */
export function capabilityIndices(
  mean: number,
  sigmaWithin: number,
  sigmaOverall: number,
  limits: SpecLimits,
): CapabilityIndices {
  const { lsl, usl } = limits;
  if (lsl === null && usl === null) {
    throw new StatsError("INVALID_ARGUMENT", "capability needs at least one spec limit");
  }
  assertFinite(
    [mean, sigmaWithin, sigmaOverall, ...(lsl === null ? [] : [lsl]), ...(usl === null ? [] : [usl])],
    "capability input",
  );
  if (lsl !== null && usl !== null && !(lsl < usl)) {
    throw new StatsError("INVALID_ARGUMENT", `LSL must be < USL, got ${lsl} and ${usl}`);
  }
  if (!(sigmaWithin > 0) || !(sigmaOverall > 0)) {
    throw new StatsError(
      "INVALID_ARGUMENT",
      `capability needs sigmas > 0, got within ${sigmaWithin} and overall ${sigmaOverall} (a constant signal)`,
    );
  }
  const within = sides(mean, sigmaWithin, lsl, usl);
  const overall = sides(mean, sigmaOverall, lsl, usl);
  return {
    cp: within.both,
    cpl: within.lower,
    cpu: within.upper,
    cpk: within.worst,
    pp: overall.both,
    ppl: overall.lower,
    ppu: overall.upper,
    ppk: overall.worst,
  };
}

function sides(mean: number, sigma: number, lsl: number | null, usl: number | null) {
  const upper = usl === null ? null : (usl - mean) / (3 * sigma);
  const lower = lsl === null ? null : (mean - lsl) / (3 * sigma);
  const both = usl === null || lsl === null ? null : (usl - lsl) / (6 * sigma);
  const worst = Math.min(upper ?? Number.POSITIVE_INFINITY, lower ?? Number.POSITIVE_INFINITY);
  return { upper, lower, both, worst };
}

/**
 * Cp, Cpk, Pp, Ppk of individual values in time order (docs/monitoring.md "CAP"): σ_within = mean moving
 * range / 1.128, σ_overall = sample sd. With only one spec limit the process is one-sided and Cp,
 * Pp (and the missing side) are null, not NaN. Throws EMPTY_INPUT / TOO_FEW_VALUES (fewer than 2
 * values), NON_FINITE, or INVALID_ARGUMENT (no limit, LSL ≥ USL, constant values: σ = 0).
 */
export function capability(values: ArrayLike<number>, limits: SpecLimits): Capability {
  const n = values.length;
  if (n === 0) throw new StatsError("EMPTY_INPUT", "capability needs values");
  if (n < 2) throw new StatsError("TOO_FEW_VALUES", "capability needs at least 2 values for a moving range");
  assertFinite(values, "capability values");
  let sum = 0;
  let movingRangeSum = 0;
  for (let i = 0; i < n; i++) {
    sum += values[i] as number;
    if (i > 0) movingRangeSum += Math.abs((values[i] as number) - (values[i - 1] as number));
  }
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = (values[i] as number) - mean;
    squares += d * d;
  }
  // A constant series has a moving range of exactly 0; its σ_overall may be a rounding residue.
  const sigmaWithin = movingRangeSum / (n - 1) / D2_MOVING_RANGE;
  const sigmaOverall = movingRangeSum === 0 ? 0 : Math.sqrt(squares / (n - 1));
  return { mean, sigmaWithin, sigmaOverall, ...capabilityIndices(mean, sigmaWithin, sigmaOverall, limits) };
}
