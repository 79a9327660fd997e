import { z } from "zod";
import { Id } from "../schemas/common";

/*
 * What the calls of every feature share: the shape of a call, the error lists most of them
 * answer with, and the parameters of a file opened by URL. Each feature's calls are in
 * endpoints/<feature>.ts; endpoints.ts makes the one table of them.
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One call of the API (spec §7): what the server registers and the client calls. The web client
 * sends calls by the light table of api.ts (generated from this one, without the schemas); the
 * URL helpers (API_PREFIX, endpointUrl, matchDownload) are there too.
 */
export interface EndpointSpec {
  method: HttpMethod;
  /** Fastify style, under API_PREFIX: `/auth/admin/users/:id`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Request headers the call reads besides the token (a loose object: other headers pass). */
  headers?: z.ZodType;
  /** The 200 answer of a JSON call; a download has none. */
  response?: z.ZodType;
  /**
   * 'redirect': an address the browser opens, answered with a 302 elsewhere (single sign-on's
   * login, callback and logout), never called by script.
   * 'download': a file (xlsx, PDF, image, video) opened by URL in a tab, <img> or <video>,
   * which cannot send a header, so the token travels in the query (decision 9).
   */
  kind?: "json" | "download" | "redirect";
  /** Statuses answered with the common spec §8 ErrorBody. */
  errors: readonly number[];
  /** Statuses answered with a richer error body. */
  errorBodies?: Readonly<Record<number, z.ZodType>>;
  tags: readonly string[];
  description: string;
}

export const AUTHED = [400, 401, 403, 404] as const;
/**
 * 409 also when the database ended the write in a deadlock or serialization failure with another
 * writer, 503 (1108) when it could not do it in time: both after one more try, both worth a retry.
 */
export const WRITES = [400, 401, 403, 404, 409, 503] as const;
export const LOGGED_IN = [401] as const;

/** A file served with its token in the query: accepts `?token=` beside its own query. */
export const TokenQuery = z.object({ token: z.string().optional() }).strict();
/** An image or video of the content, or an image of a wiki page, by its id. */
export const MediaParams = z.object({ id: Id }).strict();
