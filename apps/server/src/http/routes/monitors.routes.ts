import {
  ZCreateCapMonitorBody,
  ZCreatedMonitor,
  ZDeleteTaskBody,
  ZDuplicateMonitor,
  ZGetTaskByIdBody,
  ZLineParams,
  ZMessage,
  ZMonitor,
  ZMonitorFormBounds,
  ZMonitorList,
  ZMonitorListQuery,
  ZMonitorParams,
  ZMonitorRuleList,
  ZMonitorUuidParams,
  ZNextMonitorName,
  ZNextMonitorNameQuery,
  ZPatchMonitorBody,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 404: ZMessage, 409: ZDuplicateMonitor };

/** Monitors (tasks) and their alert rules: requirements.md monitor-forms §7, requirements.md settings §7. */
export function monitorsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["monitors"];
  const { ZTaskCreateBody, ZTaskUpdateBody } = services.monitors.schemas;

  r.post(
    "/api/tasks",
    {
      schema: {
        operationId: "createTask",
        tags,
        body: ZTaskCreateBody,
        response: { 201: ZMonitor, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await services.monitors.create(authOf(req), req.body)),
  );

  r.put(
    "/api/tasks",
    {
      schema: {
        operationId: "updateTask",
        tags,
        body: ZTaskUpdateBody,
        response: { 200: ZMonitor, ...errors },
      },
    },
    (req) => services.monitors.update(authOf(req), req.body),
  );

  r.post(
    "/api/tasks/get-by-id",
    {
      schema: {
        operationId: "getTaskById",
        tags,
        body: ZGetTaskByIdBody,
        response: { 200: ZMonitor, ...errors },
      },
    },
    (req) => services.monitors.get(authOf(req), req.body.taskId),
  );

  r.delete(
    "/api/tasks",
    {
      schema: {
        operationId: "deleteTask",
        tags,
        body: ZDeleteTaskBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.monitors.remove(authOf(req), req.body.monitor_uuid);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/api/lines/:lineId/monitors",
    {
      schema: {
        operationId: "listMonitors",
        tags,
        params: ZLineParams,
        querystring: ZMonitorListQuery,
        response: { 200: ZMonitorList, ...errors },
      },
    },
    (req) => services.monitors.list(authOf(req), req.params.lineId, req.query.type),
  );

  r.get(
    "/api/lines/:lineId/monitors/next-name",
    {
      schema: {
        operationId: "nextMonitorName",
        tags,
        params: ZLineParams,
        querystring: ZNextMonitorNameQuery,
        response: { 200: ZNextMonitorName, ...errors },
      },
    },
    (req) => services.monitors.nextName(authOf(req), req.params.lineId, req.query.type),
  );

  r.get(
    "/api/monitors/form-bounds",
    {
      schema: {
        operationId: "getMonitorFormBounds",
        tags,
        response: { 200: ZMonitorFormBounds, 401: ZMessage },
      },
    },
    () => services.monitors.formBounds(),
  );

  r.post(
    "/api/monitors",
    {
      schema: {
        operationId: "createCapMonitor",
        tags,
        body: ZCreateCapMonitorBody,
        response: { 201: ZCreatedMonitor, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.monitors.createCap(authOf(req), req.body.signalId)),
  );

  r.patch(
    "/api/monitors/:monitorId",
    {
      schema: {
        operationId: "patchMonitor",
        tags,
        params: ZMonitorParams,
        body: ZPatchMonitorBody,
        response: { 200: ZMonitor, ...errors },
      },
    },
    (req) => services.monitors.patch(authOf(req), req.params.monitorId, req.body),
  );

  r.get(
    "/api/notifications/monitor-rules/:monitorUuid",
    {
      schema: {
        operationId: "getMonitorRules",
        tags,
        params: ZMonitorUuidParams,
        response: { 200: ZMonitorRuleList, ...errors },
      },
    },
    (req) => services.monitors.rules(authOf(req), req.params.monitorUuid),
  );

  r.patch(
    "/api/notifications/monitor-rules/:monitorId",
    {
      schema: {
        operationId: "saveMonitorRules",
        tags,
        params: ZMonitorParams,
        body: ZMonitorRuleList,
        response: { 200: ZMonitorRuleList, ...errors },
      },
    },
    (req) => services.monitors.saveRules(authOf(req), req.params.monitorId, req.body),
  );
}
