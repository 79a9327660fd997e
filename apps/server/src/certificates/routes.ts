import { ErrorBody, ErrorCode, Id, UserIdParams, UserProgress } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, authenticate, maySeeUser } from "../auth/guards";
import { AppError } from "../errors";
import { loadSnapshot, toUserProgress } from "../learning/progress";
import { loadSessionUser } from "../users/service";
import { certificatePdf } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  // A download link opened in a new tab carries its token in the query (decision 9).
  r.get(
    "/progress/export/certificate",
    {
      schema: {
        tags: ["certificates"],
        querystring: z.object({ id: Id, token: z.string().optional() }).strict(),
      },
      onRequest: authenticate({ queryToken: true }),
    },
    async (request, reply) => {
      const { pdf, filename } = await certificatePdf(db, actorOf(request), request.query.id);
      return reply
        .type("application/pdf")
        .header("content-disposition", `inline; filename="${filename}"`)
        .header("cache-control", "private, no-store")
        .send(Buffer.from(pdf));
    },
  );

  // The user's progress: their own for /profile, or a user within the staff member's scope.
  r.get(
    "/progress/admin/users/:id",
    {
      schema: { tags: ["progress"], params: UserIdParams, response: { 200: UserProgress, ...errors } },
      onRequest: authenticate(),
    },
    async (request) => {
      const actor = actorOf(request);
      const target = await loadSessionUser(db, request.params.id);
      if (!target || !maySeeUser(actor, { id: target.id, facilityId: target.facilityId })) {
        throw new AppError(ErrorCode.userNotFound, "User not found");
      }
      const now = app.deps.now();
      return toUserProgress(await loadSnapshot(db, target.id, now), now);
    },
  );
}
