import { z } from "zod";
import { zString } from "./common.js";
import type { TMonitorType } from "./domain.js";

// An evaluation's `details` (evaluations.details jsonb): what the worker stores beside the score
// and threshold, one shape per kind and method. The worker builds them; the alert drawer and the
// Teams card read them through parseEvaluationDetails, never through hand-written guards.
//
// `method` says which evaluation made them: "calibrated" (docs/monitoring.md "Sensitivity": the
// threshold takes the data's dependence and shape from the training set) or "uncorrected" (the
// methods before it: SVD with the table's k, MVD counting rows above the UCL, CAP's point Ppk).
// Details stored before `method` existed are the uncorrected methods' and read as such.

/** A figure that may be undefined (a capability index without both spec limits, say). */
const figure = z.number().nullable();
const ZSignalRef = z.object({ id: zString().nullable(), name: zString().nullable() });
const ZLeftOut = z.object({ training: z.number().int(), evaluation: z.number().int() });
/** A 95 % interval [lower, upper]. */
const ZInterval = z.tuple([z.number(), z.number()]);

export const EVALUATION_METHODS = ["calibrated", "uncorrected"] as const;
export type TEvaluationMethod = (typeof EVALUATION_METHODS)[number];

// ── SVD ──

const svdCommon = {
  kind: z.literal("svd"),
  signal: ZSignalRef,
  /** W₁ in the signal's units. */
  w1: z.number(),
  /** s, the training sd the distance is divided by. */
  scale: z.number(),
  nEff: z.number(),
  m: z.number().int(),
  n: z.number().int(),
  trainingMean: z.number(),
  trainingSd: z.number(),
  evaluationMean: z.number(),
  evaluationSd: z.number(),
  leftOut: ZLeftOut,
};

/**
 * Whether the window can hold its alert threshold for the dependence it measured (issue 29):
 * with strong autocorrelation and few records the estimate the threshold rests on is too
 * uncertain. Absent from evaluations stored before it was computed.
 */
/**
 * What a window that does not hold its level falls short in: the dependence's estimate, MVD's
 * covariance, or (CAP) too few training records for the heavy or skewed tails its control rules
 * judge points by.
 */
/**
 * What a window that cannot hold its level falls short in; "floor": an SVD threshold at its 0.1 σ
 * floor (the monitor alarms less often than its level says); "coarse": a CAP monitor with too few
 * training records to judge its parts at the level (false alarms stray from it either way).
 */
export const ZLevelSupportLimit = z.enum(["dependence", "covariance", "tails", "cycle", "floor", "coarse"]);
export type TLevelSupportLimit = z.infer<typeof ZLevelSupportLimit>;

export const ZLevelSupport = z.object({
  holds: z.boolean(),
  /** The smallest sample size (same ratio) that holds for this dependence; null when none does. */
  minimumSampleSize: z.number().int().nullable(),
  /** Degrees of freedom of the dependence estimate on the training records (null: independent). */
  dependenceDegrees: z.number().nullable(),
  /** What it falls short in when it does not hold (absent before it was stored: the dependence). */
  limitedBy: ZLevelSupportLimit.nullable().optional(),
});
export type TLevelSupport = z.infer<typeof ZLevelSupport>;

/**
 * A cycle the training values carry beside their autocorrelation (a periodic component, issue 29):
 * its period in records and its share of the values' variance. Null when none was found; absent
 * from evaluations stored before it was looked for.
 */
export const ZCycle = z.object({ period: z.number(), share: z.number() });
export type TCycle = z.infer<typeof ZCycle>;

/** The dependence fields calibrated SVD and MVD details share; absent from older evaluations. */
const dependenceFields = {
  cycle: ZCycle.nullable().optional(),
  /** The AR order the training values chose (0: independent). */
  arOrder: z.number().int().optional(),
  /** Training records / VIF: how many independent records the training set is worth. */
  effectiveSampleSize: z.number().optional(),
  calibration: ZLevelSupport.optional(),
};

/** SVD, calibrated: W̃ against q_α(F̂) · dependenceFactor (√VIF before it) · widening / √n_eff (at least 0.1). */
export const ZSvdCalibratedDetails = z.object({
  ...svdCommon,
  method: z.literal("calibrated"),
  alpha: z.number(),
  /** q_α(F̂): the level's k scaled by the training values' shape. */
  nullQuantile: z.number(),
  /** What the shape (skew, tails) of the training values did to k through the null law's mean: about 1 for normal values. */
  shapeRatio: z.number(),
  /**
   * What the shape did through the null law's quantile-to-mean ratio (below 1 for heavy tails);
   * absent from evaluations stored before it was computed (then 1).
   */
  dispersionRatio: z.number().optional(),
  /** The training values' variance inflation factor (≥ 1): neighbouring parts alike. */
  vif: z.number(),
  /**
   * What the autocorrelation did to the threshold (the null law under the AR(1) fit's kernel, 1
   * without autocorrelation); absent from evaluations stored before it was computed (then √VIF).
   */
  dependenceFactor: z.number().optional(),
  kurtosis: z.number(),
  /** t/z factor: what estimating the VIF and s from the training values costs the threshold. */
  vifWidening: z.number(),
  /** True when the 0.1 σ floor decided the threshold. */
  isThresholdFloored: z.boolean(),
  ...dependenceFields,
});
export type TSvdCalibratedDetails = z.infer<typeof ZSvdCalibratedDetails>;

