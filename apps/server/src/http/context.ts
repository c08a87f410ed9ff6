import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { AuthContext } from "../modules/auth/auth.service.js";

/** The session of a route that requires one (the onRequest hook has already checked it). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError("UNAUTHORIZED", "Unauthorized");
  return req.auth;
}

/**
 * Aborted when the request's client goes away before its answer is sent (closed tab, aborted
 * fetch, dropped connection): long statistics stop instead of computing for no one.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  if (res.destroyed) controller.abort();
  else
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}
