import type { Readable } from "node:stream";
import {
  CSV_UPLOAD_MAX_BYTES,
  INGEST_MAX_BYTES,
  ZCreateIngestTokenBody,
  ZCreateIngestTokenResponse,
  ZCsvUploadParams,
  ZCsvUploadProgress,
  ZCsvUploadQuery,
  ZCsvUploadResult,
  ZIngestBatch,
  ZIngestResult,
  ZIngestTokenList,
  ZIngestTokenParams,
  ZMessage,
  ZPlantParams,
} from "@linewatch/contracts";
import { errorCodes, type FastifyInstance, type FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import secureJson from "secure-json-parse";
import { z } from "zod";
import { parseJsonInSlices } from "../../lib/json-slices.js";
import { authOf } from "../context.js";
import { type RoutesOptions, rateLimitPerMinute } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage };

export function ingestRoutes(app: FastifyInstance, { services, settings }: RoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["ingest"];

  // The request rate limit runs first, then the token is checked, both before the body is read:
  // without a valid token nobody gets to make the server receive and parse up to 32 MiB.
  const ingestRateLimit = rateLimitPerMinute(settings.ingestRateLimitPerMinute);
  const checkToken = async (req: FastifyRequest) => {
    const header = req.headers.authorization;
    const secret = header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
    (req as unknown as { ingestTarget: unknown }).ingestTarget = await services.ingestTokens.resolve(secret);
  };

  // In its own scope: the body (up to 32 MiB of JSON) is parsed in slices (lib/json-slices.ts),
  // so other requests and MQTT acknowledgements are answered meanwhile; it accepts and refuses
  // what Fastify's JSON parser does (prototype poisoning included) with the same answers.
  app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "string" },
      async (_req: FastifyRequest, text: string) => {
        if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
        try {
          const parsed = await parseJsonInSlices(text, {
            parse: (t) =>
              secureJson.parse(t, undefined, { protoAction: "error", constructorAction: "error" }),
          });
          return parsed.kind === "array" ? parsed.elements.map((e) => e.value) : parsed.value;
        } catch {
          throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
        }
      },
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/ingest",
      {
        // Authenticated by an ingest token (Authorization: Bearer lwi_…), not a session.
        config: { access: "public" },
        bodyLimit: INGEST_MAX_BYTES,
        schema: {
          operationId: "ingestPartRecords",
          tags,
          security: [{ ingestToken: [] }],
          body: ZIngestBatch,
          response: { 200: ZIngestResult, ...errors, 429: ZMessage },
        },
        onRequest: ingestRateLimit ? [scope.rateLimit(ingestRateLimit), checkToken] : [checkToken],
      },
      (req) => {
        const target = (req as unknown as { ingestTarget: { customerId: string; plantId: string } })
          .ingestTarget;
        return services.partRecords.ingest(target, req.body, {}, { transport: "http" });
      },
    );
  });

  // Built from the composed services; it holds no state of its own.
  // In its own scope: the text/csv parser hands the body over unread, as a stream, to this route only.
  app.register(async (scope) => {
    scope.addContentTypeParser("text/csv", (_req, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/plants/:plantId/part-records/csv",
      {
        config: { access: "admin" },
        bodyLimit: CSV_UPLOAD_MAX_BYTES,
        schema: {
          operationId: "uploadPartRecordsCsv",
          tags,
          description:
            "Stores the part records of a CSV file sent as the body. With ?upload=<uuid>, its progress " +
            "can be read and it can be cancelled while it runs (…/csv/{uploadId}/progress, …/cancel).",
          consumes: ["text/csv"],
          params: ZPlantParams,
          querystring: ZCsvUploadQuery,
          response: {
            200: ZCsvUploadResult,
            ...errors,
            409: ZMessage,
            413: ZMessage,
            415: ZMessage,
            429: ZMessage,
          },
        },
      },
      (req) =>
        services.partRecordsCsv.importCsv(authOf(req), req.params.plantId, req.body as Readable | undefined, {
          defaults: req.query,
          declaredBytes: Number(req.headers["content-length"]) || undefined,
        }),
    );
  });

  // Progress and Cancel of an upload sent with `?upload=<uuid>` (issue 32 §4, decision 0314).
  const perInstance =
    "Progress is kept by the server instance that runs the upload: with several instances behind a " +
    "load balancer, sticky sessions are needed for progress and Cancel (the upload itself works " +
    "either way). 404 when no such upload runs for this customer on this instance.";
  r.get(
    "/api/plants/:plantId/part-records/csv/:uploadId/progress",
    {
      config: { access: "admin" },
      schema: {
        operationId: "getPartRecordsCsvProgress",
        tags,
        description: `Rows read, stored, duplicate and rejected so far by a running CSV upload. ${perInstance}`,
        params: ZCsvUploadParams,
        response: { 200: ZCsvUploadProgress, ...errors },
      },
    },
    (req) => services.csvUploads.progress(authOf(req), req.params.plantId, req.params.uploadId),
  );

  r.post(
    "/api/plants/:plantId/part-records/csv/:uploadId/cancel",
    {
      config: { access: "admin" },
      schema: {
        operationId: "cancelPartRecordsCsv",
        tags,
        description:
          "Stops a running CSV upload: it reads no further, stores the rows already read, and answers " +
          `the upload with cancelledAfterLine; rows stored before stay stored. ${perInstance}`,
        params: ZCsvUploadParams,
        response: { 200: ZCsvUploadProgress, ...errors },
      },
    },
    (req) => services.csvUploads.cancel(authOf(req), req.params.plantId, req.params.uploadId),
  );

  r.get(
    "/api/plants/:plantId/ingest-tokens",
    {
      config: { access: "admin" },
      schema: {
        operationId: "listIngestTokens",
        tags,
        params: ZPlantParams,
        response: { 200: ZIngestTokenList, ...errors },
      },
    },
    (req) => services.ingestTokens.list(authOf(req), req.params.plantId),
  );

  r.post(
    "/api/plants/:plantId/ingest-tokens",
    {
      config: { access: "admin" },
      schema: {
        operationId: "createIngestToken",
        tags,
        params: ZPlantParams,
        body: ZCreateIngestTokenBody,
        response: { 201: ZCreateIngestTokenResponse, ...errors },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await services.ingestTokens.create(authOf(req), req.params.plantId, req.body.name)),
  );

  r.delete(
    "/api/ingest-tokens/:tokenId",
    {
      config: { access: "admin" },
      schema: {
        operationId: "revokeIngestToken",
        tags,
        params: ZIngestTokenParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.ingestTokens.revoke(authOf(req), req.params.tokenId);
      return reply.code(204).send(null);
    },
  );
}
