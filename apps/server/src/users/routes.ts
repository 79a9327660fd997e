import { AccountPatch, ErrorBody, ErrorCode, OkResponse, User, UserIdParams } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { actorOf, authenticate, maySeeUser, requireSelf } from "../auth/guards";
import { AppError } from "../errors";
import { changeAccount, getUser, hideHelpRedirect } from "./service";

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
    async (request) => {
      const actor = actorOf(request);
      const user = await getUser(db, request.params.id);
      // Users outside the caller's scope are answered as not found: never their data.
      if (!user || !maySeeUser(actor, { id: user.id, facilityId: user.facility?.id ?? null })) {
        throw new AppError(ErrorCode.userNotFound, "User not found");
      }
      return user;
    },
  );

  r.patch(
    "/auth/users/:id",
    {
      schema: { tags: ["account"], params: UserIdParams, body: AccountPatch, response: { 200: User, ...errors } },
      onRequest: authenticate(),
    },
    async (request) => {
      requireSelf(actorOf(request), request.params.id);
      await changeAccount(db, request.params.id, request.body);
      const user = await getUser(db, request.params.id);
      if (!user) throw new AppError(ErrorCode.userNotFound, "User not found");
      return user;
    },
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