/** SVD as first stored: W̃ against the table's k / √n_eff. */
export const ZSvdUncorrectedDetails = z.object({
  ...svdCommon,
  method: z.literal("uncorrected"),
  scaleSource: zString(),
  k: z.number(),
});
export type TSvdUncorrectedDetails = z.infer<typeof ZSvdUncorrectedDetails>;

/** SVD: the Wasserstein distance of the evaluation values from the training values, in σ. */
export const ZSvdDetails = z.discriminatedUnion("method", [ZSvdCalibratedDetails, ZSvdUncorrectedDetails]);
export type TSvdDetails = z.infer<typeof ZSvdDetails>;

// ── MVD ──

const ZSignalContribution = ZSignalRef.extend({ contribution: z.number() });

/** One of the evaluation rows with the highest T², and the signals that contributed most to it. */
export const ZMvdWorstRow = z.object({
  partId: zString().nullable(),
  ts: zString().nullable(),
  t2: figure,
  topSignals: z.array(ZSignalContribution),
  /** Calibrated: every kept signal's contribution (they sum to t2). */
  contributions: z.array(ZSignalContribution).optional(),
});
export type TMvdWorstRow = z.infer<typeof ZMvdWorstRow>;

/** A kept signal of a calibrated MVD: how far its mean moved and its share of T²_mean, and its VIF. */
export const ZMvdMeanSignal = ZSignalRef.extend({
  /** Evaluation mean − training mean, in training standard deviations. */
  shift: z.number(),
  /** cᵢ = (m n / (m + n)) dᵢ (Σ⁻¹ d)ᵢ: they sum to T²_mean. */
  contribution: z.number(),
  vif: z.number(),
});
export type TMvdMeanSignal = z.infer<typeof ZMvdMeanSignal>;

const mvdCommon = {
  kind: z.literal("mvd"),
  /** The p-value that decides: a breach when it is below α. */
  p_value: figure,
  alpha: z.number(),
  m: z.number().int(),
  n: z.number().int(),
  p: z.number().int().positive(),
  shrinkage: z.number(),
  signals: z.array(ZSignalRef),
  droppedSignals: z.array(ZSignalRef),
  worstRows: z.array(ZMvdWorstRow),
  leftOut: ZLeftOut,
};

/** MVD, calibrated: p = min(1, 2 · min(p_mean, p_struct)) against α. */
export const ZMvdCalibratedDetails = z.object({
  ...mvdCommon,
  method: z.literal("calibrated"),
  /** Mean shift: two-sample Hotelling test with the dependence-corrected covariance. */
  p_mean: figure,
  t2Mean: z.number(),
  /** √(dᵀ Σ⁻¹ d): how far the means moved, in standard deviations (Mahalanobis). */
  meanDistance: z.number(),
  /** The kept signals, largest contribution to T²_mean first. */
  meanSignals: z.array(ZMvdMeanSignal),
  /** Structure: rank test of the evaluation rows' T² against the training rows' cross-validated T². */
  p_struct: figure,
  /** VIF of the cross-validated T² series (the rank test's sizes are divided by it). */
  vifT2: z.number(),
  ...dependenceFields,
  /** (m + n)/(1 + 2 Σ ρ(k)²): the rows the covariance is worth; Hotelling's F counts these. */
  effectiveRows: z.number().optional(),
});
export type TMvdCalibratedDetails = z.infer<typeof ZMvdCalibratedDetails>;

/** MVD as first stored: how many evaluation rows exceed the Phase II UCL (k of n), that count's p-value. */
export const ZMvdUncorrectedDetails = z.object({
  ...mvdCommon,
  method: z.literal("uncorrected"),
  ucl: z.number(),
  k: z.number().int(),
});
export type TMvdUncorrectedDetails = z.infer<typeof ZMvdUncorrectedDetails>;

export const ZMvdDetails = z.discriminatedUnion("method", [ZMvdCalibratedDetails, ZMvdUncorrectedDetails]);
export type TMvdDetails = z.infer<typeof ZMvdDetails>;

