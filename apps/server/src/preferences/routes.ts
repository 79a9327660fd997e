import { endpoints, SOURCE_LANGUAGE } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { changeOwnPreferences, getOwnPreferences } from "./service";

export async function preferenceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;

  route(
    app,
    endpoints.preferencesGet,
    {
      onRequest: authenticate(),
    },
    (request) => getOwnPreferences(db, actorOf(request), request.params.id, app.deps.config.settings.theme),
  );

  route(
    app,
    endpoints.preferencesUpdate,
    {
      onRequest: authenticate(),
    },
    (request) =>
      changeOwnPreferences(
        db,
        actorOf(request),
        request.params.id,
        request.body,
        app.deps.config.settings.theme,
        app.deps.config.contentLanguages,
      ),
  );

  route(app, endpoints.contentLanguageList, { onRequest: authenticate() }, () => ({
    source: SOURCE_LANGUAGE,
    languages: [SOURCE_LANGUAGE, ...app.deps.config.contentLanguages],
    machine_suggestions: app.deps.config.machineTranslation !== null,
  }));
}
