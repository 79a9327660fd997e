import {
  api,
  ErrorCode,
  endpointUrl,
  isErrorBody,
  WIKI_IMAGE_MAX_BYTES,
  WIKI_IMAGE_TYPES,
  type WikiImageResult,
} from "@carecampus/contract";
import { ApiError } from "../../api/client";
import { sessionStore } from "../../session/store";

export type ImageProblem = "type" | "size";

/** What the server would refuse anyway, said before the upload: a raster image of at most 5 MiB. */
export function imageProblem(file: Pick<File, "type" | "size">): ImageProblem | null {
  if (!(WIKI_IMAGE_TYPES as readonly string[]).includes(file.type)) return "type";
  if (file.size > WIKI_IMAGE_MAX_BYTES) return "size";
  return null;
}

/**
 * POST /api/wiki/images with the file itself as the body and its Content-Type (the typed `call`
 * sends JSON only). The session's bearer token as everywhere; an ended session goes to /login.
 */
export async function uploadWikiImage(file: File, facility: number | null): Promise<WikiImageResult> {
  const token = sessionStore.get().session?.token;
  const headers: Record<string, string> = { accept: "application/json", "content-type": file.type };
  if (token) headers.authorization = `Bearer ${token}`;
  const url = endpointUrl(api.wikiImageUpload, { query: { facility: facility ?? undefined } });
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers, body: file });
  } catch {
    throw new ApiError(0, null);
  }
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return data as WikiImageResult;
  const body = isErrorBody(data) ? data : null;
  const error = new ApiError(res.status, body);
  if (res.status === 401 || body?.error_code === ErrorCode.sessionExpired) sessionStore.clear();
  throw error;
}
