import { ZCapMonitorStatusList, ZLineParams, ZMessage } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };

/** The Cap Alerts grid's last state, Ppk and latest alert per cap monitor (issue #14). */
export function capAlertsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/lines/:lineId/cap-monitors/status",
    {
      schema: {
        operationId: "getCapMonitorStatus",
        tags: ["cap-alerts"],
        params: ZLineParams,
        response: { 200: ZCapMonitorStatusList, ...errors },
      },
    },
    (req) => services.capAlerts.status(authOf(req), req.params.lineId),
  );
}
