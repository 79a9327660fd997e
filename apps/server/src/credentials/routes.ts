import { ErrorCode, endpoints } from "@carecampus/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type AppDeps, limitDeps } from "../deps";
import { AppError } from "../errors";
import { attachment } from "../http/attachment";
import { route } from "../http/route";
import { actorOf, authenticate } from "../security/guards";
import { consume, ipKey } from "../security/limits";
import { didDocument, loadIssuer, loadSigningJwk, publishedKeys } from "./keys";
import { renderVerifyPage } from "./page";
import {
  type CredentialDeps,
  certificateCredential,
  credentialCertificates,
  markCredentialsStart,
  statusListCredential,
  verifyUploaded,
} from "./service";

/** An uploaded credential: at most this many bytes (a credential is 3–5 KB). */
export const CREDENTIAL_UPLOAD_LIMIT = 64 * 1024;
/** Verifications a minute per client address (each canonicalises and checks a signature). */
export const VERIFY_PER_MINUTE = 30;

/** The credential deps of a wired app: null while VERIFIABLE_CREDENTIALS is off. */
export async function credentialDeps(deps: AppDeps): Promise<CredentialDeps | null> {
  if (!deps.config.verifiableCredentials) return null;
  const { db } = deps.database;
  const jwk = await loadSigningJwk(deps.config.credentialsKey, deps.database, deps.config.dataDir);
  const issuer = await loadIssuer(db, jwk, deps.config.publicUrl);
  await markCredentialsStart(db);
  return { db, now: deps.now, issuer };
}

const off = () => new AppError(ErrorCode.notFound, "Verifiable credentials are not enabled here");

/** Why an upload is not a credential to check: no file, or not a JSON object. */
type UploadProblem = "no_file" | "not_json";

function uploadError(reason: UploadProblem): AppError {
  const message =
    reason === "no_file" ? "No credential file in the field `credential`" : "The file is not a JSON credential";
  return new AppError(ErrorCode.validation, message, 400, { reason });
}

/** The file of a multipart form (field `credential`), parsed as a JSON object; else a 400 naming the reason. */
async function readUpload(contentType: string | undefined, body: Buffer): Promise<Record<string, unknown>> {
  let file: File | string | null;
  try {
    file = (await new Response(body, { headers: { "content-type": String(contentType) } }).formData()).get(
      "credential",
    );
  } catch {
    throw uploadError("no_file");
  }
  if (file === null || typeof file === "string" || file.size === 0) throw uploadError("no_file");
  return parseCredential(await file.text());
}

/**
 * Multipart bodies of this scope, at most CREDENTIAL_UPLOAD_LIMIT bytes: the API reads the file
 * as the body (a bad one is a 400 of the spec §8 format); the page gets the bytes and answers
 * every problem with a page.
 */
function acceptUploads(app: FastifyInstance, as: "credential" | "bytes"): void {
  app.addContentTypeParser(
    "multipart/form-data",
    { parseAs: "buffer", bodyLimit: CREDENTIAL_UPLOAD_LIMIT },
    async (request: FastifyRequest, body: Buffer) =>
      as === "bytes" ? body : readUpload(request.headers["content-type"], body),
  );
}

function parseCredential(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw uploadError("not_json");
  }
  return value as Record<string, unknown>;
}

async function limitVerify(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  await consume(limitDeps(app.deps), `verify:${ipKey(request.ip)}`, VERIFY_PER_MINUTE, 60_000);
}

/** The API calls (under /api): the download, the holder's list, the status lists, the check. */
export function credentialRoutes(credentials: CredentialDeps | null) {
  return async (app: FastifyInstance): Promise<void> => {
    const { db } = app.deps.database;
    acceptUploads(app, "credential");

    route(app, endpoints.credentialGet, { onRequest: authenticate({ queryToken: true }) }, async (request, reply) => {
      if (!credentials) throw off();
      const { document, filename } = await certificateCredential(credentials, actorOf(request), request.params.id);
      return reply
        .type("application/ld+json; charset=utf-8")
        .header("content-disposition", attachment(filename))
        .header("cache-control", "private, no-store")
        .send(document);
    });

    route(app, endpoints.credentialList, { onRequest: authenticate() }, async (request) => ({
      certificates: await credentialCertificates(db, actorOf(request), request.params.id, credentials !== null),
    }));

    route(app, endpoints.credentialStatusList, {}, async (request, reply) => {
      if (!credentials) throw off();
      const document = await statusListCredential(credentials, request.params.list);
      // Verifiers may keep it a minute; a revocation shows within that.
      return reply.header("cache-control", "public, max-age=60").send(document);
    });

    route(
      app,
      endpoints.credentialVerify,
      { bodyLimit: CREDENTIAL_UPLOAD_LIMIT, onRequest: async (request) => limitVerify(app, request) },
      async (request) => {
        if (!credentials) throw off();
        // A JSON body, or the file of an upload (acceptUploads).
        return verifyUploaded(credentials, request.body);
      },
    );
  };
}

/** Outside /api: the DID document of did:web and the verification page /v/credential (no login, no script). */
export function credentialPages(credentials: CredentialDeps | null) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get("/.well-known/did.json", async (_request, reply) => {
      if (!credentials) throw off();
      const keys = await publishedKeys(credentials.db, credentials.issuer.keyId, credentials.now());
      return reply
        .type("application/did+ld+json")
        .header("cache-control", "public, max-age=300")
        .send(didDocument(credentials.issuer.did, keys));
    });

    // The form posts the file itself; every answer is a page, errors included.
    app.register(async (pages) => {
      acceptUploads(pages, "bytes");
      // A file beyond the limit is answered with the page too.
      pages.setErrorHandler((error, request, reply) => {
        const status = (error as { statusCode?: number }).statusCode === 413 ? 413 : 400;
        return reply
          .status(status)
          .type("text/html; charset=utf-8")
          .send(
            renderVerifyPage(request.headers["accept-language"], app.deps.config.timeZone, {
              state: "error",
              reason: status === 413 ? "too_large" : "not_json",
            }),
          );
      });
      pages.get("/v/credential", async (request, reply) =>
        reply
          .type("text/html; charset=utf-8")
          .send(renderVerifyPage(request.headers["accept-language"], app.deps.config.timeZone, { state: "form" })),
      );
      pages.post("/v/credential", { bodyLimit: CREDENTIAL_UPLOAD_LIMIT }, async (request, reply) => {
        const lang = request.headers["accept-language"];
        const zone = app.deps.config.timeZone;
        const page = (status: number, html: string) =>
          reply.status(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(html);
        if (!credentials) return page(404, renderVerifyPage(lang, zone, { state: "error", reason: "off" }));
        try {
          await limitVerify(app, request);
        } catch {
          return page(429, renderVerifyPage(lang, zone, { state: "error", reason: "too_many" }));
        }
        let credential: Record<string, unknown>;
        try {
          credential = await readUpload(request.headers["content-type"], request.body as Buffer);
        } catch (err) {
          const reason = (err as AppError).details?.reason === "no_file" ? "no_file" : "not_json";
          return page(400, renderVerifyPage(lang, zone, { state: "error", reason }));
        }
        const answer = await verifyUploaded(credentials, credential);
        return page(200, renderVerifyPage(lang, zone, { state: "result", answer }));
      });
    });
  };
}
