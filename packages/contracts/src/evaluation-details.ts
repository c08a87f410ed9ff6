import { z } from "zod";
import { zString } from "./common.js";
import type { TMonitorType } from "./domain.js";

// An evaluation's `details` (evaluations.details jsonb): what the worker stores beside the score
// and threshold, one shape per kind. The worker builds them; the alert drawer and the Teams card
// read them through parseEvaluationDetails, never through hand-written guards.

/** A figure that may be undefined (a capability index without both spec limits, say). */
const figure = z.number().nullable();
const ZSignalRef = z.object({ id: zString().nullable(), name: zString().nullable() });
const ZLeftOut = z.object({ training: z.number().int(), evaluation: z.number().int() });

/** SVD: the Wasserstein distance of the evaluation values from the training values, in σ. */
export const ZSvdDetails = z.object({
  kind: z.literal("svd"),
  signal: ZSignalRef,
  w1: z.number(),
  scale: z.number(),
  scaleSource: zString(),
  k: z.number(),
  nEff: z.number(),
  m: z.number().int(),
  n: z.number().int(),
  trainingMean: z.number(),
  trainingSd: z.number(),
  evaluationMean: z.number(),
  evaluationSd: z.number(),
  leftOut: ZLeftOut,
});
export type TSvdDetails = z.infer<typeof ZSvdDetails>;

/** One of the evaluation rows with the highest T², and the signals that contributed most to it. */
export const ZMvdWorstRow = z.object({
  partId: zString().nullable(),
  ts: zString().nullable(),
  t2: figure,
  topSignals: z.array(ZSignalRef.extend({ contribution: z.number() })),
});
export type TMvdWorstRow = z.infer<typeof ZMvdWorstRow>;

/** MVD: how many evaluation rows exceed the Phase II UCL (k of n), and that count's p-value against α. */
export const ZMvdDetails = z.object({
  kind: z.literal("mvd"),
  ucl: z.number(),
  k: z.number().int(),
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
});
export type TMvdDetails = z.infer<typeof ZMvdDetails>;

/** CAP: capability indices against the target, control-limit violations, the limits used. */
export const ZCapDetails = z.object({
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
  ppkBelowTarget: z.boolean(),
  violations: z.number().int(),
  violationParts: z.array(zString().nullable()),
  limits: z.object({
    lsl: figure,
    usl: figure,
    lcl: z.array(z.number()),
    ucl: z.array(z.number()),
    formulas: z.record(zString(), z.unknown()),
  }),
  limitErrors: z.array(zString()),
  leftOut: z.number().int(),
});
export type TCapDetails = z.infer<typeof ZCapDetails>;

/** NO_DATA: why the window could not be judged (packages/stats codes), and a cap's limit errors. */
export const ZNoDataDetails = z.object({
  kind: z.literal("no_data"),
  code: zString(),
  limitErrors: z.array(zString()).optional(),
});
export type TNoDataDetails = z.infer<typeof ZNoDataDetails>;

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
 * when they hold only a code).
 */
export function parseEvaluationDetails(type: TMonitorType | string, raw: unknown): TEvaluationDetails | null {
  if (raw == null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const d = raw as Record<string, unknown>;
  const kind = typeof d.kind === "string" ? d.kind : "code" in d && !("n" in d) ? "no_data" : type;
  const parsed = ZEvaluationDetails.safeParse({ ...d, kind });
  return parsed.success ? parsed.data : null;
}
