import { endpoints, IMPORT_MAX_ROWS, sharedRoutes } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { dbClock } from "../deps";
import { BODY_LIMIT, smallBodyUnless } from "../http/body-limit";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { createUserByAdmin, deleteUserByAdmin, getAdminUser, listUsers, updateUserByAdmin } from "./admin-service";
import { restoreUser } from "./archive";
import { importUsers } from "./import-service";

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const writeDeps = () => ({ ...dbClock(app.deps), maxUsers: app.deps.config.maxUsers });

  route(
    app,
    endpoints.adminUserList,
    {
      onRequest: authenticate(),
    },
    (request) => listUsers(db, actorOf(request), request.query.query, request.query.former === "true"),
  );

  route(
    app,
    endpoints.adminUserGet,
    {
      onRequest: authenticate(),
    },
    (request) => getAdminUser(db, actorOf(request), request.params.id),
  );

  // One path, two calls (spec §7): an object creates a user, an array imports users (CSV).
  // Authorised before the body is read: a role that may not create users is refused at once,
  // and only a role that may import gets the import's size; the rest get the default limit.
  route(
    app,
    sharedRoutes.adminUsersPost,
    {
      // ~200 bytes a row; the largest import allowed fits.
      bodyLimit: IMPORT_MAX_ROWS * 1024,
      // As the services would answer: 1015 for a learner, then 403 for staff who may not create users.
      onRequest: authenticate({ admit: ["users.list", "users.create"] }),
      preParsing: smallBodyUnless("users.import", BODY_LIMIT),
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

  route(
    app,
    endpoints.adminUserUpdate,
    {
      onRequest: authenticate(),
    },
    (request) => updateUserByAdmin(writeDeps(), actorOf(request), request.params.id, request.body),
  );

  route(
    app,
    endpoints.adminUserDelete,
    {
      onRequest: authenticate(),
    },
    async (request) => {
      await deleteUserByAdmin(dbClock(app.deps), actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  route(
    app,
    endpoints.adminUserRestore,
    {
      onRequest: authenticate(),
    },
    (request) => restoreUser(writeDeps(), actorOf(request), request.params.id),
  );
}
