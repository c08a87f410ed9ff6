import { ALERT_THRESHOLD_LEVELS, type AlertThreshold } from "./alertThreshold.js";
import { type Capability, capability } from "./capability.js";
import {
  type CapabilityIntervals,
  type CapabilityUncertainty,
  capabilityIntervals,
  capabilitySideStandardError,
  capabilityStandardError,
} from "./capabilityIntervals.js";
import { type CapLimits, commonLimit, type LimitAt, limitReader } from "./capLimits.js";
import { type ControlNull, isIndependentNormal, MIN_EMPIRICAL_VALUES } from "./controlNullSimulation.js";
import {
  type ControlRuleHit,
  type ControlTest,
  controlTest,
  judgeControlRules,
  type RunRules,
} from "./controlRules.js";
import { arResiduals, blockVif, type Dependence, estimateDependence } from "./dependence.js";
import { sampleShape } from "./descriptive.js";
import { normalUpperQuantile, normalUpperTail } from "./distributions.js";
import { type EvaluatedState, type NoDataEvaluation, noData } from "./evaluation.js";
import { fitMarginalShape, NORMAL_SHAPE } from "./marginalShape.js";
import { StatsError } from "./statsError.js";
import { valueGrid } from "./valueGrid.js";
import { valuesMemo } from "./valuesMemo.js";

export type { ControlRule, ControlRuleHit } from "./controlRules.js";

import { bivariateMaxUpperTail, bivariateNormalCdf, gappedCriticalValue } from "./twoSidedCritical.js";
import { ar1Coefficient } from "./varianceInflation.js";
import { MIN_EVALUATION_RECORDS } from "./windowMinimums.js";

export interface CapCalibratedOptions {
  /**
   * Index in `values` of the first record newer than the previous evaluation's newest record: only
   * points from here on are judged (each point once, as in SPC). Default 0 (a first evaluation
   * judges every point).
   */
  readonly firstNewIndex?: number;
  /**
   * Values in record order to estimate the dependence (the AR(1) coefficient) from: the window's
   * older, training records. A shift inside the evaluation set then reads as a shift, not as
   * neighbouring parts being alike (estimated from `values` themselves, a step widened the bound
   * until a 2 σ shift went unseen). Used when it holds at least MIN_EVALUATION_RECORDS finite
   * values; otherwise, and by default, the evaluation values are used.
   */
  readonly dependenceValues?: ArrayLike<number>;
  /** The run rules the monitor turns on (rule 1 always applies). They need both LCL and UCL. */
  readonly runRules?: RunRules;
}

