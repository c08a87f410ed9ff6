import gammaln from "@stdlib/math-base-special-gammaln";
import { normalUpperTail, studentTUpperTail } from "./distributions.js";
import { StatsError } from "./statsError.js";

/**
 * The shape of a process's values beyond their mean and σ: a two-piece Student t (Fernández & Steel
 * 1998) — a t of ν degrees of freedom stretched by γ above its mode and by 1/γ below it. ν = ∞ is
 * the normal, γ = 1 symmetric. The control rules' in-control law (issue 29): with heavy tails (t₃:
 * 1.4 % of points beyond 3 σ, not 0.27 %) or skew (a lognormal of σ 0.5: 1.8 % above +3 σ, none
 * below −3 σ) the rules signal 2–8 times as often as the normal chain says.
 */
export interface MarginalShape {
  /** Degrees of freedom (> 2, so there is a σ); Infinity: normal. */
  readonly nu: number;
  /** Skew: > 1 a longer upper tail, < 1 a longer lower one. */
  readonly gamma: number;
}

export const NORMAL_SHAPE: MarginalShape = { nu: Number.POSITIVE_INFINITY, gamma: 1 };

/** The degrees of freedom and skews the fit chooses among (ML over this grid). */
export const SHAPE_NU_GRID: readonly number[] = [2.5, 3, 3.5, 4, 5, 6, 8, 12, 20, Number.POSITIVE_INFINITY];
export const SHAPE_GAMMA_GRID: readonly number[] = [
  0.55,
  0.65,
  0.75,
  0.85,
  1,
  1 / 0.85,
  1 / 0.75,
  1 / 0.65,
  1 / 0.55,
];

/** The fit reads at most this many values (the newest). */
export const MAX_SHAPE_VALUES = 1000;

/** Fewer values than this cannot tell a shape from the normal: the fit answers NORMAL_SHAPE. */
export const MIN_SHAPE_VALUES = 20;

/** Mean and variance of the unstandardised two-piece t (location 0, scale 1). */
export function twoPieceMoments(shape: MarginalShape): { mean: number; variance: number } {
  const { nu, gamma } = shape;
  // E|T| and E T² of the t (normal: √(2/π), 1).
  const absMean = Number.isFinite(nu)
    ? Math.exp(gammaln((nu + 1) / 2) - gammaln(nu / 2) + 0.5 * Math.log(nu) - 0.5 * Math.log(Math.PI)) *
      (2 / (nu - 1))
    : Math.sqrt(2 / Math.PI);
  const square = Number.isFinite(nu) ? nu / (nu - 2) : 1;
  const mean = absMean * (gamma - 1 / gamma);
  const second = (square * (gamma ** 3 + gamma ** -3)) / (gamma + 1 / gamma);
  return { mean, variance: second - mean * mean };
}

/** P(T > t) of the t (normal for ν = ∞). */
function baseUpperTail(t: number, nu: number): number {
  return Number.isFinite(nu) ? studentTUpperTail(t, nu) : normalUpperTail(t);
}

/**
 * P(Y > y) and P(Y < −y) for y ≥ 0 of the shape standardised to mean 0 and variance 1.
 */
export function standardizedTails(shape: MarginalShape, y: number): { upper: number; lower: number } {
  if (!(y >= 0)) throw new StatsError("INVALID_ARGUMENT", `y must be ≥ 0, got ${y}`);
  const { mean, variance } = twoPieceMoments(shape);
  const s = Math.sqrt(variance);
  const g = shape.gamma;
  const upperMass = (g * g) / (1 + g * g);
  // P(X > x) and P(X < x) of the unstandardised two-piece, each from its own side's tail (digits kept).
  const lowerMass = 1 - upperMass;
  const above = (x: number): number =>
    x >= 0
      ? upperMass * 2 * baseUpperTail(x / g, shape.nu)
      : 1 - lowerMass * 2 * baseUpperTail(-x * g, shape.nu);
  const below = (x: number): number =>
    x < 0
      ? lowerMass * 2 * baseUpperTail(-x * g, shape.nu)
      : 1 - upperMass * 2 * baseUpperTail(x / g, shape.nu);
  return { upper: above(mean + s * y), lower: below(mean - s * y) };
}

/** log f of the unstandardised two-piece t at x (location 0, scale 1). */
function logDensity(x: number, shape: MarginalShape, logNorm: number): number {
  const u = x >= 0 ? x / shape.gamma : x * shape.gamma;
  if (!Number.isFinite(shape.nu)) return logNorm - 0.5 * u * u;
  return logNorm - ((shape.nu + 1) / 2) * Math.log1p((u * u) / shape.nu);
}

function logNormalizer(shape: MarginalShape): number {
  const base = Number.isFinite(shape.nu)
    ? gammaln((shape.nu + 1) / 2) - gammaln(shape.nu / 2) - 0.5 * Math.log(shape.nu * Math.PI)
    : -0.5 * Math.log(2 * Math.PI);
  return base + Math.log(2 / (shape.gamma + 1 / shape.gamma));
}

export interface ShapeComponent {
  readonly shape: MarginalShape;
  readonly weight: number;
}

export interface ShapeFit {
  /** The shape BIC chooses: the likeliest of the grid when it beats the normal by 2 ln n, else the normal. */
  readonly shape: MarginalShape;
  /**
   * The shapes weighed by how well they fit (Bayesian averaging over the grid, the normal given half
   * the prior, each other shape's likelihood discounted by n as BIC's two parameters are): the law
   * the control rules judge by, so a tail the training values cannot pin down counts as what it may
   * be — the likeliest shape alone, taken as known, put p_control too low (t₃ and t₅ windows of 120
   * breached 1.7–3.2 α). Weights below 1e-4 are dropped; they sum to 1.
   */
  readonly components: readonly ShapeComponent[];
  /**
   * The values' σ as the chosen shape fits it (its ML scale × the shape's standard deviation): a
   * heavy tail's σ, which a sample standard deviation of a few hundred values mostly understates.
   * The ML σ for the normal (0 for fewer than two values).
   */
  readonly sd: number;
  /** Maximised log-likelihood of the chosen shape and of the normal. */
  readonly logLikelihood: number;
  readonly normalLogLikelihood: number;
}