// ── CAP ──

const capCommon = {
  kind: z.literal("cap"),
  signal: ZSignalRef,
  n: z.number().int(),
  cp: figure,
  cpk: figure,
  pp: figure,
  ppk: figure,
  mean: figure,
  sigmaWithin: figure,
  sigmaOverall: figure,
  cpkTarget: z.number(),
  limits: z.object({
    lsl: figure,
    usl: figure,
    lcl: z.array(z.number()),
    ucl: z.array(z.number()),
    formulas: z.record(zString(), z.unknown()),
  }),
  limitErrors: z.array(zString()),
  leftOut: z.number().int(),
};

export const CONTROL_RULES = [1, 2, 3, 4] as const;

/** A new point that fired a Western Electric rule. */
export const ZControlHit = z.object({
  rule: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  partId: zString().nullable(),
  ts: zString().nullable(),
  value: z.number(),
});
export type TControlHit = z.infer<typeof ZControlHit>;

/** Stored control hits at most (the count is kept whole). */
export const MAX_STORED_CONTROL_HITS = 20;

/** Model numbers of a CAP evaluation set kept at most. */
export const MAX_STORED_MODEL_NUMBERS = 20;

const ZControlRule = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/**
 * CAP, calibrated: control rules on the new points, and Ppk's upper bound against the target.
 * Since issue 29 one α-level test per evaluation (docs/monitoring.md "CAP"): p = min(1,
 * p_control / control share, p_capability / capability share) (α shared between the parts tested,
 * capabilityShare), a breach when p < α; every control hit is still listed. The
 * fields of that test are absent from evaluations stored before it (then any hit breached and the
 * bound was at α).
 */
