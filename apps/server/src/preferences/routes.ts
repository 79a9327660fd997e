import { ErrorBody, ErrorCode, Preferences, PreferencesPatch, UserIdParams } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate, requireSelf } from "../auth/guards";
import { AppError } from "../errors";
import { getPreferences, updatePreferences } from "./service";

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
    async (request) => {
      requireSelf(actorOf(request), request.params.id);
      const prefs = await getPreferences(db, request.params.id);
      if (!prefs) throw new AppError(ErrorCode.userNotFound, "User not found");
      return prefs;
    },
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
    async (request) => {
      requireSelf(actorOf(request), request.params.id);
      const before = await getPreferences(db, request.params.id);
      if (!before) throw new AppError(ErrorCode.userNotFound, "User not found");
      await updatePreferences(db, request.params.id, request.body);
      return { ...before, [request.body.property]: request.body.value };
    },
  );
}