export interface CapCalibratedEvaluation {
  readonly state: EvaluatedState;
  /** p < α: the control part or the capability part significant at the level. */
  readonly breach: boolean;
  /**
   * p = min(1, p_control / control share, p_capability / capability share) over the parts tested
   * (weighted Bonferroni; the shares sum to 1, each part alone takes all of α): one α-level test
   * per evaluation.
   */
  readonly pValue: number;
  /** How many parts were tested (1 or 2; 0 when there were neither control nor spec limits to judge). */
  readonly testCount: number;
  /** The control part significant: p_control < controlAlpha. Its hits are listed whether or not. */
  readonly isControlBreach: boolean;
  /** The capability part significant: p_capability < capabilityAlpha (the bound there below the target). */
  readonly isCapabilityBreach: boolean;
  /** Control-rule signals on the new points, in record order (each one a control signal in the SPC sense). */
  readonly controlHits: readonly ControlRuleHit[];
  /**
   * p_control and how it was reached (controlTest): null when no judged point has a control limit.
   */
  readonly control: ControlTest | null;
  /**
   * p_capability: the one-sided p-value of the Ppk bound test (the level at which the bound would
   * sit exactly at the target); 0 for a constant value outside its spec limits; null without a
   * capability test.
   */
  readonly pCapability: number | null;
  /** The level the capability bound is taken at: α × capabilityShare (so bound < target ⇔ its part breaches). */
  readonly capabilityAlpha: number;
  /** The level p_control is judged at: α × (1 − capabilityShare) with both parts, α alone. */
  readonly controlAlpha: number;
  /**
   * The capability part's share of α with both parts tested: 1/2 with the training values' Ppk at
   * or below the target, CAP_MINOR_SHARE from CAP_FAR_ERRORS standard errors above it, linear
   * between (capabilityShareOf).
   * 1 with capability alone, 0 without it.
   */
  readonly capabilityShare: number;
  /** How many values (finite, used) were new and judged by the control rules. */
  readonly judgedCount: number;
  /** Evaluation values used for capability. */
  readonly n: number;
  readonly lsl: number | null;
  readonly usl: number | null;
  readonly cpkTarget: number;
  readonly alpha: number;
  /** Cp, Cpk, Pp, Ppk; null without spec limits or for a constant signal. */
  readonly capability: Capability | null;
  /** 95 % intervals of the indices; null when capability is null. */
  readonly intervals: CapabilityIntervals | null;
  /** The dependence the training values (or, without enough of them, the evaluation values) chose. */
  readonly dependence: Dependence;
  /** VIF of the values in record order (AR(1) fit) and n′ = n / VIF, the mean's effective size. */
  readonly vif: number;
  readonly effectiveCount: number;
  /** The effective sizes and kurtosis the standard errors use (capabilityStandardError). */
  readonly uncertainty: CapabilityUncertainty;
  /** Standard error of Ppk (Bissell with dependence and kurtosis), and Ppk + c · SE at capabilityAlpha (null without capability). */
  readonly ppkStandardError: number | null;
  readonly ppkUpperBound: number | null;
  /**
   * c of the bound at capabilityAlpha (α below): z_{1−α} with one spec limit; with two, the two
   * sides' joint critical value (gappedCriticalValue(α, sideCorrelation, sideGap): P(either side's estimate falls below its
   * bound) = α with the nearer side at the target and the other sideGap standard errors further).
   * Between z_{1−α} (sides far apart) and 2.51 at medium for a centred process. Null without
   * capability.
   */
  readonly criticalValue: number | null;
  /**
   * Correlation of the two sides' estimates (Ppu, Ppl) at Ppk: (v_s − v_m)/(v_s + v_m) with
   * v_m = 1/(9 n_mean) (the mean moves them apart) and v_s = Ppk² (κ − 1)/(4 (n_var − 1)) (the
   * spread moves them together); null with one spec limit or without capability.
   */
  readonly sideCorrelation: number | null;
  /**
   * How much further the other side is, in standard errors of Ppk, beyond CAP_GAP_SIGMAS of the
   * distance's own error: max(0, (P_other − Ppk)/SE − 2 · 2√(1/(9 n_mean))/SE), P_other = 2 Pp −
   * Ppk. 0 for a process near the centre (both sides can breach), large off-centre (only the near
   * side can). Null with one spec limit or without capability.
   */
  readonly sideGap: number | null;
  readonly leftOut: readonly number[];
}

/**
 * CAP evaluation calibrated to its α (docs/monitoring.md "CAP"), one α-level test per evaluation:
 * p = min(1, p_control / control share, p_capability / capability share) (weighted Bonferroni; the
 * shares sum to 1, the capability part's from ½ down to 0.1 by capabilityShareOf, a part tested
 * alone takes all of α), breach ⇔ p < α.
 *
 * Control: the rules judge each new point once (rule 1 always, rules 2–4 when turned on, firing
 * only on a run that ends at a new point); every hit is a control signal and is listed, and
 * p_control (controlTest) is the chance that the k judged points of an in-control normal process
 * at the limits' own σ give a signal at least as extreme — so 3 points outside the limits among
 * 600 judged are what chance gives, one at 6 σ among 5 is not.
 *
 * Capability: p_capability is the one-sided p-value of the Ppk bound test, the upper confidence
 * bound of Ppk (Bissell's standard error with the mean's and the variance's effective sizes and the
 * data's kurtosis) against the level's Cpk target: one spec limit Φ(−t), t = (target − Ppk)/SE;
 * two, with the bound's joint critical value (Ppk is the smaller of two correlated estimates;
 * criticalValue, sideCorrelation, sideGap), P(Z₁ > t or Z₂ > t + gap) for the side with the
 * larger t — the level at which the bound would sit exactly at the target, so p_capability < α is
 * the bound at α below the target. The bound reported is taken at α / tests, where it decides.
 * A process exactly at the target breaches in about α/2 of evaluations from capability, a capable
 * in-control one in at most α/2 from control.
 * NO_DATA when fewer than 25 values remain (EVALUATION_TOO_SMALL), when the spec limits differ
 * between records (SPEC_LIMITS_DIFFER), or for a constant signal with no control hit and nothing
 * out of spec (CONSTANT_SIGNAL); limits as capLimits.ts reads them. (The uncorrected method, evaluateCap, was
 * removed in issue 29.)
 */
