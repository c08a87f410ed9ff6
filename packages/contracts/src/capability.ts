import { z } from "zod";
import { ZId, zString } from "./common.js";

/**
 * The capability view of a signal (issue #14, beyond the spec): an I-MR chart of a period with
 * LCL/UCL/LSL/USL and the points breaking Western Electric rules 1–4, a histogram against the
 * spec limits, and Cp, Cpk, Pp, Ppk per model number with Minitab's 95 % intervals and n.
 * GET /api/lines/{lineId}/signals/{signalId}/capability?from=&to=[&model=].
 * Opened from a CAP alert it shows that alert's records (its evaluation set's period and, when
 * they were one model number's, that model) and the alert's own figures (issue 32 §2).
 */

/** Most points the chart gets: more records are decimated (min and max per bucket, every rule break kept). */
export const CAPABILITY_MAX_CHART_POINTS = 2000;
/**
 * The records a view reads (issue 31 §4): a period holding more is sampled — cut into `stretches`
 * equal stretches of time and the first maxRecords / stretches records of each read (a month of a
 * station writing 5,000 parts an hour is 3.7 M records; 40,000 read in about 0.5 s on the 2-core
 * machine beside other work, see docs/decisions/0315).
 */
export const CAPABILITY_BOUNDS = { maxRecords: 40_000, stretches: 20 } as const;
const perStretch = CAPABILITY_BOUNDS.maxRecords / CAPABILITY_BOUNDS.stretches;

/** The model row of every record of the period. */
export const CAPABILITY_ALL_MODELS = "*";

export const CAPABILITY_MESSAGES = {
  open: "Capability",
  openFor: (signal: string) => `Open the capability view of ${signal}`,
  title: (signal: string) => `Capability of ${signal}`,
  close: "Close",
  from: "From",
  to: "To",
  timeZone: (timeZone: string) => `Plant time (${timeZone})`,
  presets: { day: "Last 24 hours", week: "Last 7 days", month: "Last 30 days" },
  order: "From must be before To",
  /** The view used up its computing budget (STATS_REQUEST_CPU_MS) and was stopped. */
  tooLong: (seconds: number) =>
    `The capability view needed more than its ${seconds} s of computing and was stopped: choose a shorter period`,
  loading: "Loading the capability view",
  empty: "No records in this period",
  loadError: (detail: string) => `Error loading the capability view: ${detail}`,
  retry: "Retry",
  individuals: "Individuals (I)",
  movingRange: "Moving range (MR)",
  histogram: "Histogram against the spec limits",
  table: "Capability per model number (95 % confidence intervals)",
  columns: { model: "Model", n: "n", cp: "Cp", cpk: "Cpk", pp: "Pp", ppk: "Ppk", note: "Note" },
  allModels: "All models",
  noModel: "No model number",
  truncated: (n: number) =>
    `More records than the view reads: ${n} are shown, the first ${perStretch.toLocaleString("en-US")} of each of ${CAPABILITY_BOUNDS.stretches} equal stretches of the period (every record of a stretch with fewer); the statistics use these ${n}.`,
  decimated: (shown: number, n: number) =>
    `${shown} of ${n} points drawn (the lowest and highest of each stretch and every rule break); the statistics use all ${n} records.`,
  ruleCounts: (counts: string) => `Rule breaks: ${counts}`,
  model: "Model number",
  alertTitle: "The alert's evaluation",
  alertFigures: (f: { n: number; ppk: string; bound: string; level: string; target: string }) =>
    `Ppk ${f.ppk} over the ${f.n} records it judged; its upper confidence bound ${f.bound} (at level ${f.level}) against the target ${f.target}.`,
  alertWhy:
    "An alert judges Ppk's upper confidence bound, not Ppk itself: it fires only when even the bound lies below the target, so that the chance of a few records does not raise it. The view shows Ppk with its 95 % interval over the records of the period and model chosen; opened from the alert, those are the records the alert judged.",
  alertControl: (hits: number) => `${hits} point${hits === 1 ? "" : "s"} broke a control rule.`,
  alertNoPeriod:
    "This evaluation did not keep its records' period (it is older than this view's link to it): the view shows the 7 days before it.",
  rule: (rule: number) => `Rule ${rule}`,
  // why a model row has no indices
  noSpecLimits: "No LSL or USL",
  specLimitsDiffer: "LSL or USL differs between records (a formula)",
  tooFew: "Fewer than 2 values",
  constant: "Constant values (σ = 0)",
} as const;

export const ZCapabilityParams = z.strictObject({ lineId: ZId, signalId: ZId });
export const ZCapabilityQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  /** Only the records of this model number; absent: every record of the period. */
  model: zString().trim().min(1).max(200).optional(),
});
export type TCapabilityQuery = z.infer<typeof ZCapabilityQuery>;

export const ZControlRuleNumber = z.literal([1, 2, 3, 4]);
const zLimit = z.number().nullable();
const zInterval = z.tuple([z.number(), z.number()]).nullable();

/** One point of the I-MR chart: a record of the period and the limits its formulas gave. */
export const ZCapabilityPoint = z.object({
  ts: zString(),
  partId: zString(),
  modelNumber: zString().nullable(),
  value: z.number(),
  /** |value − previous value|; null for the first. */
  mr: z.number().nullable(),
  lsl: zLimit,
  lcl: zLimit,
  ucl: zLimit,
  usl: zLimit,
  /** The Western Electric rules this point breaks (the run it completes ends here). */
  rules: z.array(ZControlRuleNumber),
});
export type TCapabilityPoint = z.infer<typeof ZCapabilityPoint>;

/** Capability of one model number's records ('*' = every record of the period). */
export const ZCapabilityModel = z.object({
  modelNumber: zString().nullable(),
  n: z.number().int(),
  mean: z.number().nullable(),
  sigmaWithin: z.number().nullable(),
  sigmaOverall: z.number().nullable(),
  lsl: zLimit,
  usl: zLimit,
  cp: zLimit,
  cpk: zLimit,
  pp: zLimit,
  ppk: zLimit,
  intervals: z.object({ cp: zInterval, cpk: zInterval, pp: zInterval, ppk: zInterval }).nullable(),
  /** Why the indices are missing, in the product's words (CAPABILITY_MESSAGES). */
  note: zString().nullable(),
});
export type TCapabilityModel = z.infer<typeof ZCapabilityModel>;

export const ZCapabilityView = z.object({
  signal: z.object({ id: ZId, name: zString() }),
  from: zString(),
  to: zString(),
  /** Records of the period read (all of them unless isTruncated). */
  recordCount: z.number().int(),
  /** The period held more than CAPABILITY_BOUNDS.maxRecords: the records are a sample of its stretches. */
  isTruncated: z.boolean(),
  /** The chart's points are a decimation of the records (the statistics are not). */
  isDecimated: z.boolean(),
  points: z.array(ZCapabilityPoint),
  mean: z.number().nullable(),
  mrBar: z.number().nullable(),
  mrUcl: z.number().nullable(),
  histogram: z.object({ edges: z.array(z.number()), counts: z.array(z.number().int()) }).nullable(),
  /** Points breaking each rule, over every record. */
  ruleCounts: z.object({
    1: z.number().int(),
    2: z.number().int(),
    3: z.number().int(),
    4: z.number().int(),
  }),
  models: z.array(ZCapabilityModel),
});
export type TCapabilityView = z.infer<typeof ZCapabilityView>;
