import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { limitDeps } from "../deps";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { changeOwnAccount, getVisibleUser, hideHelpRedirect } from "./service";

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.userGet,
    {
      onRequest: authenticate(),
    },
    (request) => getVisibleUser(db, actorOf(request), request.params.id, app.deps.config.settings.theme),
  );

  route(
    app,
    endpoints.accountUpdate,
    {
      onRequest: authenticate(),
    },
    (request) =>
      changeOwnAccount(
        limitDeps(app.deps),
        actorOf(request),
        request.params.id,
        request.body,
        request.ip,
        app.deps.config.settings.theme,
      ),
  );

  route(
    app,
    endpoints.helpRedirectHide,
    {
      onRequest: authenticate(),
    },
    async (request) => {
      await hideHelpRedirect(db, actorOf(request).id);
      return { ok: true as const };
    },
  );
}
