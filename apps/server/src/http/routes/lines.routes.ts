import {
  ZActiveMonitorCountList,
  ZAlertViewingWindow,
  ZAlertViewingWindowBody,
  ZAlertViewingWindowList,
  ZFeederLineInfo,
  ZLine,
  ZLineExclusionOptions,
  ZLineList,
  ZLineParams,
  ZLinePatch,
  ZMessage,
  ZPlantIdQuery,
  ZPlantParams,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

/**
 * Lines and Line Management (requirements.md settings §2.9, §7): any signed-in user of the customer may view
 * and edit lines (docs/architecture.md "who may change what").
 */
export function linesRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["lines"];

  r.get(
    "/api/plants/:plantId/lines",
    {
      schema: {
        operationId: "listLines",
        tags,
        params: ZPlantParams,
        response: { 200: ZLineList, 404: ZMessage },
      },
    },
    (req) => services.lines.listForPlant(authOf(req), req.params.plantId),
  );

  r.get(
    "/api/lines/:lineId",
    {
      schema: { operationId: "getLine", tags, params: ZLineParams, response: { 200: ZLine, 404: ZMessage } },
    },
    (req) => services.lines.get(authOf(req), req.params.lineId),
  );

  r.patch(
    "/api/lines/:lineId",
    {
      schema: {
        operationId: "updateLine",
        tags,
        params: ZLineParams,
        body: ZLinePatch,
        response: { 200: ZLine, 409: ZMessage, ...errors },
      },
    },
    (req) => services.lines.update(authOf(req), req.params.lineId, req.body),
  );

  r.get(
    "/api/lines/:lineId/feeder-lines",
    {
      schema: {
        operationId: "getFeederLineInfo",
        tags,
        params: ZLineParams,
        response: { 200: ZFeederLineInfo, ...errors },
      },
    },
    (req) => services.lines.feederLineInfo(authOf(req), req.params.lineId),
  );

  r.get(
    "/api/lines/:lineId/exclusion-options",
    {
      schema: {
        operationId: "getLineExclusionOptions",
        tags,
        params: ZLineParams,
        response: { 200: ZLineExclusionOptions, ...errors },
      },
    },
    (req) => services.lines.exclusionOptions(authOf(req), req.params.lineId),
  );

  r.get(
    "/api/plant/get-active-monitor-count",
    {
      schema: {
        operationId: "getActiveMonitorCount",
        tags,
        querystring: ZPlantIdQuery,
        response: { 200: ZActiveMonitorCountList, ...errors },
      },
    },
    (req) => services.lines.activeMonitorCounts(authOf(req), req.query.plantId),
  );

  r.get(
    "/api/notifications/notifications/plants/:plantId/alert-viewing-window",
    {
      schema: {
        operationId: "listAlertViewingWindows",
        tags,
        params: ZPlantParams,
        response: { 200: ZAlertViewingWindowList, ...errors },
      },
    },
    (req) => services.lines.alertViewingWindows(authOf(req), req.params.plantId),
  );

  r.put(
    "/api/notifications/notifications/lines/:lineId/alert-viewing-window",
    {
      schema: {
        operationId: "setAlertViewingWindow",
        tags,
        params: ZLineParams,
        body: ZAlertViewingWindowBody,
        response: { 200: ZAlertViewingWindow, ...errors },
      },
    },
    (req) =>
      services.lines.setAlertViewingWindow(authOf(req), req.params.lineId, req.body.alertViewingWindowDays),
  );
}