export function evaluateCapCalibrated(
  values: ArrayLike<number>,
  limits: CapLimits,
  alertThreshold: AlertThreshold,
  options: CapCalibratedOptions = {},
): CapCalibratedEvaluation | NoDataEvaluation {
  const level = ALERT_THRESHOLD_LEVELS[alertThreshold];
  if (level === undefined)
    throw new StatsError("INVALID_ARGUMENT", `unknown alert threshold ${alertThreshold}`);
  const total = values.length;
  const firstNewIndex = options.firstNewIndex ?? 0;
  if (!Number.isInteger(firstNewIndex) || firstNewIndex < 0) {
    throw new StatsError("INVALID_ARGUMENT", `firstNewIndex must be an integer ≥ 0, got ${firstNewIndex}`);
  }
  const keepLower = limits.singleSide !== "UPPER";
  const keepUpper = limits.singleSide !== "LOWER";
  const none: LimitAt = () => null;
  const lclAt = keepLower ? limitReader(limits.lcl, total, "LCL") : none;
  const uclAt = keepUpper ? limitReader(limits.ucl, total, "UCL") : none;
  const lslAt = keepLower ? limitReader(limits.lsl, total, "LSL") : none;
  const uslAt = keepUpper ? limitReader(limits.usl, total, "USL") : none;

  const kept: number[] = [];
  const keptRows: number[] = [];
  const leftOut: number[] = [];
  for (let i = 0; i < total; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) {
      kept.push(v);
      keptRows.push(i);
    } else leftOut.push(i);
  }
  const n = kept.length;
  if (n < MIN_EVALUATION_RECORDS) {
    return noData(
      "EVALUATION_TOO_SMALL",
      `evaluation set has ${n} values; at least ${MIN_EVALUATION_RECORDS} are needed`,
    );
  }
  const lsl = commonLimit(keptRows, lslAt);
  const usl = commonLimit(keptRows, uslAt);
  if (lsl === "differ" || usl === "differ") {
    return noData("SPEC_LIMITS_DIFFER", `the ${lsl === "differ" ? "LSL" : "USL"} differs between records`);
  }
  if (lsl !== null && usl !== null && !(lsl < usl)) {
    throw new StatsError("INVALID_ARGUMENT", `LSL must be < USL, got ${lsl} and ${usl}`);
  }

  const runRules = options.runRules ?? {};
  const controlHits = judgeControlRules(kept, keptRows, lclAt, uclAt, firstNewIndex, runRules);
  const independentTest = controlTest(kept, keptRows, lclAt, uclAt, firstNewIndex, runRules, controlHits);
  let control = independentTest.testedCount > 0 ? independentTest : null;
  let judgedCount = 0;
  for (const row of keptRows) if (row >= firstNewIndex) judgedCount++;
  let isOutOfSpec = false;
  for (const v of kept) if ((lsl !== null && v < lsl) || (usl !== null && v > usl)) isOutOfSpec = true;

  const isConstant = kept.every((v) => v === kept[0]);
  // Dependence: the mean's VIF (1 + ρ)/(1 − ρ) and the variance's (1 + ρ²)/(1 − ρ²) of one AR(1)
  // fit from the training values. Shape: skewness and kurtosis of the whole window (training and
  // evaluation values), the kurtosis kept ≥ CAP_MIN_KURTOSIS.
  const dependenceInput = dependenceSeries(options.dependenceValues) ?? kept;
  // The AR order the training values choose (estimateDependence): orders 0 and 1 are the lag-1
  // estimate ρ as before; a higher order's long-run VIF, second-moment VIF and ACF stand in, which
  // an AR(1) read of an AR(2) process understates (3.2 % capability breaches at medium measured
  // on AR(2) 0.5, 0.3 at 3000 × 0.2 with the lag-1 fit alone).
  // From MIN_PERIODIC_RECORDS training values a periodic component is looked for first (a slow
  // cycle is a sine plus its residuals' AR process): the mean's VIF is then that of the n judged
  // values' own block, whose whole periods average out (blockVif, floored at the residuals' share).
  const dependence = estimateDependence(dependenceInput, undefined, { periodic: true });
  const rho = ar1Coefficient(dependenceInput);
  const isPeriodic = dependence.periodic !== null;
  const isHigherOrder = dependence.order >= 2 || isPeriodic;
  const vif = isPeriodic
    ? blockVif(dependence.autocorrelations, n, dependence.vifFloor)
    : isHigherOrder
      ? dependence.vif
      : (1 + rho) / (1 - rho);
  const effectiveCount = n / vif;
  const shape = sampleShape([...finiteOf(options.dependenceValues), ...kept]);
  const uncertainty: CapabilityUncertainty = {
    meanCount: effectiveCount,
    varianceCount: isHigherOrder ? n / dependence.secondMomentVif : (n * (1 - rho * rho)) / (1 + rho * rho),
    kurtosis: Math.max(CAP_MIN_KURTOSIS, shape.kurtosis),
    skewness: shape.skewness,
  };
  let cap: Capability | null = null;
  if (isConstant) {
    if (controlHits.length === 0 && !isOutOfSpec) return noData("CONSTANT_SIGNAL", "constant signal");
  } else if (lsl !== null || usl !== null) {
    cap = capability(kept, { lsl, usl });
  }
  // The parts tested: control when a judged point has a control limit, capability when there is
  // an index to judge (or a constant value outside its spec limits). Known before any outcome.
  const hasCapabilityTest = cap !== null || (isConstant && isOutOfSpec);
  const testCount = (control === null ? 0 : 1) + (hasCapabilityTest ? 1 : 0);
  // α shared between the parts (weighted Bonferroni): half each, less to the capability part the
  // further the training values put it above its target — it could then only breach on a change
  // the control rules see anyway, and the even split judged a capable process's control part at
  // α/2 (0.5α measured with wide spec limits at low).
  const capabilityShare =
    testCount === 2
      ? capabilityShareOf(dependenceSeries(options.dependenceValues), lsl, usl, level.cpkTarget, uncertainty)
      : hasCapabilityTest
        ? 1
        : 0;
  const controlShare = control === null ? 0 : 1 - (testCount === 2 ? capabilityShare : 0);
  const capabilityAlpha = hasCapabilityTest ? level.alpha * capabilityShare : level.alpha;
  const controlAlpha = level.alpha * controlShare;
  // Control on a process that is not independent normal: when the training values choose an AR
  // model, or their residuals a heavy or skewed shape, the chance of the signal seen comes from that
  // process (rules 2–4 read an autocorrelated process's runs, and rule 1 a heavy tail, as signals).
  if (control !== null && control.extreme !== null && !control.isOneSided) {
    // Only from the training values: fitted on the judged values themselves, an outlier would
    // widen the tails it is judged by.
    const training = dependenceSeries(options.dependenceValues);
    const units = limitUnits(keptRows, lclAt, uclAt);
    const model: ControlNull =
      training === null
        ? { coefficients: [], shape: NORMAL_SHAPE }
        : controlNullOf(training, units ?? undefined);
    if (!isIndependentNormal(model)) {
      control = controlTest(kept, keptRows, lclAt, uclAt, firstNewIndex, runRules, controlHits, {
        model,
        threshold: controlAlpha,
      });
    }
  }
  let pCapability: number | null = isConstant && isOutOfSpec ? 0 : null;
  let ppkStandardError: number | null = null;
  let ppkUpperBound: number | null = null;
  let criticalValue: number | null = null;
  let sideCorrelation: number | null = null;
  let sideGap: number | null = null;
  let intervals: CapabilityIntervals | null = null;
  if (cap !== null) {
    // Each side judged with its own standard error (the skewness widens one, narrows the other)
    // and its index corrected for the s of alike neighbouring values being short of σ.
    const spread = isHigherOrder
      ? spreadCorrection(dependence.autocorrelations, n)
      : ar1SpreadCorrection(rho, n);
    const sides: { index: number; se: number }[] = [];
    for (const [raw, side] of [
      [cap.ppu, "upper"],
      [cap.ppl, "lower"],
    ] as const) {
      if (raw === null) continue;
      const index = raw * spread;
      sides.push({ index, se: capabilitySideStandardError(index, uncertainty, side) });
    }
    const nearest = sides.reduce((a, b) => (b.index < a.index ? b : a));
    ppkStandardError = nearest.se;
    if (sides.length === 2) {
      // Ppk is the smaller of two estimates: with both sides at the target either may fall below
      // its bound, so the bound's c comes from the two sides' joint (bivariate normal) law.
      const [upper, lower] = sides as [{ index: number; se: number }, { index: number; se: number }];
      sideCorrelation = sidesCorrelation(cap.ppk, uncertainty, upper.se * lower.se);
      sideGap = sidesGap(cap, uncertainty, nearest.se);
      criticalValue = gappedCriticalValue(capabilityAlpha, sideCorrelation, sideGap);
    } else criticalValue = normalUpperQuantile(capabilityAlpha);
    const c = criticalValue;
    // The bound is below the target at level a ⇔ c(a) < t* (the larger of the sides' t): the
    // p-value is the level whose c is t*.
    const t = Math.max(...sides.map((side) => (level.cpkTarget - side.index) / side.se));
    pCapability = capabilityPValue(t, sideCorrelation, sideGap);
    ppkUpperBound = Math.min(...sides.map((side) => side.index + c * side.se));
    // Shown intervals are never narrower than the normal-theory ones.
    intervals = capabilityIntervals(cap, { ...uncertainty, kurtosis: Math.max(3, uncertainty.kurtosis) });
  }
  // A constant value outside its spec limits has Ppk = −∞ in the limit: p_capability 0.
  const pControl = control?.pValue ?? null;
  const scaled: number[] = [];
  if (pControl !== null) scaled.push(pControl / controlShare);
  if (pCapability !== null) scaled.push(pCapability / capabilityShare);
  const pValue = scaled.length === 0 ? 1 : Math.min(1, ...scaled);
  const isControlBreach = pControl !== null && pControl < controlAlpha;
  const isCapabilityBreach = pCapability !== null && pCapability < capabilityAlpha;
  const breach = pValue < level.alpha;
  return {
    state: breach ? "BREACH" : "OK",
    breach,
    pValue,
    testCount,
    isControlBreach,
    isCapabilityBreach,
    controlHits,
    control,
    pCapability,
    capabilityAlpha,
    controlAlpha,
    capabilityShare,
    judgedCount,
    n,
    lsl,
    usl,
    cpkTarget: level.cpkTarget,
    alpha: level.alpha,
    capability: cap,
    intervals,
    dependence,
    vif,
    effectiveCount,
    uncertainty,
    ppkStandardError,
    ppkUpperBound,
    criticalValue,
    sideCorrelation,
    sideGap,
    leftOut,
  };
}

