import { finiteValues } from "./evaluation.js";

/**
 * The resolution a signal's values are read at: a gauge that reads to 0.01 mm, or a value rounded
 * to 0.5 N, gives values on a grid origin + k · step. On such values the chance of a point beyond
 * a control limit depends on where the limit falls between two grid values (a limit just below a
 * grid value counts the whole of that value's mass as beyond it: a gauge of 0.5 σ put 2.2 times the
 * normal 0.27 % of points beyond limits at 2.98 σ), so CAP's control part reads points by the
 * grid's law (controlNullSimulation's quantisedPointLaw).
 */
export interface ValueGrid {
  /** The distance of neighbouring grid values (> 0). */
  readonly step: number;
  /** The smallest value seen: every value is origin + k · step for an integer k ≥ 0. */
  readonly origin: number;
}

/** How far a gap / step may be from a whole number (values stored as decimals in doubles). */
const WHOLE_TOLERANCE = 1e-6;
/** Most grid steps between neighbouring distinct values: further apart, the values are not read off one grid. */
const MAX_GAP_STEPS = 1000;

/**
 * The grid the finite values lie on, or null when they do not lie on one: at most half of them
 * distinct (values of a continuous law do not repeat), and every gap between neighbouring distinct
 * values a whole multiple of the smallest gap. Needs at least 4 finite values and 2 distinct ones.
 */
export function valueGrid(values: ArrayLike<number>): ValueGrid | null {
  const finite = finiteValues(values).values;
  if (finite.length < 4) return null;
  const distinct = [...new Set(finite)].sort((a, b) => a - b);
  if (distinct.length < 2 || distinct.length > finite.length / 2) return null;
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < distinct.length; i++)
    step = Math.min(step, (distinct[i] as number) - (distinct[i - 1] as number));
  if (!(step > 0)) return null;
  for (let i = 1; i < distinct.length; i++) {
    const steps = ((distinct[i] as number) - (distinct[i - 1] as number)) / step;
    if (steps > MAX_GAP_STEPS || Math.abs(steps - Math.round(steps)) > WHOLE_TOLERANCE * Math.max(1, steps))
      return null;
  }
  return { step, origin: distinct[0] as number };
}
