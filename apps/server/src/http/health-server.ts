import Fastify from "fastify";
import { type HealthOptions, healthRoutes } from "./routes/health.routes.js";

/** A port another process holds: start-up stops with a message naming the setting. */
export class PortTakenError extends Error {}

/** Listens, turning a taken port into a PortTakenError that names the setting to change. */
export async function listenOrExplain(
  listen: () => Promise<unknown>,
  where: { setting: string; host: string; port: number; hint: string },
) {
  try {
    await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new PortTakenError(
        `${where.setting}: cannot listen on ${where.host}:${where.port}, the port is taken (another process?). ${where.hint}`,
      );
    throw err;
  }
}

/**
 * /health, /ready and /metrics of a process without the api role (worker, ingest), on
 * HEALTH_PORT: a bare Fastify with these three routes only (no session, no web app).
 */
export async function startHealthServer(opts: HealthOptions & { port: number; host: string }) {
  const app = Fastify({ logger: false });
  healthRoutes(app, opts);
  await listenOrExplain(() => app.listen({ port: opts.port, host: opts.host }), {
    setting: "HEALTH_PORT",
    host: opts.host,
    port: opts.port,
    hint: "Give each Linewatch process on this host its own HEALTH_PORT, or HEALTH_PORT=0 to turn its health endpoints off.",
  });
  const address = app.server.address();
  return {
    port: typeof address === "object" && address ? address.port : opts.port,
    close: () => app.close(),
  };
}
