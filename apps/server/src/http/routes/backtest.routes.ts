import { ZBacktest, ZMessage } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

/** Backtest: issue #18 §1. */
export function backtestRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/monitors/backtest",
    {
      schema: {
        operationId: "backtestMonitor",
        tags: ["monitors"],
        description:
          "Replays a monitor (`task`: its settings as a create takes them, with the form's `rules`; or `monitor_uuid`: a saved one) at its frequency over `period` (default the last 7 days, at most 30): each slot's window, evaluation, alert rules and alert opening / auto-resolving, by the worker's code. Stores nothing.",
        body: services.backtest.schemas.ZBacktestBody,
        response: { 200: ZBacktest, 400: ZMessage, 401: ZMessage, 404: ZMessage },
      },
    },
    (req) => services.backtest.backtest(authOf(req), req.body),
  );
}