/**
 * p_capability from t = (target − index)/SE of the side that is furthest below the target in its
 * own standard errors: with one spec limit (sideCorrelation null) Φ(−t); with two, the chance that
 * either side's estimate exceeds its critical value, P(Z₁ > t or Z₂ > t + gap) for a bivariate
 * normal pair of correlation ρ — the inverse of gappedCriticalValue (twoSidedCriticalValue at gap
 * 0), so p_capability < a ⇔ the bound at a is below the target. Computed as Φ(−t) + Φ(−t − gap) −
 * Φ₂(−t, −t − gap; ρ), which keeps the digits of a small p.
 */
export function capabilityPValue(t: number, sideCorrelation: number | null, sideGap: number | null): number {
  if (Number.isNaN(t)) throw new StatsError("INVALID_ARGUMENT", "t must be a number");
  if (sideCorrelation === null) return normalUpperTail(t);
  if (sideCorrelation >= 1) return normalUpperTail(t);
  const gap = sideGap ?? 0;
  if (gap === 0) return Math.min(1, bivariateMaxUpperTail(t, Math.max(-1, sideCorrelation)));
  // The clamp gappedCriticalValue's search uses.
  const rho = Math.max(-1 + 1e-12, Math.min(1 - 1e-12, sideCorrelation));
  const a = normalUpperTail(t);
  const b = normalUpperTail(t + gap);
  const both = bivariateNormalCdf(-t, -t - gap, rho);
  return Math.min(a + b, Math.max(a, b, a + b - both), 1);
}

