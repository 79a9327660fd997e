import { ErrorBody, HelpRequestCreate, HelpRequestCreated } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { createHelpRequest } from "./service";

export async function helpRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.post(
    "/help",
    {
      schema: {
        tags: ["help"],
        body: HelpRequestCreate,
        response: { 200: HelpRequestCreated, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
      onRequest: authenticate({ admit: "help.ask" }),
    },
    async (request) => ({ id: await createHelpRequest(db, actorOf(request), request.body.question_id) }),
  );
}
