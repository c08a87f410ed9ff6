import { z } from "zod";
import { ZAlert, ZAlertEvaluation, ZAlertMonitor } from "./alerts.js";
import { ZId, ZIsoDateTime, zString } from "./common.js";

/**
 * The line overview's "Scores over time" (issue 32 §4): each monitor's evaluations of a period,
 * score against threshold, breaches and alerts marked, so a person sees a drift before it alarms.
 * GET /api/lines/{lineId}/evaluation-series?from=&to=.
 */

/** Most points one monitor's series gets: more evaluations are decimated (every breach kept). */
export const EVALUATION_SERIES_MAX_POINTS = 500;
/** The longest period one request reads: 31 days. */
export const EVALUATION_SERIES_MAX_DAYS = 31;

export const EVALUATION_SERIES_MESSAGES = {
  title: "Scores over time",
  period: "Period",
  presets: { day: "Last 24 hours", week: "Last 7 days", month: "Last 30 days" },
  order: "From must be before To",
  tooLong: `The period can be at most ${EVALUATION_SERIES_MAX_DAYS} days`,
  loadError: "Error loading the scores over time",
  noMonitors: "No monitors watch this line yet.",
  empty: "No evaluations in this period",
  chartLabel: (monitor: string) => `Scores of ${monitor} over time`,
  breach: "Breach",
  inactive: "inactive",
  capability: "Capability (I-MR)",
  // Its name starts with the button's text, so voice control can say it (axe: label-content-name-mismatch).
  capabilityFor: (signal: string) => `Capability (I-MR) of ${signal} over this period`,
  decimated: (shown: number, n: number) =>
    `${shown} of ${n} evaluations drawn: the lowest and highest score of each stretch, breaches kept apart from the rest.`,
  caption: (n: number, breaches: number, alerts: number, timeZone: string) =>
    `${n} evaluation${n === 1 ? "" : "s"}, ${breaches} breach${breaches === 1 ? "" : "es"} marked, ${alerts} alert${alerts === 1 ? "" : "s"} shaded; times in ${timeZone}.`,
} as const;

export const ZEvaluationSeriesParams = z.strictObject({ lineId: ZId });
export const ZEvaluationSeriesQuery = z.strictObject({ from: ZIsoDateTime, to: ZIsoDateTime });
export type TEvaluationSeriesQuery = z.infer<typeof ZEvaluationSeriesQuery>;

/** The period's problem in the product's words, or null when it is one the series can read. */
export function evaluationSeriesPeriodError(from: Date, to: Date): string | null {
  if (!(from.getTime() < to.getTime())) return EVALUATION_SERIES_MESSAGES.order;
  if (to.getTime() - from.getTime() > EVALUATION_SERIES_MAX_DAYS * 86_400_000)
    return EVALUATION_SERIES_MESSAGES.tooLong;
  return null;
}

/**
 * One evaluation drawn: its stored score and threshold, and the values the chart plots
 * (evaluationChartSeries: an MVD plots its p-value against α on a log scale).
 */
export const ZEvaluationSeriesPoint = ZAlertEvaluation.pick({
  slot: true,
  state: true,
  score: true,
  threshold: true,
}).extend({
  plotScore: z.number().nullable(),
  plotThreshold: z.number().nullable(),
});
export type TEvaluationSeriesPoint = z.infer<typeof ZEvaluationSeriesPoint>;

/** An alert of the monitor opened, or seen, in the period. */
export const ZEvaluationSeriesAlert = ZAlert.pick({
  id: true,
  state: true,
  openedAt: true,
  lastSeenAt: true,
  resolvedAt: true,
});
export type TEvaluationSeriesAlert = z.infer<typeof ZEvaluationSeriesAlert>;

export const ZEvaluationSeries = z.object({
  monitor: ZAlertMonitor.extend({
    active: z.boolean(),
    /** A CAP monitor's signal (its capability view draws the I-MR points); null for SVD and MVD. */
    signal: z.object({ id: ZId, name: zString() }).nullable(),
  }),
  /** Evaluations of the period (all of them unless isDecimated). */
  evaluationCount: z.number().int(),
  isDecimated: z.boolean(),
  /** Oldest first. */
  points: z.array(ZEvaluationSeriesPoint),
  /** Oldest first. */
  alerts: z.array(ZEvaluationSeriesAlert),
});
export type TEvaluationSeries = z.infer<typeof ZEvaluationSeries>;

export const ZLineEvaluationSeries = z.object({
  from: ZIsoDateTime,
  to: ZIsoDateTime,
  /** Every monitor of the line, by name. */
  monitors: z.array(ZEvaluationSeries),
});
export type TLineEvaluationSeries = z.infer<typeof ZLineEvaluationSeries>;
