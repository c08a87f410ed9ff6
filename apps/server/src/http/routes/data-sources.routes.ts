import {
  ZCreateDataSourceBody,
  ZDataSource,
  ZDataSourceInsight,
  ZDataSourceList,
  ZDataSourceParams,
  ZMessage,
  ZPlantParams,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage, 409: ZMessage };

export function dataSourcesRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["data-sources"];
  const config = { access: "admin" as const };
  // Built from the composed database; it holds no state of its own.

  r.get(
    "/api/plants/:plantId/data-sources",
    {
      config,
      schema: {
        operationId: "listDataSources",
        tags,
        params: ZPlantParams,
        response: { 200: ZDataSourceList, ...errors },
      },
    },
    (req) => services.dataSources.listForPlant(authOf(req), req.params.plantId),
  );

  r.post(
    "/api/plants/:plantId/data-sources",
    {
      config,
      schema: {
        operationId: "createDataSource",
        tags,
        params: ZPlantParams,
        body: ZCreateDataSourceBody,
        response: { 201: ZDataSource, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.dataSources.create(authOf(req), req.params.plantId, req.body)),
  );

  r.get(
    "/api/data-sources/:dataSourceId",
    {
      config,
      schema: {
        operationId: "getDataSource",
        tags,
        params: ZDataSourceParams,
        response: { 200: ZDataSource, ...errors },
      },
    },
    (req) => services.dataSources.get(authOf(req), req.params.dataSourceId),
  );

  r.delete(
    "/api/data-sources/:dataSourceId",
    {
      config,
      schema: {
        operationId: "deleteDataSource",
        tags,
        params: ZDataSourceParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.dataSources.delete(authOf(req), req.params.dataSourceId);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/api/data-sources/:dataSourceId/insight",
    {
      config,
      schema: {
        operationId: "getDataSourceInsight",
        tags,
        params: ZDataSourceParams,
        response: { 200: ZDataSourceInsight, ...errors },
      },
    },
    (req) => services.dataSourceInsight.get(authOf(req), req.params.dataSourceId),
  );
}
