import { ZMessage, ZRetentionBody, ZRetentionResponse } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

// Data retention (issue 31 §2; docs/decisions/0301-retention-per-customer.md): the customer's
// administrators read and set it (provider staff too, for the customer they act for, as on every
// administrators' route); no other page needs it, so other users get 403 like the audit log.
export function retentionRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["retention"];

  r.get(
    "/api/retention",
    {
      config: { access: "admin" },
      schema: {
        operationId: "getRetention",
        tags,
        response: { 200: ZRetentionResponse, 401: ZMessage, 403: ZMessage },
      },
    },
    (req) => services.retention.get(authOf(req)),
  );

  r.put(
    "/api/retention",
    {
      config: { access: "admin" },
      schema: {
        operationId: "setRetention",
        tags,
        body: ZRetentionBody,
        response: { 200: ZRetentionResponse, 400: ZMessage, 401: ZMessage, 403: ZMessage },
      },
    },
    (req) => services.retention.set(authOf(req), req.body),
  );
}
