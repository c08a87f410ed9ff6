import { StatsError } from "./statsError.js";

/** D₄ of subgroups of 2: the moving range chart's UCL is D₄ · MR̄ (its LCL is 0). */
export const D4_MOVING_RANGE = 3.267;

export interface MovingRangeChart {
  /** |xᵢ − xᵢ₋₁| per value, NaN for the first finite value and for non-finite values. */
  readonly movingRanges: Float64Array;
  /** Mean moving range (the MR chart's centre line). */
  readonly mrBar: number;
  /** D₄ · MR̄. */
  readonly ucl: number;
}

/**
 * The moving range chart of an individuals (I-MR) chart: ranges of consecutive finite values
 * (a non-finite value is left out and its neighbours join), their mean and UCL = 3.267 · MR̄.
 * Throws TOO_FEW_VALUES with fewer than 2 finite values.
 */
export function movingRangeChart(values: ArrayLike<number>): MovingRangeChart {
  const movingRanges = new Float64Array(values.length).fill(Number.NaN);
  let previous: number | null = null;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (!Number.isFinite(x)) continue;
    if (previous !== null) {
      const mr = Math.abs(x - previous);
      movingRanges[i] = mr;
      sum += mr;
      count++;
    }
    previous = x;
  }
  if (count === 0) throw new StatsError("TOO_FEW_VALUES", "a moving range needs at least 2 values");
  const mrBar = sum / count;
  return { movingRanges, mrBar, ucl: D4_MOVING_RANGE * mrBar };
}
