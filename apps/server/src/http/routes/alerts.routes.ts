import {
  ZAlert,
  ZAlertCauses,
  ZAlertCommentBody,
  ZAlertDetail,
  ZAlertEvaluationParams,
  ZAlertEvent,
  ZAlertList,
  ZAlertParams,
  ZAlertResolveBody,
  ZEvaluationValues,
  ZLineParams,
  ZMessage,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage, 409: ZMessage };

/** Alerts: any signed-in user of the customer (docs/monitoring.md "Alerts"). */
export function alertsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["alerts"];

  r.get(
    "/api/lines/:lineId/alerts",
    {
      schema: {
        operationId: "listLineAlerts",
        tags,
        params: ZLineParams,
        response: { 200: ZAlertList, ...errors },
      },
    },
    (req) => services.alerts.listForLine(authOf(req), req.params.lineId),
  );

  r.get(
    "/api/alerts/:alertId",
    {
      schema: {
        operationId: "getAlert",
        tags,
        params: ZAlertParams,
        response: { 200: ZAlertDetail, ...errors },
      },
    },
    (req) => services.alerts.get(authOf(req), req.params.alertId),
  );

  r.get(
    "/api/alerts/:alertId/causes",
    {
      schema: {
        operationId: "listAlertCauses",
        tags,
        params: ZAlertParams,
        response: { 200: ZAlertCauses, ...errors },
      },
    },
    (req) => services.alerts.causes(authOf(req), req.params.alertId),
  );

  r.get(
    "/api/alerts/:alertId/evaluations/:evaluationId/values",
    {
      schema: {
        operationId: "getAlertEvaluationValues",
        tags,
        description:
          "The values an SVD or CAP evaluation of the alert's monitor judged, read again from its window: the newest sample_size records (at most MVD_QUERY_MAX_RECORD_COUNT) matching the monitor's current filter up to the evaluation's newest record, split into training and evaluation sets as the worker splits them. SVD: the signal's values of both sets; CAP: the evaluation records with their limits, and the limits and indices stored with the evaluation. An MVD evaluation answers 400 (its worst rows are in its details).",
        params: ZAlertEvaluationParams,
        response: { 200: ZEvaluationValues, ...errors },
      },
    },
    (req) => services.alerts.evaluationValues(authOf(req), req.params.alertId, req.params.evaluationId),
  );

  r.post(
    "/api/alerts/:alertId/acknowledge",
    {
      schema: {
        operationId: "acknowledgeAlert",
        tags,
        params: ZAlertParams,
        response: { 200: ZAlert, ...errors },
      },
    },
    (req) => services.alerts.acknowledge(authOf(req), req.params.alertId),
  );

  r.post(
    "/api/alerts/:alertId/comments",
    {
      schema: {
        operationId: "commentAlert",
        tags,
        params: ZAlertParams,
        body: ZAlertCommentBody,
        response: { 201: ZAlertEvent, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.alerts.comment(authOf(req), req.params.alertId, req.body)),
  );

  r.post(
    "/api/alerts/:alertId/resolve",
    {
      schema: {
        operationId: "resolveAlert",
        tags,
        params: ZAlertParams,
        body: ZAlertResolveBody,
        response: { 200: ZAlert, ...errors },
      },
    },
    async (req) => {
      const alert = await services.alerts.resolve(authOf(req), req.params.alertId, req.body);
      // Operators follow alerts in the log (issue 28 §4): the worker logs the ones it opens and resolves.
      req.log.info(
        {
          alertId: alert.id,
          lineId: alert.lineId,
          monitorId: alert.monitor?.id ?? null,
          userId: authOf(req).userId,
        },
        "alert resolved by a user",
      );
      return alert;
    },
  );
}
