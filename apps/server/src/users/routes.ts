import { AccountPatch, ErrorBody, OkResponse, User, UserIdParams } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate } from "../auth/guards";
import { changeOwnAccount, getVisibleUser, hideHelpRedirect } from "./service";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    "/auth/users/:id",
    {
      schema: { tags: ["account"], params: UserIdParams, response: { 200: User, ...errors } },
      onRequest: authenticate(),
    },
    (request) => getVisibleUser(db, actorOf(request), request.params.id),
  );

  r.patch(
    "/auth/users/:id",
    {
      schema: { tags: ["account"], params: UserIdParams, body: AccountPatch, response: { 200: User, ...errors } },
      onRequest: authenticate(),
    },
    (request) => changeOwnAccount(db, actorOf(request), request.params.id, request.body),
  );

  r.delete(
    "/account/help_redirect_dialog",
    { schema: { tags: ["account"], response: { 200: OkResponse, 401: ErrorBody } }, onRequest: authenticate() },
    async (request) => {
      await hideHelpRedirect(db, actorOf(request).id);
      return { ok: true as const };
    },
  );
}