export const ZCapCalibratedDetails = z.object({
  ...capCommon,
  method: z.literal("calibrated"),
  alpha: z.number(),
  /** A cycle in the training values (its whole periods average out of the judged values' mean). */
  cycle: ZCycle.nullable().optional(),
  /** The control part significant at the level (before issue 29: any control hit). */
  isControlBreach: z.boolean(),
  /** The capability part significant at the level: the bound (at capabilityAlpha) below the target. */
  isCapabilityBreach: z.boolean(),
  /** p = min(1, p_control / (1 − capabilityShare), p_capability / capabilityShare) (testCount · min before the share): a breach when below α. */
  p_value: figure.optional(),
  /**
   * The chance that the judged points of an in-control normal process at the limits' own σ give a
   * control signal at least as extreme as the most extreme seen (1 without a signal) — at a run
   * rule's signal or a grid value the mid-p, ½ (P(as extreme) + P(more extreme)); null when no
   * judged point had a control limit.
   */
  p_control: figure.optional(),
  /** One-sided p-value of the Ppk bound test (the level at which the bound meets the target); null without one. */
  p_capability: figure.optional(),
  /** The parts tested (control, capability): the factor of the Bonferroni combination. */
  testCount: z.number().int().optional(),
  /** The level the shown bound is taken at: α × capabilityShare (α / testCount before the share existed). */
  capabilityAlpha: z.number().optional(),
  /**
   * The capability part's share of α with both parts tested (weighted Bonferroni): 1/2, or 0.1
   * when the training values put Ppk far above the target; absent on older evaluations (1/2).
   */
  capabilityShare: z.number().optional(),
  /** Judged points that had a control limit: the k of p_control. */
  controlTestedCount: z.number().int().optional(),
  /** The most extreme signal: its rule and the chance one in-control point gives one as extreme. */
  controlExtreme: z.object({ rule: ZControlRule, tail: z.number() }).nullable().optional(),
  /** Every tested point had one control limit only: p_control counts the points beyond it. */
  isControlOneSided: z.boolean().optional(),
  /**
   * The in-control process p_control was judged against when the training values were not
   * independent normal ones (issue 29): the AR order they chose and the two-piece t of their
   * residuals (nu null = normal tails, gamma 1 = symmetric), and the grid its values are read on;
   * by simulation over `paths` paths, or
   * (paths 0, AR order 0) the exact chain with the residuals' law. Null or absent: independent
   * normal points (the exact chain).
   */
  controlNull: z
    .object({
      arOrder: z.number().int(),
      nu: z.number().nullable(),
      gamma: z.number(),
      paths: z.number().int(),
      /** The grid the values are read on (a gauge's resolution, in the signal's units); null or absent: continuous. */
      resolution: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
  /** The window's training records: the dependence and the control null model come from them (absent on older evaluations). */
  trainingCount: z.number().int().optional(),
  /**
   * Whether the window holds its level for the dependence its training values show and, when a
   * control rule fired and the null model was fitted, for heavy or skewed tails (MIN_TAIL_TRAINING
   * training records); absent on older evaluations.
   */
  calibration: ZLevelSupport.optional(),
  /**
   * The evaluation set's first and last record times: the records its Ppk is of (the capability
   * view opens on them). Absent on evaluations stored before it was kept.
   */
  period: z.object({ from: zString(), to: zString() }).optional(),
  /** The evaluation set's model numbers (at most MAX_STORED_MODEL_NUMBERS; null: none); absent on older evaluations. */
  modelNumbers: z.array(zString().nullable()).optional(),
  /** The first MAX_STORED_CONTROL_HITS hits, in record order. */
  controlHits: z.array(ZControlHit),
  controlHitCount: z.number().int(),
  /** The run rules judged besides rule 1. */
  controlRules: z.array(ZControlRule),
  /** Values new since the previous evaluation: the points the control rules judged. */
  judgedCount: z.number().int(),
  /** Ppk + c · SE at capabilityAlpha (at α before it existed): a capability breach when below the target. */
  ppkUpperBound: figure,
  ppkStandardError: figure,
  /** 95 % intervals; null where the index is undefined. */
  intervals: z
    .object({
      cp: ZInterval.nullable(),
      cpk: ZInterval.nullable(),
      pp: ZInterval.nullable(),
      ppk: ZInterval.nullable(),
    })
    .nullable(),
  /** VIF of the evaluation values (AR(1) fit) and n / VIF. */
  vif: z.number(),
  effectiveCount: z.number(),
  /** Kurtosis and skewness of the window's values (training and evaluation) the bound allows for; skewness absent on older evaluations. */
  kurtosis: z.number(),
  skewness: z.number().optional(),
});
export type TCapCalibratedDetails = z.infer<typeof ZCapCalibratedDetails>;

/** CAP as first stored: Ppk against the target, points outside the control limits. */
export const ZCapUncorrectedDetails = z.object({
  ...capCommon,
  method: z.literal("uncorrected"),
  ppkBelowTarget: z.boolean(),
  violations: z.number().int(),
  violationParts: z.array(zString().nullable()),
});
export type TCapUncorrectedDetails = z.infer<typeof ZCapUncorrectedDetails>;

export const ZCapDetails = z.discriminatedUnion("method", [ZCapCalibratedDetails, ZCapUncorrectedDetails]);
export type TCapDetails = z.infer<typeof ZCapDetails>;

// ── NO_DATA ──

/** NO_DATA: why the window could not be judged (packages/stats codes), and a cap's limit errors. */
export const ZNoDataDetails = z.object({
  kind: z.literal("no_data"),
  code: zString(),
  limitErrors: z.array(zString()).optional(),
});
export type TNoDataDetails = z.infer<typeof ZNoDataDetails>;

/**
 * NO_DATA of a monitor none of whose signals is an active measurement any more: each was switched
 * off or given another entity type in Signal Management after the monitor was saved (issue #15).
 * Not a breach and not an error: the monitor is fine, it has nothing to watch until its signals
 * come back or it is edited (docs/monitoring.md "The window": no data is NO_DATA).
 */
export const NO_MONITORED_SIGNALS = {
  code: "NO_MONITORED_SIGNALS",
  reason: "all of this monitor's signals are switched off or no longer measurements in Signal Management",
} as const;

/** The NO_DATA reason a person reads for details that carry one of the product's own codes, else null. */
export function noDataReasonOf(details: unknown): string | null {
  if (details == null || typeof details !== "object") return null;
  const d = details as Record<string, unknown>;
  return d.kind === "no_data" && d.code === NO_MONITORED_SIGNALS.code ? NO_MONITORED_SIGNALS.reason : null;
}

export const ZEvaluationDetails = z.discriminatedUnion("kind", [
  ZSvdDetails,
  ZMvdDetails,
  ZCapDetails,
  ZNoDataDetails,
]);
export type TEvaluationDetails = z.infer<typeof ZEvaluationDetails>;

/**
 * The details of an evaluation of a monitor of `type`, or null when there are none or they do not
 * fit. Details stored before they carried `kind` are read as the monitor type's (or NO_DATA's
 * when they hold only a code); details stored before they carried `method` as the uncorrected
 * method's.
 */
export function parseEvaluationDetails(type: TMonitorType | string, raw: unknown): TEvaluationDetails | null {
  if (raw == null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const d = raw as Record<string, unknown>;
  const kind = typeof d.kind === "string" ? d.kind : "code" in d && !("n" in d) ? "no_data" : type;
  const method = kind === "no_data" || typeof d.method === "string" ? d.method : "uncorrected";
  const parsed = ZEvaluationDetails.safeParse(method === undefined ? { ...d, kind } : { ...d, kind, method });
  return parsed.success ? parsed.data : null;
}
