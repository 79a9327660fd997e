import {
  type BodyOf,
  type DownloadRoute,
  type ErrorBody,
  ErrorCode,
  endpointUrl,
  isErrorBody,
  type JsonRoute,
  matchDownload,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type SpecOf,
} from "@carecampus/contract";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
  get code(): number | undefined {
    return this.body?.error_code;
  }
}

/** A part of the request: absent when the entry has no schema for it, optional when every field is. */
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : // biome-ignore lint/complexity/noBannedTypes: "every field optional" is exactly `{} extends T`
    {} extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** A call's arguments, typed by the full table's entry (`import type`: no schema at run time). */
export type CallArgs<R extends JsonRoute> = Part<"params", ParamsOf<SpecOf<R>>> &
  Part<"query", QueryOf<SpecOf<R>>> &
  Part<"body", BodyOf<SpecOf<R>>> & {
    signal?: AbortSignal;
    /** Do not show the error toast (the caller shows its own message). */
    silent?: boolean;
    /** Call with this token instead of the session's (a token from a link); no session handling. */
    token?: string;
    /** Request headers of the call's own (the answer's Idempotency-Key). */
    headers?: Readonly<Record<string, string>>;
  };

export type UrlArgs<R extends DownloadRoute> = Part<"params", ParamsOf<SpecOf<R>>> &
  Part<"query", Omit<NonNullable<QueryOf<SpecOf<R>>>, "token">>;

// biome-ignore lint/complexity/noBannedTypes: see Part
type ArgList<A> = {} extends A ? [args?: A] : [args: A];

export interface CallerConfig {
  /** "" in the browser (same origin); an origin in tests. */
  baseUrl?: string;
  /** The session's token, if any. */
  token(): string | undefined;
  /** A 401 or 1010 outside the login call: the session is over. */
  onSessionEnd(error: ApiError): void;
  /** Any other failure the caller did not silence (the toast). */
  onError(error: ApiError): void;
}

/**
 * The one typed function over the contract's endpoint table: the light table's entry (api.ts)
 * gives method and path, the full table's the types of params, query, body and answer.
 */
export function createCaller(config: CallerConfig) {
  const base = config.baseUrl ?? "";
  // Identical GETs in flight are shared (spec §7).
  const inflight = new Map<string, Promise<unknown>>();

  async function send(endpoint: JsonRoute, url: string, args: CallArgs<JsonRoute>): Promise<unknown> {
    const token = args.token ?? config.token();
    const headers: Record<string, string> = { ...args.headers, accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (args.body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await fetch(`${base}${url}`, {
        method: endpoint.method,
        headers,
        body: args.body === undefined ? undefined : JSON.stringify(args.body),
        signal: args.signal,
      });
    } catch (err) {
      if ((err as Error).name === "AbortError") throw err;
      const error = new ApiError(0, null);
      if (!args.silent) config.onError(error);
      throw error;
    }
    const text = await res.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (res.ok) return data;
    const body = isErrorBody(data) ? data : null;
    const error = new ApiError(res.status, body);
    // 1010 or 401: the session is over; the route guard then shows /login (spec §4, §8).
    const sessionEnded = res.status === 401 || body?.error_code === ErrorCode.sessionExpired;
    if (sessionEnded && endpoint.name !== "login" && args.token === undefined) {
      config.onSessionEnd(error);
      throw error;
    }
    if (!args.silent) config.onError(error);
    throw error;
  }

  function call<R extends JsonRoute>(endpoint: R, ...[args]: ArgList<CallArgs<R>>): Promise<ResponseOf<SpecOf<R>>> {
    type Answer = Promise<ResponseOf<SpecOf<R>>>;
    const a = (args ?? {}) as CallArgs<JsonRoute>;
    const url = endpointUrl(endpoint, a as { params?: Record<string, unknown>; query?: Record<string, unknown> });
    if (endpoint.method !== "GET" || a.signal) return send(endpoint, url, a) as Answer;
    const key = `${a.token ?? config.token() ?? ""} ${url}`;
    const existing = inflight.get(key);
    if (existing) return existing as Answer;
    const promise = send(endpoint, url, a).finally(() => inflight.delete(key));
    inflight.set(key, promise);
    return promise as Answer;
  }

  /**
   * A URL for <img>, <video> and downloads, which cannot send a header: the token travels in
   * the query, as decision 9 allows for static files and downloads only.
   */
  function authedUrl<R extends DownloadRoute>(endpoint: R, ...[args]: ArgList<UrlArgs<R>>): string {
    const a = (args ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown> };
    return `${base}${endpointUrl(endpoint, { params: a.params, query: { ...a.query, token: config.token() ?? "" } })}`;
  }

  /**
   * A download link the server handed out (a quiz result's certificate) with the token added;
   * anything that is not a download of the table gets no token.
   */
  function authedHref(href: string): string {
    const found = matchDownload(href);
    if (!found) return href;
    const { token: _ignored, ...query } = found.query;
    return `${base}${endpointUrl(found.endpoint, { params: found.params, query: { ...query, token: config.token() ?? "" } })}`;
  }

  return { call, authedUrl, authedHref };
}
