import mt19937 from "@stdlib/random-base-mt19937";
import normal from "@stdlib/random-base-normal";
import studentT from "@stdlib/random-base-t";
import { type ControlSignalSet, NORMAL_POINT_LAW, type PointLaw } from "./controlSignalChain.js";
import { fittedAutocorrelations } from "./dependence.js";
import { normalUpperQuantile, normalUpperTail } from "./distributions.js";
import {
  type MarginalShape,
  type ShapeComponent,
  standardizedTails,
  twoPieceMoments,
} from "./marginalShape.js";
import { StatsError } from "./statsError.js";

/**
 * The control rules' in-control law when the training values are not independent normal values
 * (issue 29: rules 2–4 read the runs of an autocorrelated process as signals, and heavy or skewed
 * tails put 1.4–1.8 % of points beyond 3 σ, so the independent normal chain, controlSignalChain,
 * put p_control at 2–46 α on such data).
 *
 * The in-control process, in σ units of the limits (centred on the centre line, marginal variance
 * 1, the limits' own σ): a stationary AR(p) with the coefficients the training values chose
 * (estimateDependence), driven by innovations of the shape their residuals have (fitMarginalShape:
 * a two-piece Student t, the normal when BIC keeps it).
 *
 * Signals are graded by how rare they are under that process (nullTails): rule 1 at |z| by the
 * innovations' two-sided tail, rules 2 and 3 by their rate per point, rule 4's run of L by the rate
 * of runs of at least L — all measured on one long simulated series — so a long run, common in an
 * autocorrelated process, is not taken for as rare as a point at 6 σ. p_control = P(T ≤ T_seen)
 * among the judged points, T the rarest signal, by Monte Carlo over paths of `lead` history and
 * `count` judged points, each judged as controlRules judges a window. Seeded, so the same records
 * give the same answer: batches of SIMULATION_BATCH paths until the decision at `threshold` is clear
 * (the 99.9 % score interval on one side of it) or MAX_SIMULATED_PATHS (fewer for long paths:
 * MAX_SIMULATED_POINTS); the estimate (signals + 1)
 * / (paths + 1) is capped by the union bound count · (the rates of the signals counted), which
 * keeps the digits of a very rare signal a few thousand paths cannot show.
 */
export interface ControlNull {
  /** φ₁ … φ_p of the in-control process (stationary); empty: independent. */
  readonly coefficients: ArrayLike<number>;
  /** Shape of its innovations (of the values themselves without dependence): the one simulated. */
  readonly shape: MarginalShape;
  /**
   * The shapes weighed by their fit (fitMarginalShape's components): rule 1's tail and, for
   * independent points, the chain's point law are their mixture. Absent: `shape` alone.
   */
  readonly components?: readonly ShapeComponent[];
  /**
   * The process's σ in σ units of the limits (≥ 1; default 1): limits narrower than the training
   * values' own spread (MR̄/1.128 on heavy-tailed values reads σ 20 % short for t₃) would otherwise
   * count the process's ordinary points as signals.
   */
  readonly scale?: number;
  /**
   * The grid the values are read on (a gauge's resolution, valueGrid), in σ units of the limits
   * from the centre line: points are the process's values rounded to offset + k · step. `scale` is
   * then the σ of the values before rounding; `resolution` is the step in the values' own units.
   * Absent: continuous values.
   */
  readonly grid?: { readonly step: number; readonly offset: number; readonly resolution?: number };
  /**
   * The training values themselves, as deviations from their mean in σ units of the limits (their
   * spread never narrower than the limits', as `scale` is), sorted ascending: for independent
   * values with a shape of their own and at least MIN_EMPIRICAL_VALUES of them, the point law is
   * their own distribution out to the EMPIRICAL_TAIL_COUNT-th outermost value on each side and the
   * shapes' tail beyond (empiricalPointLaw). Absent: the shapes' law alone. Never with `grid`.
   */
  readonly empirical?: Float64Array;
}

/**
 * Independent training values with a shape of their own are read from their own distribution from
 * this many on (empiricalPointLaw): below it the share of points on a side is too loose to grade a
 * run by (480 values: ± 2.2 percentage points, a run of 12's rate ± 45 %), and 600 × 0.2 windows
 * keep the fitted law.
 */
export const MIN_EMPIRICAL_VALUES = 1000;
/** Values on each side beyond which empiricalPointLaw takes the fitted tail (its rate's error ± 10 %). */
export const EMPIRICAL_TAIL_COUNT = 100;