/**
 * Correlation of Ppu and Ppl estimated from the same values, at the index Ppk: the mean's error
 * enters them with opposite signs (variance 1/(9 n_mean) each), the spread's with the same sign
 * (Ppk² (κ − 1)/(4 (n_var − 1))), as in capabilityStandardError; the skewness's cross terms cancel
 * in the covariance. `sideVariances` is the product of the two sides' variances (their standard
 * errors multiplied); without it both are taken as the symmetric capabilityStandardError's.
 */
export function sidesCorrelation(
  ppk: number,
  uncertainty: CapabilityUncertainty,
  sideErrors?: number,
): number {
  const meanPart = 1 / (9 * uncertainty.meanCount);
  const spreadPart = (ppk * ppk * (uncertainty.kurtosis - 1)) / (4 * (uncertainty.varianceCount - 1));
  const rho = (spreadPart - meanPart) / (sideErrors ?? spreadPart + meanPart);
  return Math.max(-1, Math.min(1, rho));
}

/**
 * The distance between the sides counts only beyond this many of its own standard errors: a
 * centred process's estimated distance is noise (about 0.67 SE of Ppk) and would undo most of
 * the joint law's correction (measured: 1.27–1.38 α with the raw distance, 0.97 α with 2).
 */
export const CAP_GAP_SIGMAS = 2;

