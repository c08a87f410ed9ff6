import {
  ZDeliveryHealthList,
  ZDeliveryHealthQuery,
  ZIdParams,
  ZIntegrationTestResult,
  ZMessage,
  ZRelianceConfig,
  ZRelianceConfigBody,
  ZRelianceConfigMap,
  ZRelianceLineParams,
  ZReliancePlantParams,
  ZTeamsPlantLineParams,
  ZTeamsPlantParams,
  ZTeamsWebhook,
  ZTeamsWebhookBody,
  ZTeamsWebhookList,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

/**
 * Integrations (requirements.md settings §2.2, §2.3, §7): administrators change and test them; every user of
 * the customer reads them (no secret is ever answered) and their delivery health, so the pages
 * show read-only (docs/architecture.md "who may change what").
 */
export function notificationsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const teams = ["integrations: Microsoft Teams"];
  const etq = ["integrations: ETQ Reliance"];
  const config = { access: "admin" as const };
  const readConfig = { access: "user" as const };

  r.get(
    "/api/notifications/teams-webhooks/plants/:plantId",
    {
      config: readConfig,
      schema: {
        operationId: "listTeamsWebhooks",
        tags: teams,
        params: ZTeamsPlantParams,
        response: { 200: ZTeamsWebhookList, ...errors },
      },
    },
    (req) => services.notifications.listWebhooks(authOf(req), req.params.plantId),
  );

  r.put(
    "/api/notifications/teams-webhooks/plants/:plantId/lines/:lineId",
    {
      config,
      schema: {
        operationId: "saveTeamsWebhook",
        tags: teams,
        params: ZTeamsPlantLineParams,
        body: ZTeamsWebhookBody,
        response: { 200: ZTeamsWebhook, ...errors },
      },
    },
    (req) =>
      services.notifications.saveWebhook(authOf(req), req.params.plantId, req.params.lineId, req.body.url),
  );

  r.delete(
    "/api/notifications/teams-webhooks/:id",
    {
      config,
      schema: {
        operationId: "deleteTeamsWebhook",
        tags: teams,
        params: ZIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.notifications.deleteWebhook(authOf(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/notifications/teams-webhooks/:id/test",
    {
      config,
      schema: {
        operationId: "testTeamsWebhook",
        tags: teams,
        params: ZIdParams,
        response: { 200: ZIntegrationTestResult, ...errors },
      },
    },
    (req) => services.notifications.testWebhook(authOf(req), req.params.id),
  );

  r.get(
    "/api/reliance-configuration/plants/:plantId",
    {
      config: readConfig,
      schema: {
        operationId: "listRelianceConfigurations",
        tags: etq,
        params: ZReliancePlantParams,
        response: { 200: ZRelianceConfigMap, ...errors },
      },
    },
    (req) => services.notifications.listReliance(authOf(req), req.params.plantId),
  );

  r.post(
    "/api/reliance-configuration/lines/:lineId",
    {
      config,
      schema: {
        operationId: "saveRelianceConfiguration",
        tags: etq,
        params: ZRelianceLineParams,
        body: ZRelianceConfigBody,
        response: { 200: ZRelianceConfig, ...errors },
      },
    },
    (req) => services.notifications.saveReliance(authOf(req), req.params.lineId, req.body),
  );

  r.delete(
    "/api/reliance-configuration/lines/:lineId",
    {
      config,
      schema: {
        operationId: "deleteRelianceConfiguration",
        tags: etq,
        params: ZRelianceLineParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.notifications.deleteReliance(authOf(req), req.params.lineId);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/reliance-configuration/lines/:lineId/test",
    {
      config,
      schema: {
        operationId: "testRelianceConfiguration",
        tags: etq,
        params: ZRelianceLineParams,
        response: { 200: ZIntegrationTestResult, ...errors },
      },
    },
    (req) => services.notifications.testReliance(authOf(req), req.params.lineId),
  );

  r.get(
    "/api/notifications/delivery-health/plants/:plantId",
    {
      config: readConfig,
      schema: {
        operationId: "listDeliveryHealth",
        tags: ["integrations"],
        params: ZTeamsPlantParams,
        querystring: ZDeliveryHealthQuery,
        response: { 200: ZDeliveryHealthList, ...errors },
      },
    },
    (req) => services.notifications.deliveryHealth(authOf(req), req.params.plantId, req.query.channel),
  );
}
