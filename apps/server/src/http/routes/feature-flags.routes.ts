import { ZFeatureFlagBody, ZFeatureFlagParams, ZFeatureFlagsResponse, ZMessage } from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

export function featureFlagsRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["feature-flags"];

  r.get(
    "/api/feature-flags",
    {
      schema: {
        operationId: "getFeatureFlags",
        tags,
        response: { 200: ZFeatureFlagsResponse, 401: ZMessage },
      },
    },
    (req) => services.flags.get(authOf(req).customerId),
  );

  // Feature flags are the provider's (docs/architecture.md "who may change what"): only provider
  // staff change them, for the customer they act for; administrators see them read-only.
  r.put(
    "/api/feature-flags/:key",
    {
      config: { access: "provider" },
      schema: {
        operationId: "setFeatureFlag",
        tags,
        params: ZFeatureFlagParams,
        body: ZFeatureFlagBody,
        response: { 200: ZFeatureFlagsResponse, 400: ZMessage, 403: ZMessage },
      },
    },
    (req) => services.flags.set(authOf(req), req.params.key, req.body.enabled),
  );
}