export const SIMULATION_BATCH = 1000;
export const MAX_SIMULATED_PATHS = 40_000;
/**
 * At most this many simulated points in all (about a fifth of a second): a first evaluation judging thousands
 * of points stops at fewer paths — its p-value stays valid, only coarser near the threshold.
 */
export const MAX_SIMULATED_POINTS = 4_000_000;
/** Points of the long series the null's per-point rates are measured on. */
export const TAIL_SERIES_LENGTH = 100_000;
/** Fixed seed: an evaluation repeated on the same records gives the same p-value. */
export const SIMULATION_SEED = 20_261_127;
/** z of the score interval that ends the simulation (99.9 %, two-sided). */
const STOP_Z = normalUpperQuantile(0.0005);
/** Runs counted directly up to this length; longer ones' rates are extrapolated geometrically. */
const MAX_COUNTED_RUN = 400;

/** A generator of the stationary in-control process (z values), seeded. */
export function nullProcess(model: ControlNull, seed = SIMULATION_SEED): () => number {
  const p = model.coefficients.length;
  const phi = Float64Array.from(model.coefficients);
  const rho = fittedAutocorrelations(phi);
  // Innovation variance of a unit-variance AR(p): 1 − Σ φᵢ ρ(i).
  let explained = 0;
  for (let i = 0; i < p; i++) explained += (phi[i] as number) * (rho[i] ?? 0);
  const innovationSd = Math.sqrt(Math.max(1e-12, 1 - explained)) * (model.scale ?? 1);
  const innovation = innovationGenerator(model.shape, seed);
  const state = new Float64Array(Math.max(1, p));
  const step = (): number => {
    let x = innovationSd * innovation();
    for (let i = 0; i < p; i++) x += (phi[i] as number) * (state[i] as number);
    for (let i = p - 1; i > 0; i--) state[i] = state[i - 1] as number;
    state[0] = x;
    return x;
  };
  // Burn-in until the start from zero is forgotten (the fit's ACF is cut where it is negligible).
  const burnIn = p === 0 ? 0 : Math.min(5000, 10 + rho.length);
  for (let i = 0; i < burnIn; i++) step();
  const grid = model.grid;
  if (!grid) return step;
  // Read on the gauge's grid: the process runs on, each value rounded as the gauge reads it.
  return () => grid.offset + grid.step * Math.round((step() - grid.offset) / grid.step);
}

/** Draws of the shape standardised to mean 0 and variance 1. */
function innovationGenerator(shape: MarginalShape, seed: number): () => number {
  if (!Number.isFinite(shape.nu) && shape.gamma === 1) return normal.factory(0, 1, { seed });
  const base = Number.isFinite(shape.nu)
    ? studentT.factory(shape.nu, { seed })
    : normal.factory(0, 1, { seed });
  const coin = mt19937.factory({ seed: seed + 1 });
  const { mean, variance } = twoPieceMoments(shape);
  const sd = Math.sqrt(variance);
  const g = shape.gamma;
  const upperMass = (g * g) / (1 + g * g);
  return () => {
    const t = Math.abs(base());
    // mt19937 draws integers in [0, 2³² − 1].
    const x = coin() / 4_294_967_296 < upperMass ? g * t : -t / g;
    return (x - mean) / sd;
  };
}

/** How rare each signal is at one point of the in-control process (per point, history behind it). */
export interface NullTails {
  /** Rule 1 beyond ±z: P(|innovation| > z) of the standardised shape (2Φ(−z) for the normal). */
  rule1(z: number): number;
  /** Rule 2's and rule 3's patterns completing at a point. */
  readonly rule2: number;
  readonly rule3: number;
  /** A run of at least L on one side ending at a point. */
  run(length: number): number;
}

const isNormalShape = (shape: MarginalShape) => !Number.isFinite(shape.nu) && shape.gamma === 1;

/**
 * The law of one point of the model's process in σ units of the limits (its shapes' mixture, times
 * its scale; with `empirical`, the training values' own distribution and that law's tail beyond).
 */
export function modelPointLaw(model: ControlNull): PointLaw {
  const shaped = shapePointLaw(model.shape, model.components);
  const scale = model.scale ?? 1;
  const law =
    scale === 1
      ? shaped
      : { upper: (z: number) => shaped.upper(z / scale), lower: (z: number) => shaped.lower(z / scale) };
  if (model.grid) return quantisedPointLaw(law, model.grid);
  return model.empirical ? empiricalPointLaw(model.empirical, law) : law;
}

