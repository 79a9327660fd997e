import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { listNotifications, markRead } from "./service";

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.notificationList,
    {
      onRequest: authenticate(),
    },
    (request) => listNotifications(db, actorOf(request).id),
  );

  route(
    app,
    endpoints.notificationRead,
    {
      onRequest: authenticate(),
    },
    async (request) => {
      // Another user's notification is answered exactly like a missing one.
      if (!(await markRead(db, actorOf(request).id, request.params.id, app.deps.now()))) {
        throw new AppError(ErrorCode.notFound, "Notification not found");
      }
      return { ok: true as const };
    },
  );
}