/** sideGap of CapCalibratedEvaluation. */
export function sidesGap(cap: Capability, uncertainty: CapabilityUncertainty, standardError: number): number {
  const other = 2 * (cap.pp as number) - cap.ppk;
  const gapError = 2 * Math.sqrt(1 / (9 * uncertainty.meanCount));
  return Math.max(0, (other - cap.ppk - CAP_GAP_SIGMAS * gapError) / standardError);
}

/** How many standard errors above the target the training values' Ppk must be for CAP_MINOR_SHARE. */
export const CAP_FAR_ERRORS = 1;
/** The capability part's share of α when the training values put it far above its target. */
export const CAP_MINOR_SHARE = 0.1;

/**
 * The capability part's share of α (both parts tested), decided from the training values alone, so
 * the split is fixed before the evaluation values are looked at (weighted Bonferroni holds for any
 * split so chosen): with d = (Ppk − target) / SE — Ppk the training values', SE the standard error
 * the evaluation's own bound uses at that Ppk (capabilityStandardError with the evaluation values'
 * effective counts and kurtosis, `uncertainty`) — 1/2 at d ≤ 0, CAP_MINOR_SHARE at
 * d ≥ CAP_FAR_ERRORS, and linear between. 1/2 without training values, spec limits or spread.
 */