/**
 * A point law from a sample of deviations (σ units from the centre line): P(Z > z) and P(Z < −z)
 * are the shares of the sample beyond (scipy.stats.ecdf's survival and CDF) out to the join, the
 * tailCount-th outermost value on the side (or 0 when that is not beyond the centre line); beyond
 * it `tail`'s law scaled to meet the sample there, s(join) · tail(z) / tail(join). A two-piece t
 * fitted by likelihood follows the bulk of a skewed sample, not its sides: on a lognormal of σ 0.5
 * it put 58.3 % of points below the centre line against 59.8 % (a run of 14's rate 0.71 of the
 * true one) and 20–30 % too few beyond 2–5 σ above; the sample's own shares have no family to be
 * short of, and the fitted tail carries the rates past where a few thousand values can tell them.
 */
export function empiricalPointLaw(
  deviations: ArrayLike<number>,
  tail: PointLaw,
  tailCount = EMPIRICAL_TAIL_COUNT,
): PointLaw {
  const sorted = Float64Array.from(deviations).sort();
  const n = sorted.length;
  if (!Number.isInteger(tailCount) || tailCount < 1 || n < 2 * tailCount)
    throw new StatsError("INVALID_ARGUMENT", `need at least ${2 * tailCount} finite deviations, got ${n}`);
  if (!sorted.every(Number.isFinite)) throw new StatsError("INVALID_ARGUMENT", "deviations must be finite");
  // Shares strictly beyond z above and strictly below −z (binary searches on the sorted sample).
  const above = (z: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) > z) hi = mid;
      else lo = mid + 1;
    }
    return (n - lo) / n;
  };
  const below = (z: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < -z) lo = mid + 1;
      else hi = mid;
    }
    return lo / n;
  };
  const side = (share: (z: number) => number, fitted: (z: number) => number, join: number) => {
    const atJoin = share(join);
    const fittedAtJoin = fitted(join);
    // A fitted law with no mass there: the sample's shares alone.
    if (!(fittedAtJoin > 0)) return share;
    return (z: number) => (z < join ? share(z) : (atJoin * fitted(z)) / fittedAtJoin);
  };
  const upperJoin = Math.max(0, sorted[n - tailCount] as number);
  const lowerJoin = Math.max(0, -(sorted[tailCount - 1] as number));
  return { upper: side(above, tail.upper, upperJoin), lower: side(below, tail.lower, lowerJoin) };
}

/** Grid steps within which a value counts as on a grid value (doubles of decimal readings). */
const GRID_TOLERANCE = 1e-9;

/**
 * The law of a point read on a grid: `law`'s values rounded to the nearest of offset + k · step.
 * upper(z) = P(rounded ≥ z) = P(value > g − step/2) with g the smallest grid value at or above z,
 * and lower(z) alike. The rules judge strictly beyond, which differs only for a limit on a grid
 * value itself (then counted beyond: the chance a little high). A grid value on the centre line (z
 * 0) counts half to each side: the chain has no zone for it, and giving it to the sides extends
 * runs it would break (a rule-4 chance a little high, never low).
 */
export function quantisedPointLaw(law: PointLaw, grid: { step: number; offset: number }): PointLaw {
  const { step, offset } = grid;
  if (!(step > 0)) throw new StatsError("INVALID_ARGUMENT", `grid step must be > 0, got ${step}`);
  // The smallest grid value at or above z, and the largest at or below −z: a grid value at z itself
  // counts (to within GRID_TOLERANCE steps) — a hit's own value is as extreme as itself, and a
  // limit set on a grid value then counts the points on it as beyond (a chance a little high).
  const tolerance = GRID_TOLERANCE * step;
  const above = (z: number) => offset + step * Math.ceil((z - tolerance - offset) / step);
  const below = (z: number) => offset + step * Math.floor((-z + tolerance - offset) / step);
  // P(value > x) and P(value < −x) for any x (the law's tails are defined from its centre out).
  const beyondUp = (x: number) => (x >= 0 ? law.upper(x) : 1 - law.lower(-x));
  const beyondDown = (x: number) => (x >= 0 ? law.lower(x) : 1 - law.upper(-x));
  const upperBeyond = (z: number) => beyondUp(above(z) - step / 2);
  const lowerBeyond = (z: number) => beyondDown(-(below(z) + step / 2));
  // On the centre line: a grid value there counts half to each side.
  const isOnCentre = Math.abs(offset - step * Math.round(offset / step)) <= tolerance;
  const centreMass = isOnCentre ? beyondUp(-step / 2) - beyondUp(step / 2) : 0;
  const side = (beyond: (z: number) => number) => (z: number) =>
    z === 0 && isOnCentre ? beyond(step) + centreMass / 2 : beyond(z);
  return { upper: side(upperBeyond), lower: side(lowerBeyond) };
}

