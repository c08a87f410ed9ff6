import { ZLine, ZLineList, ZLineParams, ZMessage, ZPlantParams } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

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
}
