import { ErrorCode, isErrorBody } from "@carecampus/contract";
import { sessionStore } from "../session/store";
import { ApiError } from "./call";

/**
 * POSTs a file as the request's body with its Content-Type (the typed `call` sends JSON only): an
 * image for a question or a wiki page, a translation file. The session's bearer token as
 * everywhere; an ended session goes to /login; a refusal is the ApiError of every other call.
 */
export async function postFile<T>(url: string, body: Blob, type: string): Promise<T> {
  const token = sessionStore.get().session?.token;
  const headers: Record<string, string> = { accept: "application/json", "content-type": type };
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers, body });
  } catch {
    throw new ApiError(0, null);
  }
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return data as T;
  const error = isErrorBody(data) ? data : null;
  if (res.status === 401 || error?.error_code === ErrorCode.sessionExpired) sessionStore.clear();
  throw new ApiError(res.status, error);
}
