import {
  AdminUser,
  AdminUserList,
  ErrorBody,
  OkResponse,
  UserCreate,
  UserIdParams,
  UserSearchQuery,
  UserUpdate,
} from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { createUserByAdmin, deleteUserByAdmin, getAdminUser, listUsers, updateUserByAdmin } from "./admin-service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/auth/admin/users",
    {
      schema: { tags: ["administration"], querystring: UserSearchQuery, response: { 200: AdminUserList, ...errors } },
      onRequest: authenticate(),
    },
    (request) => listUsers(db, actorOf(request), request.query.query),
  );

  r.get(
    "/auth/admin/users/:id",
    {
      schema: { tags: ["administration"], params: UserIdParams, response: { 200: AdminUser, ...errors } },
      onRequest: authenticate(),
    },
    (request) => getAdminUser(db, actorOf(request), request.params.id),
  );

  r.post(
    "/auth/admin/users",
    {
      schema: { tags: ["administration"], body: UserCreate, response: { 200: AdminUser, ...errors } },
      onRequest: authenticate(),
    },
    (request) => createUserByAdmin(app.deps, actorOf(request), request.body),
  );

  r.patch(
    "/auth/admin/users/:id",
    {
      schema: {
        tags: ["administration"],
        params: UserIdParams,
        body: UserUpdate,
        response: { 200: AdminUser, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => updateUserByAdmin(app.deps, actorOf(request), request.params.id, request.body),
  );

  r.delete(
    "/auth/admin/users/:id",
    {
      schema: { tags: ["administration"], params: UserIdParams, response: { 200: OkResponse, ...errors } },
      onRequest: authenticate(),
    },
    async (request) => {
      await deleteUserByAdmin(db, actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
}
