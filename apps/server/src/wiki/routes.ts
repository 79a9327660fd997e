import { endpoints, WIKI_IMAGE_MAX_BYTES, WIKI_IMAGE_TYPES } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { dbClock, limitDeps } from "../deps";
import { attachment } from "../http/attachment";
import { assertPageLanguage } from "../http/languages";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { consumeUpload } from "../security/limits";
import { declaredLength, streamedBodies } from "../storage/upload";
import { confirmPage, exportConfirmations, listConfirmations, remindMissing } from "./confirmations";
import { diffRevisions } from "./diff";
import { assertMayEdit, facilityInView } from "./pages";
import { searchWiki } from "./search";
import {
  createPage,
  createTopic,
  getPage,
  getRevision,
  listRevisions,
  releasePage,
  restoreRevision,
  retirePage,
  savePage,
  storeWikiImage,
  wikiTree,
} from "./service";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The wiki and QM handbook (issue 'Wiki and quality-management handbook', decision 14). */
export async function wikiRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const clock = () => dbClock(app.deps);
  const user = { onRequest: authenticate() };

  route(app, endpoints.wikiTree, user, (request) => wikiTree(db, actorOf(request), request.query.facility));
  route(app, endpoints.wikiTopicCreate, user, (request) => createTopic(clock(), actorOf(request), request.body));
  route(app, endpoints.wikiPageGet, user, (request) => getPage(db, actorOf(request), request.params, request.query));
  // A page is written in an interface language or a content language of the installation.
  const languages = app.deps.config.contentLanguages;
  route(app, endpoints.wikiPageCreate, user, (request) => {
    assertPageLanguage(request.body.lang, languages);
    return createPage(clock(), actorOf(request), request.body);
  });
  route(app, endpoints.wikiPageSave, user, (request) => {
    assertPageLanguage(request.body.lang, languages);
    return savePage(clock(), actorOf(request), request.params.id, request.body);
  });
  route(app, endpoints.wikiPageDelete, user, async (request) => {
    await retirePage(clock(), actorOf(request), request.params.id);
    return { ok: true as const };
  });
  route(app, endpoints.wikiPageRelease, user, (request) =>
    releasePage(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.wikiRevisions, user, (request) => listRevisions(db, actorOf(request), request.params.id));
  route(app, endpoints.wikiRevision, user, (request) =>
    getRevision(db, actorOf(request), request.params.id, request.params.number, request.query.lang),
  );
  route(app, endpoints.wikiDiff, user, (request) =>
    diffRevisions(db, actorOf(request), request.params.id, request.query),
  );
  route(app, endpoints.wikiRestore, user, (request) =>
    restoreRevision(clock(), actorOf(request), request.params.id, request.body),
  );
  route(app, endpoints.wikiConfirm, user, (request) =>
    confirmPage(clock(), actorOf(request), request.params.id, request.body.revision, request.body.lang),
  );
  route(app, endpoints.wikiConfirmations, user, (request) =>
    listConfirmations(db, actorOf(request), request.params.id, request.query.facility),
  );
  route(app, endpoints.wikiConfirmationsRemind, user, (request) =>
    remindMissing(clock(), actorOf(request), request.params.id, request.query.facility),
  );
  route(
    app,
    endpoints.wikiConfirmationsExport,
    { onRequest: authenticate({ queryToken: true }) },
    async (request, reply) => {
      const file = await exportConfirmations(clock(), actorOf(request), request.params.id, request.query.facility);
      return reply
        .type(XLSX)
        .header("content-disposition", attachment(file.filename))
        .header("cache-control", "private, no-store")
        .send(file.buffer);
    },
  );
  route(app, endpoints.wikiSearch, user, (request) => searchWiki(db, actorOf(request), request.query));

  // Images come as the raw body with their type, streamed into storage; the role and the user's
  // upload rate are checked before a byte is read.
  streamedBodies(app, [...WIKI_IMAGE_TYPES, "image/svg+xml", "application/octet-stream"], WIKI_IMAGE_MAX_BYTES);
  route(app, endpoints.wikiImageUpload, { onRequest: authenticate({ admit: "wiki.upload" }) }, async (request) => {
    const actor = actorOf(request);
    await consumeUpload(limitDeps(app.deps), actor.id);
    const asked = request.query.facility;
    // A facility's administrators upload for their facility; Super-Admins for the common pages or the facility named.
    const facilityId = asked !== undefined ? await facilityInView(db, actor, asked) : actor.facilityId;
    assertMayEdit(actor, facilityId);
    const declared = String(request.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase();
    const info = await storeWikiImage(db, facilityId, declared ?? "", request.body, {
      quotaBytes: app.deps.config.mediaQuotaBytes,
      declaredLength: declaredLength(request),
    });
    return { id: info.id, src: `/api/static/wiki/${info.id}`, width: info.width, height: info.height };
  });
}
