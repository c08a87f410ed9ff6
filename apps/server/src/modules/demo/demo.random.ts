/**
 * A small seeded PRNG so the demo plant is the same on every machine: mulberry32 for uniform
 * numbers, Box–Muller for normal ones. Not for anything security related.
 */
import { seededUniform } from "@linewatch/stats";

export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Normal with the given mean and standard deviation. */
  normal(mean?: number, sd?: number): number;
  /** Whole number in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
};

/** mulberry32, the product's seeded generator (@linewatch/stats seededUniform). */
export const mulberry32 = seededUniform;

/** Mixes a label into a seed, so each line gets its own stream and adding a line changes no other. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function createRandom(seed: number): Random {
  const uniform = mulberry32(seed);
  let spare: number | null = null;
  const standardNormal = () => {
    if (spare != null) {
      const z = spare;
      spare = null;
      return z;
    }
    // 1 - u keeps the logarithm away from 0.
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  return {
    next: uniform,
    normal: (mean = 0, sd = 1) => mean + sd * standardNormal(),
    int: (min, max) => min + Math.floor(uniform() * (max - min + 1)),
    chance: (p) => uniform() < p,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(uniform() * items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
  };
}
