import {
  ZAddUserBody,
  ZAddUserQuery,
  ZAddUserResponse,
  ZCheckUsersRolesBody,
  ZCheckUsersRolesResponse,
  ZDeleteUserBody,
  ZId,
  ZMessage,
  ZPasswordLinkResponse,
  ZUpdateUserLocationBody,
  ZUpdateUserRoleBody,
  ZUserIdParams,
  ZUserList,
} from "@linewatch/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf } from "../context.js";
import type { AppOptions } from "../types.js";

const errors = { 400: ZMessage, 401: ZMessage, 403: ZMessage, 404: ZMessage, 409: ZMessage };

export function usersRoutes(app: FastifyInstance, { services }: AppOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["users"];

  r.get(
    "/api/customer-users-for-user",
    {
      config: { access: "admin" },
      schema: { operationId: "listUsers", tags, response: { 200: ZUserList, ...errors } },
    },
    (req) => services.users.list(authOf(req)),
  );

  r.post(
    "/api/add-user",
    {
      config: { access: "admin" },
      schema: {
        operationId: "addUser",
        tags,
        querystring: ZAddUserQuery,
        body: ZAddUserBody,
        response: { 201: ZAddUserResponse, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.users.add(authOf(req), req.query.customerId, req.body)),
  );

  r.post(
    "/api/administration/customers/:customerId/user",
    {
      config: { access: "admin" },
      schema: {
        operationId: "addUserBackOffice",
        tags,
        params: z.strictObject({ customerId: ZId }),
        body: ZAddUserBody,
        response: { 201: ZAddUserResponse, ...errors },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await services.users.addBackOffice(authOf(req), req.params.customerId, req.body)),
  );

  r.post(
    "/api/update-user-roles",
    {
      config: { access: "admin" },
      schema: {
        operationId: "addUserRole",
        tags,
        body: ZUpdateUserRoleBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.users.setAdministrator(authOf(req), req.body, true);
      return reply.code(204).send(null);
    },
  );

  r.put(
    "/api/update-user-roles",
    {
      config: { access: "admin" },
      schema: {
        operationId: "removeUserRole",
        tags,
        body: ZUpdateUserRoleBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.users.setAdministrator(authOf(req), req.body, false);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/users",
    {
      config: { access: "admin" },
      schema: {
        operationId: "deleteUser",
        tags,
        body: ZDeleteUserBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.users.delete(authOf(req), req.body);
      return reply.code(204).send(null);
    },
  );

  r.patch(
    "/api/users/:userId",
    {
      config: { access: "admin" },
      schema: {
        operationId: "updateUserLocation",
        tags,
        params: ZUserIdParams,
        body: ZUpdateUserLocationBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await services.users.setLocation(authOf(req), req.params.userId, req.body);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/api/users/:userId/password-link",
    {
      config: { access: "admin" },
      schema: {
        operationId: "createUserPasswordLink",
        tags,
        params: ZUserIdParams,
        response: { 200: ZPasswordLinkResponse, ...errors },
      },
    },
    (req) => services.users.issuePasswordLink(authOf(req), req.params.userId),
  );

  r.post(
    "/api/check-users-roles",
    {
      config: { access: "admin" },
      schema: {
        operationId: "checkUsersRoles",
        tags,
        body: ZCheckUsersRolesBody,
        response: { 200: ZCheckUsersRolesResponse, ...errors },
      },
    },
    (req) => services.users.checkRoles(authOf(req), req.body.userIds),
  );
}
