import { ErrorCode, Id } from "@carecampus/contract";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { authenticate } from "../auth/guards";
import { media } from "../db/schema";
import { AppError } from "../errors";

// Served media is content, never a page: no script, no plugins, no framing.
const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src 'self'; sandbox";

interface MediaMeta {
  id: number;
  mime: string;
  size: number;
  sha256: string;
}

async function findMedia(
  app: FastifyInstance,
  kind: string,
  where: { id?: number; name?: string },
): Promise<MediaMeta> {
  const { db } = app.deps.database;
  const cond = where.id !== undefined ? eq(media.id, where.id) : eq(media.name, where.name ?? "");
  const [row] = await db
    .select({ id: media.id, mime: media.mime, size: media.size, sha256: media.sha256 })
    .from(media)
    .where(and(eq(media.kind, kind), cond));
  if (!row) throw new AppError(ErrorCode.imageNotFound, "Image not found");
  return row;
}

/** Sends a media file, honouring one HTTP byte range (so an mp4 can seek). */
async function sendMedia(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, m: MediaMeta) {
  const etag = `"${m.sha256}"`;
  reply
    .header("content-security-policy", MEDIA_CSP)
    .header("cache-control", "private, max-age=86400")
    .header("etag", etag)
    .header("accept-ranges", "bytes")
    .type(m.mime);
  if (request.headers["if-none-match"] === etag) return reply.status(304).send();
  const { db } = app.deps.database;
  const range = request.headers.range;
  let start = 0;
  let end = m.size - 1;
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!match || (match[1] === "" && match[2] === "")) {
      return reply.status(416).header("content-range", `bytes */${m.size}`).send();
    }
    if (match[1] === "") {
      start = Math.max(0, m.size - Number(match[2]));
    } else {
      start = Number(match[1]);
      if (match[2] !== "") end = Math.min(end, Number(match[2]));
    }
    if (start > end || start >= m.size) return reply.status(416).header("content-range", `bytes */${m.size}`).send();
    reply.status(206).header("content-range", `bytes ${start}-${end}/${m.size}`);
  }
  const length = end - start + 1;
  const [row] = await db
    .select({ chunk: sql<Buffer>`substring(${media.data} from ${start + 1}::int for ${length}::int)` })
    .from(media)
    .where(eq(media.id, m.id));
  const chunk = row?.chunk;
  return reply.header("content-length", length).send(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk ?? []));
}

const TokenQuery = z.object({ token: z.string().optional() }).strict();

export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // <img> and <video> cannot send headers: these accept ?token= (decision 9).
  const guard = authenticate({ queryToken: true });

  r.get(
    "/static/image/:id",
    { schema: { tags: ["files"], params: z.object({ id: Id }).strict(), querystring: TokenQuery }, onRequest: guard },
    async (request, reply) => sendMedia(app, request, reply, await findMedia(app, "image", { id: request.params.id })),
  );

  r.get(
    "/static/video/:id",
    { schema: { tags: ["files"], params: z.object({ id: Id }).strict(), querystring: TokenQuery }, onRequest: guard },
    async (request, reply) => sendMedia(app, request, reply, await findMedia(app, "video", { id: request.params.id })),
  );

  r.get(
    "/static/icon/:file",
    {
      schema: {
        tags: ["files"],
        params: z.object({ file: z.string().regex(/^icon_[a-z0-9][a-z0-9-]{0,62}\.svg$/, "unknown icon") }).strict(),
        querystring: TokenQuery,
      },
      onRequest: guard,
    },
    async (request, reply) => {
      const name = request.params.file.slice("icon_".length, -".svg".length);
      return sendMedia(app, request, reply, await findMedia(app, "icon", { name }));
    },
  );
}
