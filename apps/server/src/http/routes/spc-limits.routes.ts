import {
  ZMessage,
  ZSpcLimitsQuery,
  ZSpcSignalLimitsList,
  ZSpcSuggestBody,
  ZSpcSuggestionList,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf, clientGone } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };

/** SPC signal limits of a line: requirements.md settings §7 (GET and PUT /api/line-config/spc-signal-limits). */
export function spcLimitsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["spc-limits"];

  r.get(
    "/api/line-config/spc-signal-limits",
    {
      schema: {
        operationId: "getSpcSignalLimits",
        tags,
        querystring: ZSpcLimitsQuery,
        response: { 200: ZSpcSignalLimitsList, ...errors },
      },
    },
    (req) => services.spcLimits.list(authOf(req), req.query["line-id"]),
  );

  r.put(
    "/api/line-config/spc-signal-limits",
    {
      schema: {
        operationId: "saveSpcSignalLimits",
        tags,
        querystring: ZSpcLimitsQuery,
        body: ZSpcSignalLimitsList,
        response: { 200: ZSpcSignalLimitsList, ...errors },
      },
    },
    (req) => services.spcLimits.save(authOf(req), req.query["line-id"], req.body),
  );

  r.post(
    "/api/line-config/spc-signal-limits/suggest",
    {
      schema: {
        operationId: "suggestSpcControlLimits",
        tags,
        querystring: ZSpcLimitsQuery,
        body: ZSpcSuggestBody,
        response: { 200: ZSpcSuggestionList, ...errors },
      },
    },
    (req, reply) =>
      services.spcLimits.suggest(authOf(req), req.query["line-id"], req.body, { signal: clientGone(reply) }),
  );
}