/** The law of one point of an independent process of this shape, or of the mixture of `components` (standardised). */
export function shapePointLaw(shape: MarginalShape, components?: readonly ShapeComponent[]): PointLaw {
  const parts = components ?? [{ shape, weight: 1 }];
  if (parts.every((c) => isNormalShape(c.shape))) return NORMAL_POINT_LAW;
  const mixed = (side: "upper" | "lower") => (z: number) => {
    let sum = 0;
    for (const c of parts)
      sum += c.weight * (isNormalShape(c.shape) ? normalUpperTail(z) : standardizedTails(c.shape, z)[side]);
    return sum;
  };
  return { upper: mixed("upper"), lower: mixed("lower") };
}

/**
 * nullTails of a model. Independent points (no AR coefficients): exact from the point law — rule 2
 * Σ q(1 − (1 − q)²) over the sides with q = P(beyond 2 σ on the side), rule 3 Σ p(4p³(1 − p) + p⁴)
 * with p = P(beyond 1 σ), a run of L Σ P(side)^L (RULE2_POINT_TAIL's and RULE3_POINT_TAIL's
 * formulas for the normal). Dependent points: rates measured on TAIL_SERIES_LENGTH points of the
 * process (rules 2–4) and the innovations' tail (rule 1).
 */
export function nullTails(model: ControlNull): NullTails {
  let tails = tailsMemo.get(model);
  if (tails === undefined) {
    tails = computeNullTails(model);
    tailsMemo.set(model, tails);
  }
  return tails;
}

/**
 * nullTails by model object: a model controlNullOf answered again (the same training values) finds
 * its tails without simulating them again (a dependent model's are TAIL_SERIES_LENGTH points).
 */
const tailsMemo = new WeakMap<ControlNull, NullTails>();

function computeNullTails(model: ControlNull): NullTails {
  const law = modelPointLaw(model);
  if (model.coefficients.length === 0) {
    const sides = [law.upper, law.lower];
    const rule2 = sides.reduce((sum, tail) => {
      const q = tail(2);
      return sum + q * (1 - (1 - q) ** 2);
    }, 0);
    const rule3 = sides.reduce((sum, tail) => {
      const p = tail(1);
      return sum + p * (4 * p ** 3 * (1 - p) + p ** 4);
    }, 0);
    const up = law.upper(0);
    const down = law.lower(0);
    return {
      rule1: (limit: number) => law.upper(limit) + law.lower(limit),
      rule2,
      rule3,
      run: (length: number) => up ** length + down ** length,
    };
  }
  const next = nullProcess(model, SIMULATION_SEED + 7);
  const n = TAIL_SERIES_LENGTH;
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) z[i] = next();
  let rule2 = 0;
  let rule3 = 0;
  const runCounts = new Float64Array(MAX_COUNTED_RUN + 2);
  const runs = new RunCounter();
  for (let k = 0; k < n; k++) {
    const v = z[k] as number;
    const side = runs.push(v);
    const at = Math.min(runs.length, MAX_COUNTED_RUN + 1);
    runCounts[at] = (runCounts[at] as number) + 1;
    if (side === 0) continue;
    if (side * v > 2 && k >= 2 && countBeyond(z, k, 3, side, 2) >= 2) rule2++;
    if (side * v > 1 && k >= 4 && countBeyond(z, k, 5, side, 1) >= 4) rule3++;
  }
  // Survival of run lengths: rate of points ending a run of at least L.
  const atLeast = new Float64Array(MAX_COUNTED_RUN + 2);
  let sum = 0;
  for (let L = MAX_COUNTED_RUN + 1; L >= 0; L--) {
    sum += runCounts[L] as number;
    atLeast[L] = sum / n;
  }
  // Geometric extrapolation past the last length seen at least 100 times.
  let last = 1;
  while (last < MAX_COUNTED_RUN && (atLeast[last + 1] as number) * n >= 100) last++;
  const from = Math.max(1, last - 5);
  const ratio =
    last > from ? ((atLeast[last] as number) / (atLeast[from] as number)) ** (1 / (last - from)) : 0.5;
  return {
    rule1: (limit: number) => law.upper(limit) + law.lower(limit),
    rule2: rule2 / n,
    rule3: rule3 / n,
    run: (length: number) =>
      length <= last
        ? (atLeast[Math.max(0, length)] as number)
        : (atLeast[last] as number) * ratio ** (length - last),
  };
}

