import {
  EVALUATION_SERIES_MAX_POINTS,
  evaluationChartSeries,
  evaluationSeriesPeriodError,
  type TEvaluationSeries,
  type TEvaluationSeriesQuery,
  type TLineEvaluationSeries,
} from "@linewatch/contracts";
import type { Db } from "../../db/client.js";
import { badRequest } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { LinesService } from "../lines/lines.service.js";
import {
  createEvaluationSeriesRepo,
  type SeriesAlertRow,
  type SeriesPointRow,
} from "./evaluation-series.repo.js";

/** Groups rows by their monitor, keeping their order. */
function byMonitor<T extends { monitorId: string }>(rows: readonly T[]) {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.monitorId);
    if (list) list.push(r);
    else out.set(r.monitorId, [r]);
  }
  return out;
}

/**
 * The line overview's scores over time (issue 32 §4): every monitor of the line with its
 * evaluations of the period (decimated past EVALUATION_SERIES_MAX_POINTS by the repository, every
 * breach kept while they fit half of it) and its alerts open at some time of the period. Scoped
 * to the session's customer: another customer's line is "not found". The period is at most
 * EVALUATION_SERIES_MAX_DAYS long.
 */
export function createEvaluationSeriesService(deps: { db: Db; lines: LinesService; maxPoints?: number }) {
  const maxPoints = deps.maxPoints ?? EVALUATION_SERIES_MAX_POINTS;
  return {
    async ofLine(
      ctx: AuthContext,
      lineId: string,
      query: TEvaluationSeriesQuery,
    ): Promise<TLineEvaluationSeries> {
      await deps.lines.get(ctx, lineId);
      const from = new Date(query.from);
      const to = new Date(query.to);
      const problem = evaluationSeriesPeriodError(from, to);
      if (problem) throw badRequest(problem);
      const repo = createEvaluationSeriesRepo(deps.db);
      const monitors = await repo.monitorsOfLine(ctx.customerId, lineId);
      const [points, alerts] = await Promise.all([
        repo.points(ctx.customerId, lineId, from, to, maxPoints),
        repo.alerts(
          ctx.customerId,
          monitors.map((m) => m.id),
          from,
          to,
        ),
      ]);
      const pointsOf = byMonitor(points);
      const alertsOf = byMonitor(alerts);
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        monitors: monitors.map((m): TEvaluationSeries => {
          const series = evaluationChartSeries(m.type);
          const rows = pointsOf.get(m.id) ?? [];
          const evaluationCount = rows[0]?.n ?? 0;
          return {
            monitor: {
              id: m.id,
              name: m.name,
              type: m.type,
              active: m.active,
              signal:
                m.type === "cap" && m.signalId && m.signalName != null
                  ? { id: m.signalId, name: m.signalName }
                  : null,
            },
            evaluationCount,
            isDecimated: rows.length < evaluationCount,
            points: rows.map((r: SeriesPointRow) => {
              const figures = { score: r.score, threshold: r.threshold, details: r.figures };
              return {
                slot: r.slot.toISOString(),
                state: r.state,
                score: r.score,
                threshold: r.threshold,
                plotScore: series.score(figures),
                plotThreshold: series.threshold(figures),
              };
            }),
            alerts: (alertsOf.get(m.id) ?? []).map((a: SeriesAlertRow) => ({
              id: a.id,
              state: a.state,
              openedAt: a.openedAt.toISOString(),
              lastSeenAt: a.lastSeenAt.toISOString(),
              resolvedAt: a.resolvedAt?.toISOString() ?? null,
            })),
          };
        }),
      };
    },
  };
}
export type EvaluationSeriesService = ReturnType<typeof createEvaluationSeriesService>;
