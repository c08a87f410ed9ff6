// What the app and its route files share: the access levels, the options, the resolved settings.
// Route files import these from here, never from app.ts (which imports the routes).
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type Config, loadConfig } from "../config.js";
import type { AuthContext } from "../modules/auth/auth.service.js";
import type { ReadinessCheck } from "../modules/health/health.service.js";
import type { Services } from "../services.js";

/** Who may call a route: nobody signed in, any signed-in user, administrators, or provider staff. */
export type Access = "public" | "user" | "admin" | "provider";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Only with a signed-in session, never with an API token (`Authorization: Bearer lwt_…`):
     * token management, the user's own password, sign-out, the customer switch (decision 0319).
     */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export type AppOptions = {
  services: Services;
  webDist?: string;
  cookieSecure: "auto" | boolean;
  /** The process logger (main.ts's child for the api role); no logging when unset (tests). */
  logger?: FastifyBaseLogger;
  /** Largest JSON body accepted, in bytes (10,000-record ingest batches need room). */
  bodyLimit?: number;
  /** The settings of config.ts the HTTP layer reads; what is left out takes loadConfig's default. */
  settings?: Partial<AppSettings>;
  /** What GET /ready checks (health.service.ts); default the database alone. */
  readiness?: Record<string, ReadinessCheck>;
};

export type AppSettings = Pick<
  Config,
  "publicUrl" | "trustProxy" | "rateLimitPerMinute" | "ingestRateLimitPerMinute" | "metricsToken"
>;

/** What route files receive: the app's options with every setting resolved. */
export type RoutesOptions = AppOptions & { settings: AppSettings };

/** The settings with loadConfig's defaults under what the caller gave. */
export function appSettings(given: Partial<AppSettings> = {}): AppSettings {
  const d = loadConfig({}, []);
  return {
    publicUrl: given.publicUrl ?? d.publicUrl,
    trustProxy: given.trustProxy ?? d.trustProxy,
    rateLimitPerMinute: given.rateLimitPerMinute ?? d.rateLimitPerMinute,
    ingestRateLimitPerMinute: given.ingestRateLimitPerMinute ?? d.ingestRateLimitPerMinute,
    metricsToken: given.metricsToken ?? d.metricsToken,
  };
}

/** A route's request rate limit per client address: `perMinute` requests a minute, 0 = none. */
export const rateLimitPerMinute = (perMinute: number) =>
  perMinute > 0 ? { max: perMinute, timeWindow: 60_000 } : false;

export type App = FastifyInstance;
