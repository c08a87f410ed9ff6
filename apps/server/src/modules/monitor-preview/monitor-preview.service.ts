/**
 * Query preview (issue 4 §2): what a monitor with these settings would see and give — the
 * window's training and evaluation sizes and time span, and its evaluation — without storing
 * anything. Same window query and pure evaluation as the worker; scoped to the session's customer
 * (a line or signal of another customer is "not found"). The "nothing new since the previous
 * evaluation" rule does not apply: a preview has no previous evaluation.
 *
 * Without a period the window is the newest sample_size records now, what the saved monitor
 * evaluates. With one (the Data Filters tab's period, ZPreviewPeriod) the window is the period's
 * records and the evaluation set the newest round(window × ratio) of them; fewer than 25 is
 * NO_DATA, as for a monitor.
 *
 * The evaluation runs on a statistics thread (stats-pool.ts) within STATS_REQUEST_CPU_MS of CPU
 * time, and stops when the request's client goes away.
 */
import {
  MONITOR_MESSAGES,
  parseEvaluationDetails,
  QUERY_BOUNDS,
  QUERY_MESSAGES,
  ratioOf,
  runRulesOf,
  type TAlertThreshold,
  type TMonitorPreview,
  type TMonitorType,
  type TPreviewLevelSupport,
  type TPreviewPeriod,
  type TStoredMonitorFilter,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { AppError, badRequest } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import { type EvaluationResult, splitWindow } from "../evaluation/evaluate.js";
import { StatsBudgetError, type StatsPool } from "../evaluation/stats-pool.js";
import { packWindow } from "../evaluation/window.pack.js";
import { loadWindow, WindowError, type WindowPeriod } from "../evaluation/window.read.js";

export type MonitorPreviewInput = {
  type: TMonitorType;
  lineId: string;
  alertThreshold: TAlertThreshold;
  useExcludedPartIds: boolean;
  useExcludedModelNumbers: boolean;
  filter: TStoredMonitorFilter;
  period?: TPreviewPeriod;
};

const MIN_EVALUATION = QUERY_BOUNDS.minEvaluationRecordCount;

export function createMonitorPreview(deps: {
  db: Db;
  /** MVD_QUERY_MAX_RECORD_COUNT: the largest window a preview reads. */
  maxRecordCount: number;
  stats: StatsPool;
  /** STATS_REQUEST_CPU_MS: the CPU time one preview's statistics may take. */
  cpuBudgetMs: number;
}) {
  const { maxRecordCount } = deps;

  /** The window of a period: its records, at most maxRecordCount. */
  function windowPeriod(p: TPreviewPeriod): WindowPeriod {
    const from = p.from == null ? null : new Date(p.from);
    const to = p.to == null ? null : new Date(p.to);
    if (from && to && from.getTime() > to.getTime()) throw badRequest(QUERY_MESSAGES.startAfterEnd);
    if (p.records != null && p.records > maxRecordCount)
      throw badRequest(MONITOR_MESSAGES.sampleSizeMax(maxRecordCount));
    return { from, to, limit: p.records ?? maxRecordCount, anchor: p.anchor };
  }

  return {
    async preview(
      ctx: AuthContext,
      input: MonitorPreviewInput,
      opts: { signal?: AbortSignal } = {},
    ): Promise<TMonitorPreview> {
      const period = input.period ? windowPeriod(input.period) : undefined;
      if (!period && input.filter.sample_size > maxRecordCount)
        throw badRequest(MONITOR_MESSAGES.sampleSizeMax(maxRecordCount));
      let window: Awaited<ReturnType<typeof loadWindow>>;
      try {
        window = await loadWindow(
          deps.db,
          {
            customerId: ctx.customerId,
            lineId: input.lineId,
            type: input.type,
            filter: input.filter,
            useExcludedPartIds: input.useExcludedPartIds,
            useExcludedModelNumbers: input.useExcludedModelNumbers,
            period,
          },
          { signal: opts.signal },
        );
      } catch (err) {
        if (err instanceof WindowError)
          throw new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
        throw err;
      }
      const ratio = ratioOf(input.filter);
      const n = window.records.length;
      // A period's window is whatever it holds: the split follows its size, not sample_size.
      const sampleSize = period && n > 0 ? n : input.filter.sample_size;
      const evaluationCount = Math.round(sampleSize * ratio);
      const { training, evaluation } = period
        ? {
            training: window.records.slice(0, n - evaluationCount),
            evaluation: window.records.slice(n - evaluationCount),
          }
        : splitWindow(window.records, sampleSize, ratio);
      let r: EvaluationResult;
      let levelSupport: TPreviewLevelSupport | null = null;
      if (period && n > 0 && evaluationCount < MIN_EVALUATION) {
        r = {
          state: "NO_DATA",
          reason: `the period has ${n} records: its evaluation set (${evaluationCount}) needs at least ${MIN_EVALUATION}`,
          score: null,
          threshold: null,
          trainingSize: null,
          evaluationSize: null,
          lastRecordTs: window.records.at(-1)?.ts ?? null,
          details: null,
        };
      } else {
        const { packed, transfer } = await packWindow(window);
        try {
          const answer = await deps.stats.run(
            "preview",
            {
              settings: {
                type: input.type,
                alertThreshold: input.alertThreshold,
                sampleSize,
                evaluationRatio: ratio,
                previousLastRecordTs: null,
                // cap: the Western Electric rules 2–4 turned on, as the worker passes them (issue #14)
                ...(input.type === "cap" ? { runRules: runRulesOf(input.filter) } : {}),
              },
              window: packed,
              // The monitor's own window, whatever the period previewed: does it hold its level?
              monitorSampleSize: input.filter.sample_size,
            },
            transfer,
            { cpuBudgetMs: deps.cpuBudgetMs, signal: opts.signal },
          );
          r = answer.evaluation;
          const s = answer.levelSupport;
          levelSupport = s && {
            holds: s.holds,
            measured_records: s.measuredRecords,
            training_records: s.trainingRecords,
            effective_sample_size: s.effectiveSampleSize,
            minimum_sample_size: s.minimumSampleSize,
            vif: s.vif,
            ar_order: s.arOrder,
            limited_by: s.limitedBy,
            cycle: s.cycle,
          };
        } catch (err) {
          if (err instanceof StatsBudgetError)
            throw badRequest(QUERY_MESSAGES.previewTooLong(Math.round(err.budgetMs / 1000)));
          throw err;
        }
      }
      const iso = (d: Date | undefined) => (d ? d.toISOString() : null);
      return {
        window_size: n,
        training_size: training.length,
        evaluation_size: evaluation.length,
        from: iso(window.records[0]?.ts),
        to: iso(window.records.at(-1)?.ts),
        training_from: iso(training[0]?.ts),
        evaluation_from: iso(evaluation[0]?.ts),
        evaluation: {
          state: r.state,
          reason: r.reason,
          score: r.score,
          threshold: r.threshold,
          training_size: r.trainingSize,
          evaluation_size: r.evaluationSize,
          details: parseEvaluationDetails(input.type, r.details),
        },
        level_support: levelSupport,
      };
    },
  };
}

export type MonitorPreviewService = ReturnType<typeof createMonitorPreview>;
