import { Readable } from "node:stream";
import {
  ZAuditHistoryParams,
  ZAuditHistoryQuery,
  ZAuditLogExportQuery,
  ZAuditLogPage,
  ZAuditLogQuery,
  ZMessage,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

/**
 * The audit trail (issue 18 §2): administrators read and export the customer's log; every user
 * reads a resource's own history (administrators only for users, data sources, tokens and MQTT
 * credentials). Records are append-only: no route changes or deletes one.
 */
export function auditLogRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["audit log"];

  r.get(
    "/api/audit-log",
    {
      config: { access: "admin" },
      schema: {
        operationId: "listAuditLog",
        tags,
        querystring: ZAuditLogQuery,
        response: { 200: ZAuditLogPage, ...errors },
      },
    },
    (req) => services.auditLog.list(authOf(req), req.query),
  );

  r.get(
    "/api/audit-log/export",
    {
      config: { access: "admin" },
      schema: {
        operationId: "exportAuditLog",
        tags,
        querystring: ZAuditLogExportQuery,
        produces: ["text/csv"],
        response: { 200: z.string(), ...errors },
      },
    },
    async (req, reply) => {
      const parts = await services.auditLog.exportCsv(authOf(req), req.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="audit-log.csv"')
        .send(
          // A stream goes out as it is (Fastify serialises no stream); the 200 schema documents the text.
          Readable.from(parts) as unknown as string,
        );
    },
  );

  r.get(
    "/api/audit-log/resources/:resource/:resourceId",
    {
      config: { access: "user" },
      schema: {
        operationId: "getAuditHistory",
        tags,
        params: ZAuditHistoryParams,
        querystring: ZAuditHistoryQuery,
        response: { 200: ZAuditLogPage, ...errors },
      },
    },
    (req) => services.auditLog.history(authOf(req), req.params, req.query),
  );
}