export function capabilityShareOf(
  training: readonly number[] | null,
  lsl: number | null,
  usl: number | null,
  target: number,
  uncertainty: CapabilityUncertainty,
): number {
  if (training === null || (lsl === null && usl === null) || !(uncertainty.varianceCount > 1)) return 0.5;
  if (training.every((v) => v === training[0])) return 0.5;
  const ppk = capability(training, { lsl, usl }).ppk;
  if (ppk === null || !Number.isFinite(ppk)) return 0.5;
  const far = (ppk - target) / capabilityStandardError(ppk, uncertainty) / CAP_FAR_ERRORS;
  if (far >= 1) return CAP_MINOR_SHARE;
  return far <= 0 ? 0.5 : 0.5 - far * (0.5 - CAP_MINOR_SHARE);
}

/**
 * The kurtosis the capability uncertainty uses is at least this (a uniform's is 1.8): the adjusted
 * estimate of 100 normal values falls below 3 about half the time, and flooring it at 3 made
 * normal and AR(1) windows quieter than α (docs/decisions/0140-miss-cap-lognormal-at-25-records.md).
 */
export const CAP_MIN_KURTOSIS = 2;

/**
 * √(E[s²]/σ²) of an AR(1) of ρ ≥ 0 over n values: E[s²] = σ² (1 − 2 Σₖ (n − k) ρᵏ / (n (n − 1)))
 * — alike neighbours make s short of σ (4 % with 25 values at ρ 0.5), which made every index
 * read high and the capability test quieter than α; the indices are multiplied by it. 1 for ρ ≤ 0.
 */
export function ar1SpreadCorrection(rho: number, n: number): number {
  if (!(rho > 0) || n < 2) return 1;
  let sum = 0;
  let power = 1;
  for (let k = 1; k < n; k++) {
    power *= rho;
    sum += (n - k) * power;
  }
  return Math.sqrt(1 - (2 * sum) / (n * (n - 1)));
}

/**
 * A grid step (in σ of the limits) below which values count as continuous: a limit can then move
 * a point's tail by at most a few per cent.
 */
export const MIN_GRID_STEP = 0.05;
/** The least σ of the values before rounding (σ of the limits) a grid leaves them. */
const MIN_GRID_SCALE = 0.05;

/**
 * controlNullOf's recent answers: the same training values come again for every monitor of a
 * worker batch that shares a window, and for each level a window is judged at (the fit is most of a
 * CAP evaluation's cost on autocorrelated data). The answer is returned as the same object, so
 * nullTails' own memo finds it.
 */
const controlNullMemo = valuesMemo<ControlNull>(4);

/**
 * The in-control process of the control rules from the training values: the AR model they choose
 * (estimateDependence) and the shape of its residuals (fitMarginalShape). The same values and
 * limits answer the same (read-only) object.
 */
export function controlNullOf(
  values: readonly number[],
  limits?: { readonly centre: number; readonly sigma: number },
): ControlNull {
  const key = limits === undefined ? "" : `${limits.centre}|${limits.sigma}`;
  return controlNullMemo(values, key, () => fitControlNull(values, limits));
}