/**
 * The shape of `values` by maximum likelihood over SHAPE_NU_GRID × SHAPE_GAMMA_GRID, location and
 * scale fitted for each (iteratively reweighted, as the t's EM), chosen over the normal only when
 * BIC says so (two more parameters: 2 ΔlogL > 2 ln n) — a normal sample keeps the normal's chain.
 * Non-finite values are left out, and only the newest MAX_SHAPE_VALUES read; fewer than
 * MIN_SHAPE_VALUES, or a constant series: normal.
 */
export function fitMarginalShape(values: ArrayLike<number>): ShapeFit {
  const xs: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) xs.push(v);
  }
  // The newest MAX_SHAPE_VALUES: a tail is as well told by them, and the fit's cost stays bounded.
  if (xs.length > MAX_SHAPE_VALUES) xs.splice(0, xs.length - MAX_SHAPE_VALUES);
  const n = xs.length;
  let mean = 0;
  for (const v of xs) mean += v;
  mean /= Math.max(1, n);
  let ss = 0;
  for (const v of xs) ss += (v - mean) ** 2;
  const sd = Math.sqrt(ss / Math.max(1, n));
  if (n < MIN_SHAPE_VALUES || !(sd > 0))
    return {
      shape: NORMAL_SHAPE,
      components: [{ shape: NORMAL_SHAPE, weight: 1 }],
      sd,
      logLikelihood: 0,
      normalLogLikelihood: 0,
    };
  const z = xs.map((v) => (v - mean) / sd);
  // The normal's maximised log-likelihood with the ML σ (1 after standardising).
  const normalLogLikelihood = -0.5 * n * (Math.log(2 * Math.PI) + 1) - n * Math.log(sd);
  let best = { shape: NORMAL_SHAPE, logLikelihood: normalLogLikelihood, sd };
  const others: { shape: MarginalShape; logLikelihood: number }[] = [];
  for (const nu of SHAPE_NU_GRID) {
    for (const gamma of SHAPE_GAMMA_GRID) {
      if (!Number.isFinite(nu) && gamma === 1) continue;
      const shape = { nu, gamma };
      const profile = profileLogLikelihood(z, shape);
      const ll = profile.ll - n * Math.log(sd);
      others.push({ shape, logLikelihood: ll });
      if (ll > best.logLikelihood)
        best = {
          shape,
          logLikelihood: ll,
          sd: sd * profile.scale * Math.sqrt(twoPieceMoments(shape).variance),
        };
    }
  }
  // Log posterior weights: the normal's prior 1/2, each other shape's 1/(2K) and its likelihood
  // discounted by n.
  const logWeights = [
    Math.log(0.5) + normalLogLikelihood,
    ...others.map((o) => Math.log(0.5 / others.length) + o.logLikelihood - Math.log(n)),
  ];
  const top = Math.max(...logWeights);
  const raw = logWeights.map((w) => Math.exp(w - top));
  const total = raw.reduce((a, b) => a + b, 0);
  const shapes = [NORMAL_SHAPE, ...others.map((o) => o.shape)];
  const kept = shapes
    .map((shape, i) => ({ shape, weight: (raw[i] as number) / total }))
    .filter((c) => c.weight >= 1e-4);
  const keptTotal = kept.reduce((a, c) => a + c.weight, 0);
  const components = kept.map((c) => ({ shape: c.shape, weight: c.weight / keptTotal }));
  if (2 * (best.logLikelihood - normalLogLikelihood) <= 2 * Math.log(n)) {
    return { shape: NORMAL_SHAPE, components, sd, logLikelihood: normalLogLikelihood, normalLogLikelihood };
  }
  return {
    shape: best.shape,
    components,
    sd: best.sd,
    logLikelihood: best.logLikelihood,
    normalLogLikelihood,
  };
}

/** max over location m and scale b of Σ log f((zᵢ − m)/b)/b, by reweighting (30 rounds). */
function profileLogLikelihood(z: readonly number[], shape: MarginalShape): { ll: number; scale: number } {
  const n = z.length;
  const logNorm = logNormalizer(shape);
  const { nu, gamma } = shape;
  let m = 0;
  let b = 1;
  for (let round = 0; round < 30; round++) {
    const previousM = m;
    const previousB = b;
    let weightSum = 0;
    let weighted = 0;
    let scaleSum = 0;
    for (const v of z) {
      const r = v - m;
      const c = r >= 0 ? gamma : 1 / gamma;
      const u = r / (b * c);
      const w = Number.isFinite(nu) ? (nu + 1) / (nu + u * u) : 1;
      weightSum += w / (c * c);
      weighted += (w * v) / (c * c);
      scaleSum += (w * r * r) / (c * c);
    }
    m = weighted / weightSum;
    b = Math.sqrt(scaleSum / n);
    if (!(b > 0)) return { ll: Number.NEGATIVE_INFINITY, scale: 0 };
    // Converged: the likelihood no longer moves in its digits that matter.
    if (Math.abs(m - previousM) < 1e-12 && Math.abs(b - previousB) < 1e-12 * b) break;
  }
  let ll = -n * Math.log(b);
  for (const v of z) ll += logDensity((v - m) / b, shape, logNorm);
  return { ll, scale: b };
}
