import {
  ZAssociatedResultClassifications,
  ZAssociatedResultClassificationsBody,
  ZLineParams,
  ZLineSignalsQuery,
  ZMessage,
  ZModelNumberList,
  ZPartAttributeList,
  ZResultClassificationsPatchBody,
  ZSignalAttributeUpdateBody,
  ZSignalGroupList,
  ZSignalGroupsBody,
  ZSignalSingleSideBody,
  ZStationList,
  ZStationParams,
  ZStationPatchBody,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage };
const writeErrors = { ...errors, 403: ZMessage };

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

  // ── Signal Management (requirements.md settings §2.8, §7): every change in one transaction ──

  r.patch(
    "/api/stations/:stationId",
    {
      schema: {
        operationId: "updateStation",
        tags,
        params: ZStationParams,
        body: ZStationPatchBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.signals.setStationFinal(authOf(req), req.params.stationId, req.body.final);
      return reply.code(204).send(null);
    },
  );

  r.patch(
    "/api/signal-attribute-update",
    {
      schema: {
        operationId: "updateSignalAttributes",
        tags,
        body: ZSignalAttributeUpdateBody,
        response: { 204: z.null(), ...writeErrors },
      },
    },
    async (req, reply) => {
      await services.signals.updateAttributes(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  r.patch(
    "/api/signals",
    {
      schema: {
        operationId: "updateSignalSingleSides",
        tags,
        body: ZSignalSingleSideBody,
        response: { 204: z.null(), ...writeErrors },
      },
    },
    async (req, reply) => {
      await services.signals.setSingleSides(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  r.patch(
    "/api/signal/result-classifications",
    {
      schema: {
        operationId: "saveResultClassifications",
        tags,
        body: ZResultClassificationsPatchBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.signals.saveResultClassifications(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );
}
