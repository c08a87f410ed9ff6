import { ZMessage, ZPlantOverview, ZPlantParams } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

/** The plant at a glance, the home page (issue 18 §3): every user of the customer reads it. */
export function plantOverviewRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/plants/:plantId/overview",
    {
      config: { access: "user" },
      schema: {
        operationId: "getPlantOverview",
        tags: ["plants"],
        params: ZPlantParams,
        response: { 200: ZPlantOverview, ...errors },
      },
    },
    (req) => services.plantOverview.get(authOf(req), req.params.plantId),
  );
}
