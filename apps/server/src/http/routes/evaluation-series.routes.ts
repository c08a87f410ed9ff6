import {
  ZEvaluationSeriesParams,
  ZEvaluationSeriesQuery,
  ZLineEvaluationSeries,
  ZMessage,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };

/** The line overview's scores over time (issue 32 §4): every user of the customer reads them. */
export function evaluationSeriesRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/lines/:lineId/evaluation-series",
    {
      config: { access: "user" as const },
      schema: {
        operationId: "getLineEvaluationSeries",
        tags: ["monitors"],
        description:
          "Every monitor of the line with its evaluations from `from` to `to` (at most EVALUATION_SERIES_MAX_DAYS): slot, state, score and threshold, decimated past EVALUATION_SERIES_MAX_POINTS per monitor (the lowest and highest score of each stretch, every breach while they fit half the points), and its alerts open at some time of the period.",
        params: ZEvaluationSeriesParams,
        querystring: ZEvaluationSeriesQuery,
        response: { 200: ZLineEvaluationSeries, ...errors },
      },
    },
    (req) => services.evaluationSeries.ofLine(authOf(req), req.params.lineId, req.query),
  );
}
