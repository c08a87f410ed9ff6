/**
 * Query preview (issue 4 §2): what a monitor with these settings would see and give now — the
 * window's training and evaluation sizes and time span, and its evaluation — without storing
 * anything. Same window query and pure evaluation as the worker; scoped to the session's customer
 * (a line or signal of another customer is "not found"). The "nothing new since the previous
 * evaluation" rule does not apply: a preview has no previous evaluation.
 */
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors.js";
import { evaluateMonitor, type MonitorType, splitWindow } from "../../worker/evaluate/evaluate.js";
import { type MonitorFilter, ratioOf } from "../../worker/evaluate/filter.js";
import { loadWindow, WindowError } from "../../worker/evaluate/window.js";
import type { AuthContext } from "../auth/auth.service.js";

export type MonitorPreviewInput = {
  type: MonitorType;
  lineId: string;
  alertThreshold: "low" | "medium" | "high";
  useExcludedPartIds: boolean;
  useExcludedModelNumbers: boolean;
  filter: MonitorFilter;
};

export type MonitorPreview = {
  window_size: number;
  training_size: number;
  evaluation_size: number;
  /** Oldest and newest record time of the window (null when it is empty). */
  from: string | null;
  to: string | null;
  training_from: string | null;
  evaluation_from: string | null;
  evaluation: {
    state: "OK" | "BREACH" | "NO_DATA" | "ERROR";
    reason: string | null;
    score: number | null;
    threshold: number | null;
    training_size: number | null;
    evaluation_size: number | null;
    details: Record<string, unknown> | null;
  };
};

export function createMonitorPreview(deps: { db: Db }) {
  return {
    async preview(ctx: AuthContext, input: MonitorPreviewInput): Promise<MonitorPreview> {
      let window: Awaited<ReturnType<typeof loadWindow>>;
      try {
        window = await loadWindow(deps.db, {
          customerId: ctx.customerId,
          lineId: input.lineId,
          type: input.type,
          filter: input.filter,
          useExcludedPartIds: input.useExcludedPartIds,
          useExcludedModelNumbers: input.useExcludedModelNumbers,
        });
      } catch (err) {
        if (err instanceof WindowError)
          throw new AppError(err.code === "NOT_FOUND" ? "NOT_FOUND" : "BAD_REQUEST", err.message);
        throw err;
      }
      const ratio = ratioOf(input.filter);
      const r = evaluateMonitor(
        {
          type: input.type,
          alertThreshold: input.alertThreshold,
          sampleSize: input.filter.sample_size,
          evaluationRatio: ratio,
          previousLastRecordTs: null,
        },
        window,
      );
      const { training, evaluation } = splitWindow(window.records, input.filter.sample_size, ratio);
      const iso = (d: Date | undefined) => (d ? d.toISOString() : null);
      return {
        window_size: window.records.length,
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
          details: r.details,
        },
      };
    },
  };
}
