import { ErrorBody, Id, UserIdParams, UserProgress } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, authenticate } from "../auth/guards";
import { dbClock } from "../deps";
import { certificatePdf, getUserProgress } from "./service";

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
      const { pdf, filename } = await certificatePdf(db, actorOf(request), request.query.id, app.deps.config.timeZone);
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
    (request) => getUserProgress(dbClock(app.deps), actorOf(request), request.params.id),
  );
}
