import {
  ZAssociatedResultClassifications,
  ZAssociatedResultClassificationsBody,
  ZLineParams,
  ZLineSignalsQuery,
  ZMessage,
  ZModelNumberList,
  ZPartAttributeList,
  ZSignalGroupList,
  ZSignalGroupsBody,
  ZStationList,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };

/** What the monitor forms read of a line: signals, groups, part attributes, model numbers. */
export function signalsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["signals"];

  r.get(
    "/api/lines/:lineId/signals",
    {
      schema: {
        operationId: "listLineSignals",
        tags,
        params: ZLineParams,
        querystring: ZLineSignalsQuery,
        response: { 200: ZStationList, ...errors },
      },
    },
    (req) =>
      services.signals.stations(authOf(req), req.params.lineId, { activeOnly: req.query.active === "true" }),
  );

  r.get(
    "/api/lines/:lineId/part-attributes",
    {
      schema: {
        operationId: "listPartAttributes",
        tags,
        params: ZLineParams,
        response: { 200: ZPartAttributeList, ...errors },
      },
    },
    (req) => services.signals.partAttributes(authOf(req), req.params.lineId),
  );

  r.get(
    "/api/lines/:lineId/model-numbers",
    {
      schema: {
        operationId: "listModelNumbers",
        tags,
        params: ZLineParams,
        response: { 200: ZModelNumberList, ...errors },
      },
    },
    (req) => services.signals.modelNumbers(authOf(req), req.params.lineId),
  );

  r.post(
    "/api/signal-groups",
    {
      schema: {
        operationId: "listSignalGroups",
        tags,
        body: ZSignalGroupsBody,
        response: { 200: ZSignalGroupList, ...errors },
      },
    },
    (req) => services.signals.signalGroups(authOf(req), req.body),
  );

  r.post(
    "/api/signal/associated-result-classifications",
    {
      schema: {
        operationId: "associatedResultClassifications",
        tags,
        body: ZAssociatedResultClassificationsBody,
        response: { 200: ZAssociatedResultClassifications, ...errors },
      },
    },
    (req) => services.signals.associatedResultClassifications(authOf(req), req.body),
  );
}
