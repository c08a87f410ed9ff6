import type { FastifyInstance, FastifyReply } from "fastify";
import { METRICS_CONTENT_TYPE, metricsText } from "../../lib/metrics.js";
import { isMetricsToken, type ReadinessCheck, readiness } from "../../modules/health/health.service.js";

export type HealthOptions = {
  /** By name (`database`, `broker`): what /ready checks. */
  checks: Record<string, ReadinessCheck>;
  /** METRICS_TOKEN: the bearer token /metrics asks for; unset = no /metrics at all. */
  metricsToken?: string;
};

// Probes and scrapers read these on their own; no cache, however a proxy is set up.
const noStore = (reply: FastifyReply) => reply.header("cache-control", "no-store");

/**
 * The operational endpoints every process answers (issue 28 §4), outside /api so neither the
 * session guard nor the cross-origin guard applies, and hidden from the OpenAPI document:
 * - `GET /health`: liveness; the process answers.
 * - `GET /ready`: the database answers `select 1` and, for the roles that use one, the MQTT broker
 *   listens or the client is connected; 503 naming what is not ready (the reasons only in the log
 *   and with the metrics token).
 * - `GET /metrics`: Prometheus text, only with `Authorization: Bearer $METRICS_TOKEN`; 404 while
 *   METRICS_TOKEN is unset, 401 with another token.
 * The api role serves them on PORT, the other roles on HEALTH_PORT (http/health-server.ts).
 */
export function healthRoutes(app: FastifyInstance, opts: HealthOptions) {
  app.get("/health", { config: { access: "public" }, schema: { hide: true } }, async (_req, reply) =>
    noStore(reply).send({ status: "ok" }),
  );

  app.get("/ready", { config: { access: "public" }, schema: { hide: true } }, async (req, reply) => {
    const isOperator = !!opts.metricsToken && isMetricsToken(req.headers.authorization, opts.metricsToken);
    const r = await readiness(opts.checks, isOperator);
    noStore(reply);
    if (!r.isReady) {
      req.log.warn({ checks: r.failures }, "not ready");
      return reply.code(503).send({ status: "not ready", notReady: r.notReady, checks: r.checks });
    }
    return reply.send({ status: "ready", checks: r.checks });
  });

  app.get("/metrics", { config: { access: "public" }, schema: { hide: true } }, async (req, reply) => {
    const token = opts.metricsToken;
    // Unset: as if there were no such route.
    if (!token) return reply.code(404).send({ message: `Route GET ${req.url.split("?")[0]} not found` });
    noStore(reply);
    if (!isMetricsToken(req.headers.authorization, token)) {
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ message: "Metrics need Authorization: Bearer with METRICS_TOKEN" });
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await metricsText());
  });
}
