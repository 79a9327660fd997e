import { apiTable } from "./api-table";
import type { EndpointName, Endpoints, HttpMethod } from "./endpoints";

/*
 * The endpoint table without its zod schemas, for the web client: each call's name, method, path
 * and kind at run time, and the types of its params, query, body and answer from the full table
 * (endpoints.ts) by `import type`. The login loads this and no zod (issue 13).
 *
 * api-table.ts is generated from endpoints.ts (`npm run gen:api`); the compiler and api.test.ts
 * refuse a table that differs from endpoints.ts in any name, method, path or kind.
 */

/** Every path of the table lies under this prefix. */
export const API_PREFIX = "/api";

/** What the light table says of a call: enough to send it; its types come from the full table. */
export interface ApiRoute {
  readonly name: EndpointName;
  readonly method: HttpMethod;
  /** Fastify style, under API_PREFIX: `/auth/admin/users/:id`. */
  readonly path: string;
  readonly kind: "json" | "download" | "redirect";
}
export type JsonRoute = ApiRoute & { readonly kind: "json" };
export type DownloadRoute = ApiRoute & { readonly kind: "download" };

/** The full table's entry of a call of the light table (or of the full table itself). */
export type SpecOf<R extends { readonly name: EndpointName }> = Endpoints[R["name"]];

/** The shape the generated table must have: exactly the full table's names, methods, paths and kinds. */
export type ApiTable = {
  readonly [K in EndpointName]: {
    readonly method: Endpoints[K]["method"];
    readonly path: Endpoints[K]["path"];
  } & (Endpoints[K]["kind"] extends "download"
    ? { readonly kind: "download" }
    : Endpoints[K]["kind"] extends "redirect"
      ? { readonly kind: "redirect" }
      : { readonly kind?: never });
};

type Named<K extends EndpointName> = {
  readonly name: K;
  readonly method: Endpoints[K]["method"];
  readonly path: Endpoints[K]["path"];
  readonly kind: Endpoints[K]["kind"];
};

/** `call(api.login, { body })`: every call of the API by name, without schemas. */
export const api = Object.fromEntries(
  Object.entries(apiTable).map(([name, route]) => [name, { name, kind: "json", ...route }]),
) as { readonly [K in EndpointName]: Named<K> };

/* ---------- URLs ---------- */

/** `:name` segments filled from `params`, each value encoded. */
export function fillPath(path: string, params?: Readonly<Record<string, unknown>>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === "") throw new Error(`path parameter ${name} missing`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x` of the defined values (encodeURIComponent, so a space is %20), or "". */
export function queryString(query?: Readonly<Record<string, unknown>>): string {
  if (!query) return "";
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/** The URL of a call with API_PREFIX: `/api/auth/admin/users/7?x=1`. */
export function endpointUrl(
  endpoint: { readonly path: string },
  args: { params?: Readonly<Record<string, unknown>>; query?: Readonly<Record<string, unknown>> } = {},
): string {
  return `${API_PREFIX}${fillPath(endpoint.path, args.params)}${queryString(args.query)}`;
}

/**
 * A download URL the server handed out (e.g. a quiz result's certificate link) read back into
 * its table entry, params and query; null for anything that is not a download of the table.
 */
export function matchDownload(
  href: string,
): { endpoint: DownloadRoute; params: Record<string, string>; query: Record<string, string> } | null {
  if (!href.startsWith(`${API_PREFIX}/`)) return null;
  const [pathname = "", search = ""] = href.slice(API_PREFIX.length).split("?", 2);
  for (const endpoint of Object.values(api as Record<string, ApiRoute>)) {
    if (endpoint.kind !== "download") continue;
    const names: string[] = [];
    const pattern = endpoint.path
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, n) => {
        names.push(n);
        return "([^/]+)";
      });
    const match = new RegExp(`^${pattern}$`).exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(match[i + 1] ?? "");
    });
    const query: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(search)) query[k] = v;
    return { endpoint: endpoint as DownloadRoute, params, query };
  }
  return null;
}
