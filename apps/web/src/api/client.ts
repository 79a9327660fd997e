import { type ErrorBody, ErrorCode, isErrorBody, TOAST_MS } from "@carecampus/contract";
import { notifications } from "@mantine/notifications";
import i18n from "../i18n";
import { sessionStore } from "../session/store";

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

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
  /** Do not show the error toast (the caller shows its own message). */
  silent?: boolean;
}

/**
 * Spec §8 toast text. A code the UI has words for is shown in the user's language first (the server's
 * message is English, for API integrators); then the server's message; then 'Error: {status}'.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const code = error.code;
    if (code !== undefined && i18n.exists(`errors.${code}`)) return i18n.t(`errors.${code}`);
    if (error.body?.message) return error.body.message;
    return i18n.t("errors.status", { status: error.status });
  }
  return i18n.t("errors.network");
}

export function showError(error: unknown): void {
  notifications.show({ color: "red", message: errorText(error), autoClose: TOAST_MS, withBorder: true });
}

export function showSuccess(message: string): void {
  notifications.show({ color: "teal", message, autoClose: TOAST_MS, withBorder: true });
}

// Identical GETs in flight are shared (spec §7).
const inflight = new Map<string, Promise<unknown>>();

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  const token = sessionStore.get().session?.token;
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    const error = new ApiError(0, null);
    if (!options.silent) showError(error);
    throw error;
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (res.ok) return data as T;
  const body = isErrorBody(data) ? data : null;
  const error = new ApiError(res.status, body);
  const isLogin = path.startsWith("/auth/login");
  // 1010 or 401: the session is over; the route guard then shows /login (spec §4, §8).
  if (!isLogin && (res.status === 401 || body?.error_code === ErrorCode.sessionExpired)) {
    sessionStore.clear();
    throw error;
  }
  if (!options.silent) showError(error);
  throw error;
}

export function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? "GET";
  if (method !== "GET" || options.signal) return send<T>(path, options);
  const key = `${sessionStore.get().session?.token ?? ""} ${path}`;
  const existing = inflight.get(key);
  if (existing) return existing as Promise<T>;
  const promise = send<T>(path, options).finally(() => inflight.delete(key));
  inflight.set(key, promise);
  return promise;
}

/**
 * A URL for <img>, <video> and downloads, which cannot send a header: the token travels in
 * the query, as decision 9 allows for static files and downloads only.
 */
export function authedUrl(path: string): string {
  const token = sessionStore.get().session?.token ?? "";
  return `/api${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
}
