import { ErrorBody, ErrorCode, IdParams, NotificationList, OkResponse } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { AppError } from "../errors";
import { listNotifications, markRead } from "./service";

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/notifications",
    {
      schema: { tags: ["notifications"], response: { 200: NotificationList, 401: ErrorBody } },
      onRequest: authenticate(),
    },
    (request) => listNotifications(db, actorOf(request).id),
  );

  r.delete(
    "/notifications/:id",
    {
      schema: {
        tags: ["notifications"],
        params: IdParams,
        response: { 200: OkResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
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
