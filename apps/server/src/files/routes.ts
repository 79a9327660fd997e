import { endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { assertMay, ownedBy } from "../access/policy";
import type { Db } from "../db/client";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { mediaStore } from "../storage/store";
import { findMedia, MEDIA_CSP, type MediaMeta, parseRange } from "./service";

/** Sends a media file, honouring one HTTP byte range. */
async function sendMedia(db: Db, request: FastifyRequest, reply: FastifyReply, m: MediaMeta) {
  const etag = `"${m.sha256}"`;
  reply
    .header("content-security-policy", MEDIA_CSP)
    .header("cache-control", "private, max-age=86400")
    .header("etag", etag)
    .header("accept-ranges", "bytes")
    .type(m.mime);
  if (request.headers["if-none-match"] === etag) return reply.status(304).send();
  const range = parseRange(request.headers.range, m.size);
  if ("unsatisfiable" in range) return reply.status(416).header("content-range", `bytes */${m.size}`).send();
  if (range.partial) reply.status(206).header("content-range", `bytes ${range.start}-${range.end}/${m.size}`);
  // Streamed a chunk at a time as the client takes it: a video is never one buffer.
  return reply
    .header("content-length", range.end - range.start + 1)
    .send(mediaStore(db).open(m.storageKey, { start: range.start, end: range.end }));
}

/** A facility's own question image or video (authoring) or wiki image exists only within that facility. */
function inScope(request: FastifyRequest, found: MediaMeta): MediaMeta {
  assertMay(actorOf(request), "media.view", ownedBy(found.facilityId));
  return found;
}

export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  // <img> and <video> cannot send headers: these accept ?token= (decision 9).
  const guard = authenticate({ queryToken: true });

  route(
    app,
    endpoints.staticImage,
    {
      onRequest: guard,
    },
    async (request, reply) =>
      sendMedia(db, request, reply, inScope(request, await findMedia(db, "image", { id: request.params.id }))),
  );

  route(
    app,
    endpoints.staticVideo,
    {
      onRequest: guard,
    },
    async (request, reply) =>
      sendMedia(db, request, reply, inScope(request, await findMedia(db, "video", { id: request.params.id }))),
  );

  route(
    app,
    endpoints.staticIcon,
    {
      onRequest: guard,
    },
    async (request, reply) => {
      const name = request.params.file.slice("icon_".length, -".svg".length);
      return sendMedia(db, request, reply, await findMedia(db, "icon", { name }));
    },
  );

  // Tutorial screenshots: the staff version for staff only, like GET /Tutorial?Role=admin.
  route(
    app,
    endpoints.staticAdminTutorial,
    { onRequest: authenticate({ queryToken: true, admit: "tutorial.admin" }) },
    async (request, reply) =>
      sendMedia(db, request, reply, await findMedia(db, "admin-tutorial", { name: request.params.name })),
  );

  route(app, endpoints.staticEmployeeTutorial, { onRequest: guard }, async (request, reply) =>
    sendMedia(db, request, reply, await findMedia(db, "employee-tutorial", { name: request.params.name })),
  );

  // A wiki image of a facility's page is that facility's: elsewhere it does not exist.
  route(app, endpoints.staticWikiImage, { onRequest: guard }, async (request, reply) =>
    sendMedia(db, request, reply, inScope(request, await findMedia(db, "wiki", { id: request.params.id }))),
  );
}
