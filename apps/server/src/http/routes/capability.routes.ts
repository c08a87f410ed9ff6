import { ZCapabilityParams, ZCapabilityQuery, ZCapabilityView, ZMessage } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf, clientGone } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };

/** The capability view of a signal over a period (issue #14): every user of the customer reads it. */
export function capabilityRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/lines/:lineId/signals/:signalId/capability",
    {
      config: { access: "user" as const },
      schema: {
        operationId: "getSignalCapability",
        tags: ["capability"],
        description:
          "I-MR chart points (decimated past CAPABILITY_MAX_CHART_POINTS), histogram and Cp/Cpk/Pp/Ppk per model number with 95 % intervals of the signal's records from `from` to `to` (at most MVD_QUERY_MAX_RECORD_COUNT, the newest); the statistics use every record read.",
        params: ZCapabilityParams,
        querystring: ZCapabilityQuery,
        response: { 200: ZCapabilityView, ...errors },
      },
    },
    (req, reply) =>
      services.capability.view(authOf(req), req.params.lineId, req.params.signalId, req.query, {
        signal: clientGone(reply),
      }),
  );
}
