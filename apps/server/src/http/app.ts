import { existsSync } from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  SERVER_MESSAGES,
  SESSION_COOKIE,
  type TFieldProblem,
} from "@linewatch/contracts";
import Fastify, { type FastifyRequest, LogController } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { loggableError } from "../db/errors.js";
import { AppError, STATUS_OF } from "../errors.js";
import { httpRequestSeconds, httpRequests, UNMATCHED_ROUTE } from "../lib/metrics.js";
import { StatsCancelledError } from "../modules/evaluation/stats-pool.js";
import { isApiPath, normalisePath, requestPath } from "./request-path.js";
import { healthRoutes } from "./routes/health.routes.js";
import { registerRoutes } from "./routes/index.js";
import { type AppOptions, appSettings } from "./types.js";

export type { Access, App, AppOptions, AppSettings, RoutesOptions } from "./types.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A browser's state-changing request from another site (CSRF): a cross-site Sec-Fetch-Site, or an
 * Origin whose host is neither the request's own host nor PUBLIC_URL's. Requests without Origin
 * (curl, server-to-server ingest with a bearer token) are not a browser's and pass.
 */
function isCrossOrigin(req: FastifyRequest, publicHost: string): boolean {
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = req.headers.origin;
  if (origin == null) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // "null" (sandboxed frames, privacy redirects) and anything unparsable
  }
  return host !== req.host && host !== publicHost;
}

/**
 * The personal API token of an `Authorization: Bearer lwt_…` header, or undefined. Other
 * credentials in that header (a proxy's Basic or Bearer sign-in in front of the app, an ingest
 * token) are not ours: such a request is judged by its cookie as before. A browser never sends
 * this header by itself (only a script that holds the token does), so a request authenticated by
 * it cannot be forged by another site: the cross-origin check is for cookies.
 */
function apiTokenOf(req: FastifyRequest): string | undefined {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
  return m?.[1]?.startsWith(API_TOKEN_PREFIX) ? m[1] : undefined;
}

