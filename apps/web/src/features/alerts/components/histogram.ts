/**
 * Shared bins for two sets of values (an SVD evaluation's training and evaluation sets), so their
 * distributions can be drawn over each other. Each set's counts are also given as a percentage of
 * that set: the sets differ in size (e.g. 70 % / 30 % of the window), so the shapes compare only
 * as shares.
 */
export type SharedBins = {
  /** Bin edges, ascending: edges.length = bins + 1; bin i is [edges[i], edges[i+1]) (the last one closed). */
  edges: number[];
  counts: [number[], number[]];
  /** Per set, each bin's count as a percentage of that set's values. */
  percents: [number[], number[]];
};

/** Fewest and most bins: enough to show a shape, few enough to read at 700 px. */
export const HISTOGRAM_BINS = { min: 5, max: 40 } as const;

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

/**
 * The number of bins for the pooled values: Freedman–Diaconis (width 2·IQR/∛n), Sturges when the
 * IQR is 0, clamped to HISTOGRAM_BINS.
 */
export function binCount(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return HISTOGRAM_BINS.min;
  const sorted = [...values].sort((x, y) => x - y);
  const range = (sorted[n - 1] as number) - (sorted[0] as number);
  if (!(range > 0)) return 1;
  const iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  const raw = iqr > 0 ? range / ((2 * iqr) / Math.cbrt(n)) : Math.log2(n) + 1;
  return Math.min(HISTOGRAM_BINS.max, Math.max(HISTOGRAM_BINS.min, Math.ceil(raw)));
}

/** Bins both sets on the same edges over their pooled range; non-finite values are left out. */
export function sharedBins(
  a: readonly number[],
  b: readonly number[],
  bins: number = binCount([...a, ...b].filter(Number.isFinite)),
): SharedBins {
  const sets = [a.filter(Number.isFinite), b.filter(Number.isFinite)] as const;
  const pooled = [...sets[0], ...sets[1]];
  if (pooled.length === 0) return { edges: [], counts: [[], []], percents: [[], []] };
  let lo = Math.min(...pooled);
  let hi = Math.max(...pooled);
  // One value everywhere: one bin of width 1 around it.
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
    bins = 1;
  }
  const k = Math.max(1, Math.floor(bins));
  const width = (hi - lo) / k;
  const edges = Array.from({ length: k + 1 }, (_, i) => (i === k ? hi : lo + i * width));
  const count = (xs: readonly number[]) => {
    const c = new Array<number>(k).fill(0);
    for (const x of xs) {
      const i = Math.min(k - 1, Math.floor((x - lo) / width));
      c[i] = (c[i] as number) + 1;
    }
    return c;
  };
  const counts: [number[], number[]] = [count(sets[0]), count(sets[1])];
  const pct = (c: number[], n: number) => c.map((x) => (n === 0 ? 0 : (100 * x) / n));
  return {
    edges,
    counts,
    percents: [pct(counts[0], sets[0].length), pct(counts[1], sets[1].length)],
  };
}