function fitControlNull(
  values: readonly number[],
  limits?: { readonly centre: number; readonly sigma: number },
): ControlNull {
  const dependence = estimateDependence(values);
  const phi = dependence.coefficients;
  const p = phi.length;
  const residuals = arResiduals(values, phi);
  const fit = fitMarginalShape(residuals);
  const model: ControlNull = { coefficients: phi, shape: fit.shape, components: fit.components };
  if (limits === undefined) return model;
  // Values read on a coarse grid (a gauge's resolution): points are judged by the grid's law, and
  // the process before rounding is narrower by Sheppard's h²/12.
  const grid = valueGrid(values);
  const step = grid === null ? 0 : grid.step / limits.sigma;
  const isGridMaterial = grid !== null && step >= MIN_GRID_STEP;
  if (!isGridMaterial && isIndependentNormal(model)) return model;
  // The spread the training values show, when wider than the limits': the shape's σ for
  // independent values, the sample σ for an AR process (its residuals' σ is the innovations').
  let sd = fit.sd;
  if (p > 0) {
    let mean = 0;
    for (const v of values) mean += v;
    mean /= values.length;
    let ss = 0;
    for (const v of values) ss += (v - mean) ** 2;
    sd = Math.sqrt(ss / Math.max(1, values.length - 1));
  }
  // Independent values whose likeliest shape is the normal keep the limits' σ: the sample σ of a
  // short window is as often above it as below, and taking the larger made a normal process's
  // control part quiet (0.4α at low and medium on 25 + 25 records).
  const isNormalFit = !Number.isFinite(fit.shape.nu) && fit.shape.gamma === 1;
  if (
    !isGridMaterial &&
    p === 0 &&
    !isNormalFit &&
    values.length >= MIN_EMPIRICAL_VALUES &&
    values.every(Number.isFinite)
  ) {
    // Enough independent values with a shape of their own: their own distribution (empiricalPointLaw),
    // at the sample σ where wider than the limits' (the shape's ML σ follows its bulk: 3 % short on
    // a lognormal of σ 0.5).
    let mean = 0;
    for (const v of values) mean += v;
    mean /= values.length;
    let ss = 0;
    for (const v of values) ss += (v - mean) ** 2;
    const sampleSd = Math.sqrt(ss / (values.length - 1));
    const unit = Math.min(limits.sigma, sampleSd);
    if (unit > 0) {
      const empirical = Float64Array.from(values, (v) => (v - mean) / unit).sort();
      return { ...model, scale: Math.max(1, sampleSd / limits.sigma), empirical };
    }
  }
  const scale = p === 0 && isNormalFit ? 1 : Math.max(1, sd / limits.sigma);
  if (!isGridMaterial || grid === null) return { ...model, scale };
  const offset = (grid.origin - limits.centre) / limits.sigma;
  return {
    ...model,
    scale: Math.sqrt(Math.max(scale * scale - (step * step) / 12, MIN_GRID_SCALE ** 2)),
    grid: { step, offset: offset - step * Math.round(offset / step), resolution: grid.step },
  };
}

/**
 * √(E[s²]/σ²) over n values of a process of autocorrelations ρ(1 …): 1 − 2 Σₖ (n − k) ρ(k) /
 * (n (n − 1)) (ar1SpreadCorrection for any ACF); 1 when the sum is not positive.
 */
export function spreadCorrection(autocorrelations: ArrayLike<number>, n: number): number {
  if (n < 2) return 1;
  let sum = 0;
  for (let k = 1; k < n && k <= autocorrelations.length; k++)
    sum += (n - k) * (autocorrelations[k - 1] as number);
  if (!(sum > 0)) return 1;
  return Math.sqrt(Math.max(1e-12, 1 - (2 * sum) / (n * (n - 1))));
}

/** Centre line and σ of the limits of the first kept point that has both (null when none has). */
function limitUnits(
  keptRows: readonly number[],
  lclAt: LimitAt,
  uclAt: LimitAt,
): { centre: number; sigma: number } | null {
  for (const row of keptRows) {
    const low = lclAt(row);
    const high = uclAt(row);
    if (low !== null && high !== null && high > low)
      return { centre: (low + high) / 2, sigma: (high - low) / 6 };
  }
  return null;
}

/** The finite values of `values` in order (none when undefined). */
function finiteOf(values: ArrayLike<number> | undefined): number[] {
  const out: number[] = [];
  if (values === undefined) return out;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) out.push(v);
  }
  return out;
}

/** The finite values of `dependenceValues` in order, or null when there are too few to use. */
function dependenceSeries(values: ArrayLike<number> | undefined): number[] | null {
  if (values === undefined) return null;
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isFinite(v)) out.push(v);
  }
  return out.length >= MIN_EVALUATION_RECORDS ? out : null;
}
