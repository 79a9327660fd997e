import { endpoints } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { limitDeps } from "../deps";
import { assertPageLanguage } from "../http/languages";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import {
  createHelpRequest,
  getHelpRequest,
  handleHelpRequest,
  listContentFixes,
  listHelpRequests,
  listMyHelpRequests,
  replyToHelpRequest,
  setContentFix,
} from "./service";
import { getTutorial } from "./tutorial";

export async function helpRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const notify = () => ({ db, now: app.deps.now });

  route(app, endpoints.helpRequestCreate, { onRequest: authenticate({ admit: "help.ask" }) }, async (request) => ({
    id: await createHelpRequest(limitDeps(app.deps), actorOf(request), request.body.question_id),
  }));

  route(app, endpoints.helpMine, { onRequest: authenticate({ admit: "help.ask" }) }, (request) =>
    listMyHelpRequests(db, actorOf(request)),
  );

  route(app, endpoints.helpList, { onRequest: authenticate({ admit: "help.read" }) }, (request) =>
    listHelpRequests(db, actorOf(request), request.query.facility),
  );

  route(app, endpoints.contentFixList, { onRequest: authenticate({ admit: "help.flagContent" }) }, (request) =>
    listContentFixes(db, actorOf(request)),
  );

  route(app, endpoints.helpGet, { onRequest: authenticate({ admit: "help.read" }) }, (request) =>
    getHelpRequest(db, actorOf(request), request.params.id, request.query.facility),
  );

  route(app, endpoints.helpHandle, { onRequest: authenticate({ admit: "help.handle" }) }, async (request) => ({
    handled: await handleHelpRequest(notify(), actorOf(request), request.params.id, request.query.facility),
  }));

  route(app, endpoints.helpReply, { onRequest: authenticate({ admit: "help.handle" }) }, async (request) => ({
    handled: await replyToHelpRequest(
      notify(),
      actorOf(request),
      request.params.id,
      request.body.text,
      request.query.facility,
    ),
  }));

  route(app, endpoints.contentFixSet, { onRequest: authenticate({ admit: "help.flagContent" }) }, (request) =>
    setContentFix(notify(), actorOf(request), request.params.id, request.body.needs_fix, request.body.note),
  );

  route(app, endpoints.tutorial, { onRequest: authenticate() }, (request) => {
    const { lang } = request.query;
    if (lang !== undefined) assertPageLanguage(lang, app.deps.config.contentLanguages);
    return getTutorial(db, actorOf(request), request.query.Role, lang);
  });
}
