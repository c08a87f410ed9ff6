import {
  SESSION_COOKIE,
  SESSION_LIMITS,
  ZChangePasswordBody,
  ZCurrentUserRoles,
  ZCustomerList,
  ZLanguageBody,
  ZLoginBody,
  ZMe,
  ZMessage,
  ZSelectionBody,
  ZSetPasswordBody,
  ZSwitchCustomerBody,
} from "@linewatch/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import { type RoutesOptions, rateLimitPerMinute } from "../types.js";

export function authRoutes(app: FastifyInstance, { services, cookieSecure, settings }: RoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secure = (req: FastifyRequest) => (cookieSecure === "auto" ? req.protocol === "https" : cookieSecure);
  const setCookie = (req: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: secure(req),
      maxAge: SESSION_LIMITS.absoluteMs / 1000,
    });

  // Public and costly (a password hash each): limited per client address.
  const rateLimit = rateLimitPerMinute(settings.rateLimitPerMinute);

  r.post(
    "/api/auth/login",
    {
      config: { access: "public", rateLimit },
      schema: {
        operationId: "login",
        tags: ["auth"],
        body: ZLoginBody,
        response: { 200: ZMe, 401: ZMessage, 429: ZMessage },
      },
    },
    async (req, reply) => {
      const { token } = await services.auth.login(req.body, req.ip);
      setCookie(req, reply, token);
      const ctx = await services.auth.resolve(token);
      return services.auth.me(authOf(Object.assign(req, { auth: ctx })));
    },
  );

  // Routes of the session itself: an API token is refused on them (decision 0319).
  const sessionOnly = { access: "user" as const, sessionOnly: true };
  const sessionSecurity = [{ session: [] }];

  r.post(
    "/api/auth/logout",
    {
      config: sessionOnly,
      schema: {
        operationId: "logout",
        tags: ["auth"],
        security: sessionSecurity,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await services.auth.logout(authOf(req));
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return reply.code(204).send(null);
    },
  );

  r.get("/api/auth/me", { schema: { operationId: "me", tags: ["auth"], response: { 200: ZMe } } }, (req) =>
    services.auth.me(authOf(req)),
  );

  r.patch(
    "/api/auth/me/selection",
    {
      schema: {
        operationId: "saveSelection",
        tags: ["auth"],
        body: ZSelectionBody,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await services.users.saveSelection(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  // The current password is checked under the sign-in limits (auth.service.ts changePassword), and
  // the route is limited per client address like sign-in.
  r.post(
    "/api/auth/me/password",
    {
      config: { ...sessionOnly, rateLimit },
      schema: {
        operationId: "changePassword",
        tags: ["auth"],
        security: sessionSecurity,
        body: ZChangePasswordBody,
        response: { 204: z.null(), 400: ZMessage, 401: ZMessage, 403: ZMessage, 429: ZMessage },
      },
    },
    async (req, reply) => {
      await services.auth.changePassword(authOf(req), req.body, req.ip);
      return reply.code(204).send(null);
    },
  );

  r.put(
    "/api/auth/me/language",
    {
      schema: {
        operationId: "saveLanguage",
        tags: ["auth"],
        body: ZLanguageBody,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await services.users.saveLanguage(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/auth/set-password",
    {
      config: { access: "public", rateLimit },
      schema: {
        operationId: "setPassword",
        tags: ["auth"],
        body: ZSetPasswordBody,
        response: { 204: z.null(), 400: ZMessage, 429: ZMessage },
      },
    },
    async (req, reply) => {
      await services.auth.setPassword(req.body.token, req.body.password);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/api/auth/customers",
    { schema: { operationId: "listCustomersForSwitch", tags: ["auth"], response: { 200: ZCustomerList } } },
    (req) => services.customers.listForSwitch(authOf(req)),
  );

  r.post(
    "/api/auth/switch-customer",
    {
      config: sessionOnly,
      schema: {
        operationId: "switchCustomer",
        tags: ["auth"],
        security: sessionSecurity,
        body: ZSwitchCustomerBody,
        response: { 200: ZMe },
      },
    },
    async (req) => {
      const ctx = authOf(req);
      await services.auth.switchCustomer(ctx, req.body.customerId);
      return services.auth.me({ ...ctx, customerId: req.body.customerId });
    },
  );

  r.get(
    "/api/check-current-user-roles",
    {
      schema: { operationId: "checkCurrentUserRoles", tags: ["users"], response: { 200: ZCurrentUserRoles } },
    },
    (req) => ({ isAdministrator: authOf(req).isAdministrator }),
  );

  r.get(
    "/api/health",
    {
      config: { access: "public" },
      schema: {
        operationId: "health",
        tags: ["health"],
        response: { 200: z.object({ status: z.literal("ok") }) },
      },
    },
    async (_req, reply) => {
      // Healthy only when the database answers.
      await services.health.check();
      return reply.send({ status: "ok" as const });
    },
  );
}
