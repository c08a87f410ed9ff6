import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { AuthContext } from "../modules/auth/auth.service.js";

/** The session of a route that requires one (the onRequest hook has already checked it). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError("UNAUTHORIZED", "Unauthorized");
  return req.auth;
}
