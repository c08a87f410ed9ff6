import { ZIngestor, ZMessage, ZPlantList, ZPlantParams } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

export function plantsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["plants"];

  r.get(
    "/api/plants",
    { schema: { operationId: "listPlants", tags, response: { 200: ZPlantList, 401: ZMessage } } },
    (req) => services.plants.list(authOf(req)),
  );

  r.get(
    "/api/plants/:plantId/ingestor",
    {
      config: { access: "admin" },
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
