import {
  ZCreatePlantBody,
  ZIngestor,
  ZMessage,
  ZPlant,
  ZPlantList,
  ZPlantListQuery,
  ZPlantParams,
  ZUpdatePlantBody,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage, 409: ZMessage };

/**
 * Plants (issue 28 §1): every user of the customer reads them; administrators create, rename,
 * change the time zone and (de)activate. The list holds the active plants unless asked for all.
 */
export function plantsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["plants"];
  const admin = { access: "admin" as const };

  r.get(
    "/api/plants",
    {
      schema: {
        operationId: "listPlants",
        tags,
        querystring: ZPlantListQuery,
        response: { 200: ZPlantList, 400: ZMessage, 401: ZMessage },
      },
    },
    (req) => services.plants.list(authOf(req), { includeInactive: req.query.includeInactive }),
  );

  r.post(
    "/api/plants",
    {
      config: admin,
      schema: {
        operationId: "createPlant",
        tags,
        body: ZCreatePlantBody,
        response: { 201: ZPlant, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await services.plants.create(authOf(req), req.body)),
  );

  r.patch(
    "/api/plants/:plantId",
    {
      config: admin,
      schema: {
        operationId: "updatePlant",
        tags,
        params: ZPlantParams,
        body: ZUpdatePlantBody,
        response: { 200: ZPlant, ...errors },
      },
    },
    (req) => services.plants.update(authOf(req), req.params.plantId, req.body),
  );

  r.get(
    "/api/plants/:plantId/ingestor",
    {
      config: admin,
      schema: {
        operationId: "getIngestor",
        tags,
        params: ZPlantParams,
        response: { 200: ZIngestor, 404: ZMessage },
      },
    },
    (req) => services.plants.ingestor(authOf(req), req.params.plantId),
  );
}
