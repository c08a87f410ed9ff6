/**
 * mulberry32 (Tommy Ettinger): a small seeded generator, uniform in [0, 1), 32-bit state, period
 * 2³². The one seeded generator of the product: SVD's simulated dependence factor
 * (svdNullQuantile.ts), the demo plant's records and the tests' and benchmarks' data, so each
 * gives the same numbers on every machine.
 */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
