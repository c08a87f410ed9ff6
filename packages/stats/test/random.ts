// Seeded pseudo-random data for tests and the benchmark, so every run sees the same numbers.

/** mulberry32: a small, fast 32-bit generator; uniform in [0, 1). */
export function uniformGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws by Box–Muller. */
export function normalGenerator(seed: number): () => number {
  const uniform = uniformGenerator(seed);
  return () => {
    const u = 1 - uniform();
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** n draws from N(mean, sd²). */
export function normalSample(seed: number, n: number, mean = 0, sd = 1): Float64Array {
  const next = normalGenerator(seed);
  return Float64Array.from({ length: n }, () => mean + sd * next());
}
