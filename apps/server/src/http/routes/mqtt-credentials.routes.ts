import { ZMessage, ZMqttCredential, ZPlantParams, ZRotateMqttPasswordResponse } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

/** A plant's MQTT credential on the embedded broker (Data Sources page, administrators). */
export function mqttCredentialsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["ingest"];

  r.get(
    "/api/plants/:plantId/mqtt-credential",
    {
      config: { access: "admin" },
      schema: {
        operationId: "getMqttCredential",
        tags,
        params: ZPlantParams,
        response: { 200: ZMqttCredential, ...errors },
      },
    },
    (req) => services.mqttCredentials.get(authOf(req), req.params.plantId),
  );

  r.post(
    "/api/plants/:plantId/mqtt-credential/password",
    {
      config: { access: "admin" },
      schema: {
        operationId: "rotateMqttPassword",
        tags,
        params: ZPlantParams,
        response: { 201: ZRotateMqttPasswordResponse, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.mqttCredentials.rotate(authOf(req), req.params.plantId)),
  );
}
