import {
  AdminUser,
  AdminUserList,
  ErrorBody,
  IMPORT_MAX_ROWS,
  ImportErrorBody,
  ImportQuery,
  ImportResult,
  ImportUsers,
  OkResponse,
  UserCreate,
  UserIdParams,
  UserSearchQuery,
  UserUpdate,
} from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, authenticate } from "../auth/guards";
import { dbClock } from "../deps";
import { createUserByAdmin, deleteUserByAdmin, getAdminUser, listUsers, updateUserByAdmin } from "./admin-service";
import { importUsers } from "./import-service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const writeDeps = () => ({ ...dbClock(app.deps), maxUsers: app.deps.config.maxUsers });

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

  // One path, two calls (spec §7): an object creates a user, an array imports users (CSV).
  r.post(
    "/auth/admin/users",
    {
      schema: {
        tags: ["administration"],
        description:
          "An object creates one user. An array imports users (superuser only) in one transaction: " +
          "a 400 lists every bad row; existing employees are updated and keep their password; " +
          "deleteNotIncludedUsers=true deletes the employees of the file's facilities it does not name; " +
          "dryRun=true only counts.",
        querystring: ImportQuery,
        body: z.union([UserCreate, ImportUsers]),
        response: { 200: z.union([AdminUser, ImportResult]), ...errors, 400: ImportErrorBody },
      },
      // ~200 bytes a row; the largest import allowed fits.
      bodyLimit: IMPORT_MAX_ROWS * 1024,
      onRequest: authenticate(),
    },
    (request) => {
      const { body, query } = request;
      if (!Array.isArray(body)) return createUserByAdmin(writeDeps(), actorOf(request), body);
      return importUsers(writeDeps(), actorOf(request), body, {
        deleteMissing: query.deleteNotIncludedUsers === "true",
        dryRun: query.dryRun === "true",
      });
    },
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
    (request) => updateUserByAdmin(writeDeps(), actorOf(request), request.params.id, request.body),
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