export async function buildApp(opts: AppOptions) {
  const settings = appSettings(opts.settings);
  const app = Fastify({
    // main.ts's logger (a child per role); none in tests.
    loggerInstance: opts.logger,
    bodyLimit: opts.bodyLimit ?? 1_048_576,
    trustProxy: settings.trustProxy,
    // Request lines are noise at info level; errors are still logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyCookie);
  // Security headers on every answer. The CSP allows what the built web app needs and no more:
  // its own scripts, and inline styles (MUI's emotion injects <style> elements and style
  // attributes); no framing at all. No upgrade-insecure-requests: plants run it over plain http.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", "data:", "blob:"],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
      },
    },
    frameguard: { action: "deny" },
    // Set below for every answer (same-origin keeps the Referer within the app).
    referrerPolicy: false,
  });
  // Request rate limits per client address, only on the routes that set config.rateLimit (the
  // public ones: sign-in, set password, ingest). The counters live in this process's memory:
  // with several API processes behind a load balancer each counts for itself (README "Security").
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Too many requests. Try again in ${ctx.after}.`,
    }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Linewatch API", version: "0.1.0" },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
          ingestToken: { type: "http", scheme: "bearer" },
          // Personal API tokens (decision 0319): every route a session may call, but those whose
          // own `security` says session only (token management, own password, sign-out, switch).
          apiToken: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "lwt_…",
            description:
              "A personal API token (user menu → API tokens), sent as `Authorization: Bearer lwt_…`. A read-only token answers 403 to any method but GET and HEAD.",
          },
        },
      },
      security: [{ session: [] }, { apiToken: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  app.decorateRequest("auth", null);

  const publicHost = new URL(settings.publicUrl).host;
  // Every /api route but the public ones needs a session (or an API token), checked before the
  // body is read. Before that, state-changing requests from another site are refused, public
  // routes included; requests with an API token are not a browser's own and skip that check.
  // Each guard judges the route that will run (requestPath), not how the URL spells it
  // (`/%61pi/…` reaches /api/… too).
  // A request with `Authorization: Bearer lwt_…` is authenticated by its API token alone, never by
  // a cookie it also carries; a public route (sign-in, ingest with its own tokens) ignores it here.
  app.addHook("onRequest", async (req, reply) => {
    const path = requestPath(req);
    if (!isApiPath(path)) return;
    const isDocs = path.startsWith("/api/docs");
    const access = isDocs ? "public" : (req.routeOptions.config?.access ?? "user");
    const bearer = access === "public" ? undefined : apiTokenOf(req);
    if (bearer === undefined && !SAFE_METHODS.has(req.method) && isCrossOrigin(req, publicHost)) {
      return reply.code(403).send({ message: SERVER_MESSAGES.crossOrigin });
    }
    if (access === "public") return;
    if (bearer !== undefined) {
      req.auth = await opts.services.apiTokens.resolve(bearer);
      if (!req.auth) return reply.code(401).send({ message: API_TOKEN_MESSAGES.invalid });
      if (req.routeOptions.config?.sessionOnly) {
        return reply.code(403).send({ message: API_TOKEN_MESSAGES.sessionOnly });
      }
      if (req.auth.apiToken?.scope === "read" && !SAFE_METHODS.has(req.method)) {
        return reply.code(403).send({ message: API_TOKEN_MESSAGES.readOnly });
      }
    } else {
      req.auth = await opts.services.auth.resolve(req.cookies[SESSION_COOKIE]);
      if (!req.auth) return reply.code(401).send({ message: SERVER_MESSAGES.unauthorized });
    }
    if (
      (access === "admin" && !req.auth.isAdministrator) ||
      (access === "provider" && !req.auth.isProviderStaff)
    ) {
      return reply.code(403).send({ message: SERVER_MESSAGES.forbidden });
    }
  });

  // Browsers must not cache API answers that belong to one session.
  app.addHook("onSend", async (req, reply) => {
    if (isApiPath(requestPath(req))) reply.header("cache-control", "no-store");
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
  });

  // Every answer counted by its route's pattern (never the raw URL: ids would make a series each).
  app.addHook("onResponse", async (req, reply) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    httpRequests.inc({ route, method: req.method, status: String(reply.statusCode) });
    httpRequestSeconds.observe({ route, method: req.method }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((error, req, reply) => {
    // The client went away and its statistics were stopped: nobody reads the answer; not an error.
    if (error instanceof StatsCancelledError) return reply.code(499).send({ message: error.message });
    if (error instanceof AppError) {
      return reply.code(STATUS_OF[error.code]).send({ message: error.message, ...error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = error.validation
        .map((v) => {
          // "body.email: Invalid email", "body: unknown field(s) admin"
          const at = v.instancePath === "/" ? "" : v.instancePath.replaceAll("/", ".");
          const where = `${error.validationContext ?? "body"}${at}`;
          const keys = (v.params as { keys?: string[] } | undefined)?.keys;
          if (v.keyword === "unrecognized_keys" && keys)
            return `${where}: unknown field(s) ${keys.join(", ")}`;
          return `${where}: ${v.message}`;
        })
        .join("; ");
      const fields: TFieldProblem[] = error.validation.map((v) => ({
        in: error.validationContext ?? "body",
        field: v.instancePath.replace(/^\//, "").replaceAll("/", "."),
        message: v.message ?? "",
      }));
      return reply.code(400).send({ message, fields });
    }
    if (isResponseSerializationError(error)) {
      req.log.error(
        { err: loggableError(error), cause: loggableError(error.cause), route: req.routeOptions.url },
        "response does not match its schema",
      );
      return reply.code(500).send({ message: SERVER_MESSAGES.internal });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ message: (error as Error).message });
    }
    req.log.error({ err: loggableError(error), route: req.routeOptions.url }, "unhandled error");
    return reply.code(500).send({ message: SERVER_MESSAGES.internal });
  });

  await registerRoutes(app, { ...opts, settings });
  // /health, /ready, /metrics on the API's own port; routes, so the web app's fallback never answers them.
  healthRoutes(app, {
    checks: opts.readiness ?? { database: () => opts.services.health.check() },
    metricsToken: settings.metricsToken,
  });

  // The built web app (apps/web/dist). Its scripts and styles under /assets/ carry a content hash
  // in their names, so a browser keeps them for a year without asking again; index.html (and the
  // single page answered for every app route) names the current ones, so it is asked again every
  // time (no-cache: revalidated with its ETag). The build writes a brotli (.br) and gzip (.gz) copy
  // beside each file (scripts/build-web.mjs); the one the browser accepts is sent as it is.
  const webDist =
    opts.webDist && existsSync(path.join(opts.webDist, "index.html")) ? opts.webDist : undefined;
  if (webDist) {
    await app.register(fastifyStatic, {
      root: path.join(webDist, "assets"),
      prefix: "/assets/",
      preCompressed: true,
      maxAge: "365d",
      immutable: true,
      index: false,
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // API routes, missing assets (an old page asking for a file a newer build replaced) and
    // anything but GET and HEAD are real 404s, never the page.
    const path = normalisePath(req.url);
    // HEAD answers as GET without the body (uptime checks and proxies ask with HEAD).
    const isRead = req.method === "GET" || req.method === "HEAD";
    if (!webDist || !isRead || isApiPath(path) || path.startsWith("/assets/")) {
      return reply.code(404).send({ message: `Route ${req.method} ${req.url.split("?")[0]} not found` });
    }
    // The web app's own routes: every other GET serves the single page.
    return reply.header("cache-control", "no-cache").sendFile("index.html", webDist, { cacheControl: false });
  });

  return app;
}
