import { StatsError } from "./statsError.js";

export interface Histogram {
  /** bins + 1 ascending edges; bin i is [edges[i], edges[i+1]), the last one closed. */
  readonly edges: number[];
  readonly counts: number[];
}

/** Most bins a histogram gets, whatever n (a chart's width). */
export const MAX_HISTOGRAM_BINS = 40;

/**
 * Equal-width histogram of the finite values over a range that also holds `include` (the spec
 * limits, so they fall on the chart): ⌈√n⌉ bins, between 5 and MAX_HISTOGRAM_BINS. A single value
 * (zero width) gets a range of ±0.5. Throws EMPTY_INPUT without a finite value.
 */
export function histogram(values: ArrayLike<number>, include: readonly (number | null)[] = []): Histogram {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (!Number.isFinite(x)) continue;
    n++;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (n === 0) throw new StatsError("EMPTY_INPUT", "a histogram needs values");
  for (const x of include) {
    if (x === null || !Number.isFinite(x)) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const bins = Math.min(MAX_HISTOGRAM_BINS, Math.max(5, Math.ceil(Math.sqrt(n))));
  const width = (hi - lo) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? hi : lo + i * width));
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (!Number.isFinite(x)) continue;
    const b = Math.min(bins - 1, Math.floor((x - lo) / width));
    counts[b] = (counts[b] as number) + 1;
  }
  return { edges, counts };
}