/** The run on one side of the centre line ending at the newest value pushed (0 on the line). */
class RunCounter {
  length = 0;
  private side = 0;
  /** Takes the next value; returns its side (1 above, −1 below, 0 on the centre line). */
  push(v: number): number {
    const side = v > 0 ? 1 : v < 0 ? -1 : 0;
    if (side !== 0 && side === this.side) this.length++;
    else {
      this.length = side === 0 ? 0 : 1;
      this.side = side;
    }
    return side;
  }
}

function countBeyond(z: Float64Array, k: number, window: number, side: number, zone: number): number {
  let count = 0;
  for (let j = k - window + 1; j <= k; j++) if (side * (z[j] as number) > zone) count++;
  return count;
}

/** The rule-1 limit whose two-sided rate is `tail` (≥ 3: rule 1 never fires inside the limits). */
export function rule1LimitAt(tails: NullTails, tail: number): number {
  if (!(tail > 0)) return Number.POSITIVE_INFINITY;
  if (tails.rule1(3) <= tail) return 3;
  let low = 3;
  let high = 6;
  while (tails.rule1(high) > tail && high < 1e6) high *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = (low + high) / 2;
    if (tails.rule1(mid) > tail) low = mid;
    else high = mid;
  }
  return high;
}

/** The shortest run (≥ 8) whose rate is at most `tail`. */
export function runLengthAt(tails: NullTails, tail: number): number {
  if (!(tail > 0)) return Number.POSITIVE_INFINITY;
  let length = 8;
  while (tails.run(length) > tail && length < 100_000) length++;
  return length;
}

export interface SimulatedSignalChance {
  readonly pValue: number;
  /** Paths simulated. */
  readonly paths: number;
  /** Paths with a signal of `set`. */
  readonly signals: number;
}

export interface SimulatedSignalArguments {
  /** Judged points (≥ 1). */
  readonly count: number;
  /** In-control points before them the rules may look back at (0 on a chart's first points). */
  readonly lead: number;
  readonly set: ControlSignalSet;
  readonly model: ControlNull;
  /** The p-value the decision turns on (α over the parts tested): the simulation stops once it is clear. */
  readonly threshold: number;
  /** Exactly this many paths (rounded up to whole batches), no early stop: for tests and reference values. */
  readonly paths?: number;
  /** Also count a run of exactly tie.length at a judged point whose Σ z² is at least tie.sumOfSquares. */
  readonly tie?: RunTie;
}

/** A run of rule 4 tied at the rarest signal (controlRules' runTieBreak): its length and Σ z². */
export interface RunTie {
  readonly length: number;
  readonly sumOfSquares: number;
}

/** The chance that `set` signals at one of `count` judged points of the model's process (see above). */
export function simulatedSignalChance(args: SimulatedSignalArguments): SimulatedSignalChance {
  const { count, lead, set, model, threshold } = args;
  if (!Number.isInteger(count) || count < 1)
    throw new StatsError("INVALID_ARGUMENT", `count must be an integer ≥ 1, got ${count}`);
  if (!Number.isInteger(lead) || lead < 0)
    throw new StatsError("INVALID_ARGUMENT", `lead must be an integer ≥ 0, got ${lead}`);
  const step = nullProcess(model);
  const length = lead + count;
  const path = new Float64Array(length);
  const limit =
    args.paths ??
    Math.max(SIMULATION_BATCH, Math.min(MAX_SIMULATED_PATHS, Math.floor(MAX_SIMULATED_POINTS / length)));
  let paths = 0;
  let signals = 0;
  while (paths < limit) {
    for (let b = 0; b < SIMULATION_BATCH; b++) {
      for (let i = 0; i < length; i++) path[i] = step();
      if (pathSignals(path, lead, set, args.tie)) signals++;
    }
    paths += SIMULATION_BATCH;
    if (args.paths === undefined && isClear(signals, paths, threshold)) break;
  }
  return { pValue: (signals + 1) / (paths + 1), paths, signals };
}

/** The model is the independent normal one (the exact chain answers it). */
export function isIndependentNormal(model: ControlNull): boolean {
  return (
    (model.scale ?? 1) === 1 &&
    model.grid === undefined &&
    model.coefficients.length === 0 &&
    isNormalShape(model.shape) &&
    (model.components ?? []).every((c) => isNormalShape(c.shape))
  );
}

