import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { limitDeps } from "../deps";
import { AppError, TooManyAttempts } from "../errors";
import { route } from "../http/route";
import { consumeVerification } from "../security/limits";
import { formPage, resultPage, tooManyPage } from "./page";
import { verifyCertificate } from "./service";
import { pageLanguage } from "./texts";

/*
 * The public verification (issue 29), no login: GET /api/public/verify/{code} (JSON, registered
 * under /api) and the pages GET /v and /v/{code} (HTML, at the root). Every answer of either,
 * errors included, is kept out of caches and search engines, and each request counts against
 * the viewer's VERIFY_RATE_PER_MINUTE.
 */

function publicHeaders(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    reply.header("x-robots-tag", "noindex, nofollow");
    return payload;
  });
}

/** GET /api/public/verify/{code}: a 429 here is the spec §8 body with Retry-After (errors.ts). */
export async function verifyApiRoutes(app: FastifyInstance): Promise<void> {
  publicHeaders(app);
  route(
    app,
    endpoints.publicVerify,
    {
      config: { ownRateLimit: true },
      onRequest: async (request) => consumeVerification(limitDeps(app.deps), request.ip),
    },
    async (request) => {
      const { config } = app.deps;
      const { found } = await verifyCertificate(
        app.deps.database.db,
        request.params.code,
        app.deps.now(),
        config.timeZone,
      );
      if (!found) throw new AppError(ErrorCode.certificateNotFound, "No certificate has this code");
      return found;
    },
  );
}

/** The pages /v and /v/{code}: a 429 is a readable page in the viewer's language. */
export async function verifyPages(app: FastifyInstance): Promise<void> {
  publicHeaders(app);
  const { db } = app.deps.database;
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).type("text/html; charset=utf-8").send(body);

  /** Counts the request; false (and the 429 page sent) past the limit. */
  const admitted = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    try {
      await consumeVerification(limitDeps(app.deps), request.ip);
      return true;
    } catch (err) {
      if (!(err instanceof TooManyAttempts)) throw err;
      reply.header("retry-after", String(err.retryAfterSeconds));
      await html(reply, 429, tooManyPage(pageLanguage(request.headers["accept-language"]), err.retryAfterSeconds));
      return false;
    }
  };

  const answer = async (request: FastifyRequest, reply: FastifyReply, typed: string) => {
    const language = pageLanguage(request.headers["accept-language"]);
    const verification = await verifyCertificate(db, typed, app.deps.now(), app.deps.config.timeZone);
    return html(
      reply,
      verification.found ? 200 : 404,
      resultPage(language, verification, typed, app.deps.config.timeZone),
    );
  };

  app.get<{ Params: { code: string } }>("/v/:code", async (request, reply) => {
    if (!(await admitted(request, reply))) return reply;
    return answer(request, reply, request.params.code);
  });

  // The form sends GET /v?code=…: the answer comes at once, no script and no redirect needed.
  app.get<{ Querystring: { code?: string | string[] } }>("/v", async (request, reply) => {
    if (!(await admitted(request, reply))) return reply;
    const raw = request.query.code;
    const typed = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (typed === undefined)
      return html(
        reply,
        200,
        formPage(pageLanguage(request.headers["accept-language"]), false, app.deps.config.verifiableCredentials),
      );
    if (typed === "")
      return html(
        reply,
        400,
        formPage(pageLanguage(request.headers["accept-language"]), true, app.deps.config.verifiableCredentials),
      );
    return answer(request, reply, typed);
  });
}
