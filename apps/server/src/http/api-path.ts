/**
 * The path of a request as the router matches it: the query cut off and percent-escapes decoded,
 * as find-my-way decodes them before it matches (`/%61pi/users/1` reaches `/api/users/:id`). A
 * check on the raw URL would miss such a request.
 */
export function routedPath(url: string): string {
  const raw = url.split("?")[0] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Is this a call of the API (`/api` and below), however its path is escaped? */
export function isApiPath(url: string): boolean {
  const path = routedPath(url);
  return path === "/api" || path.startsWith("/api/");
}