/** The score (Wilson) interval of signals/paths lies wholly on one side of `threshold`. */
function isClear(signals: number, paths: number, threshold: number): boolean {
  const phat = signals / paths;
  const z2 = STOP_Z * STOP_Z;
  const centre = (phat + z2 / (2 * paths)) / (1 + z2 / paths);
  const half =
    (STOP_Z * Math.sqrt((phat * (1 - phat)) / paths + z2 / (4 * paths * paths))) / (1 + z2 / paths);
  return centre - half > threshold || centre + half < threshold;
}

/**
 * Whether one path of z values (σ units from the centre line; the first `lead` only history) gives
 * a signal of `set` at a judged point — judgeControlRules' patterns, a pattern needing its whole
 * window inside the path.
 */
export function pathSignals(z: Float64Array, lead: number, set: ControlSignalSet, tie?: RunTie): boolean {
  const n = z.length;
  const runLength = set.runLength;
  const runs = new RunCounter();
  for (let k = 0; k < n; k++) {
    const v = z[k] as number;
    const side = runs.push(v);
    if (k < lead) continue;
    if (Math.abs(v) > set.rule1Z) return true;
    if (side === 0) continue;
    if (set.rule2 && side * v > 2 && k >= 2 && countBeyond(z, k, 3, side, 2) >= 2) return true;
    if (set.rule3 && side * v > 1 && k >= 4 && countBeyond(z, k, 5, side, 1) >= 4) return true;
    if (runLength !== null && runs.length >= runLength) return true;
    if (tie !== undefined && runs.length === tie.length) {
      let sum = 0;
      for (let j = k - tie.length + 1; j <= k; j++) sum += (z[j] as number) ** 2;
      if (sum >= tie.sumOfSquares) return true;
    }
  }
  return false;
}

/** Runs drawn for runSpreadChance (its estimate's standard error at most 0.35 %). */
export const RUN_SPREAD_DRAWS = 20_000;

/**
 * Point sizes runSpreadChance draws at most (20,000 runs of 32): a longer run — a first evaluation
 * or a process far off its centre line can end one of hundreds of points — is drawn fewer times
 * (never fewer than RUN_SPREAD_MIN_DRAWS), so its cost stays about that of a run of 32 (a run of
 * 600 cost 12 million draws, about 0.3 s, before).
 */
export const RUN_SPREAD_MAX_VALUES = 640_000;

/** The fewest runs runSpreadChance draws (its estimate's standard error at most 1.6 %). */
export const RUN_SPREAD_MIN_DRAWS = 1_000;

/** Runs runSpreadChance draws for a run of `length` points: RUN_SPREAD_DRAWS up to 32 points, fewer beyond. */
export function runSpreadDraws(length: number): number {
  return Math.max(
    RUN_SPREAD_MIN_DRAWS,
    Math.min(RUN_SPREAD_DRAWS, Math.floor(RUN_SPREAD_MAX_VALUES / length)),
  );
}

/**
 * P(Σ z² ≥ sumOfSquares) over a run of `length` independent points of the model's process on
 * `side` (+1 above the centre line, −1 below): its point law's sizes on that side, drawn — with
 * the model's scale and grid — runSpreadDraws(length) times, seeded; (count + 1) / (draws + 1), a
 * valid Monte Carlo p-value at any number of draws. For independent models only (coefficients
 * empty): a run's sizes are then independent of its signs.
 */
export function runSpreadChance(
  model: ControlNull,
  side: number,
  length: number,
  sumOfSquares: number,
): number {
  if (model.coefficients.length !== 0)
    throw new StatsError("INVALID_ARGUMENT", "runSpreadChance needs an independent model");
  if (!Number.isInteger(length) || length < 1)
    throw new StatsError("INVALID_ARGUMENT", `length must be an integer ≥ 1, got ${length}`);
  const next = nullProcess(model, SIMULATION_SEED + 11);
  // A side the process (nearly) never reaches, as a grid can make it: the chance stays 1.
  const draws = runSpreadDraws(length);
  let budget = 100 * draws * length;
  let count = 0;
  for (let d = 0; d < draws; d++) {
    let sum = 0;
    for (let i = 0; i < length; ) {
      if (--budget < 0) return 1;
      const v = next();
      if (v * side <= 0) continue;
      sum += v * v;
      i++;
    }
    if (sum >= sumOfSquares) count++;
  }
  return (count + 1) / (draws + 1);
}
