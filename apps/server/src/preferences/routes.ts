import { ErrorBody, Preferences, PreferencesPatch, UserIdParams } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { changeOwnPreferences, getOwnPreferences } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

export async function preferenceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/preferences/:id",
    {
      schema: { tags: ["preferences"], params: UserIdParams, response: { 200: Preferences, ...errors } },
      onRequest: authenticate(),
    },
    (request) => getOwnPreferences(db, actorOf(request), request.params.id),
  );

  r.patch(
    "/preferences/:id",
    {
      schema: {
        tags: ["preferences"],
        params: UserIdParams,
        body: PreferencesPatch,
        response: { 200: Preferences, ...errors },
      },
      onRequest: authenticate(),
    },
    (request) => changeOwnPreferences(db, actorOf(request), request.params.id, request.body),
  );
}
