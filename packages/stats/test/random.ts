// Seeded pseudo-random data for tests and the benchmark, so every run sees the same numbers.
import { seededUniform } from "../src/seededUniform.js";

/** mulberry32, the product's seeded generator (src/seededUniform.ts); uniform in [0, 1). */
export const uniformGenerator = seededUniform;

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
