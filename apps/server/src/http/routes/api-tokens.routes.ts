import {
  ZApiTokenList,
  ZApiTokenParams,
  ZCreateApiTokenBody,
  ZCreateApiTokenResponse,
  ZMessage,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage, 409: ZMessage };

/**
 * A user's own API tokens (issue 33 §3, decision 0319): every signed-in user manages theirs, with
 * a session only — a token cannot list, make or revoke tokens.
 */
export function apiTokensRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["auth"];
  const config = { access: "user" as const, sessionOnly: true };
  const security = [{ session: [] }];

  r.get(
    "/api/auth/tokens",
    {
      config,
      schema: { operationId: "listApiTokens", tags, security, response: { 200: ZApiTokenList, ...errors } },
    },
    (req) => services.apiTokens.list(authOf(req)),
  );

  r.post(
    "/api/auth/tokens",
    {
      config,
      schema: {
        operationId: "createApiToken",
        tags,
        security,
        body: ZCreateApiTokenBody,
        response: { 201: ZCreateApiTokenResponse, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await services.apiTokens.create(authOf(req), req.body)),
  );

  r.delete(
    "/api/auth/tokens/:tokenId",
    {
      config,
      schema: {
        operationId: "revokeApiToken",
        tags,
        security,
        params: ZApiTokenParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.apiTokens.revoke(authOf(req), req.params.tokenId);
      return reply.code(204).send(null);
    },
  );
}
