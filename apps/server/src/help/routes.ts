import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { actorOf, authenticate } from "../auth/guards";
import { route } from "../http/route";
import { createHelpRequest } from "./service";

export async function helpRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.helpRequestCreate,
    {
      onRequest: authenticate({ admit: "help.ask" }),
    },
    async (request) => ({ id: await createHelpRequest(db, actorOf(request), request.body.question_id) }),
  );
}
