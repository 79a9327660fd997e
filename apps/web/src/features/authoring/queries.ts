import {
  type AuthoringMediaResult,
  api,
  ErrorCode,
  endpointUrl,
  isErrorBody,
  UPLOAD_MAX_BYTES,
  UPLOAD_MEDIA_TYPES,
} from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { ApiError, call } from "../../api/client";
import { sessionStore } from "../../session/store";

export const authoringKeys = {
  tree: ["authoring", "tree"] as const,
  questionnaire: (id: number) => ["authoring", "questionnaire", id] as const,
};

export const useAuthoringTree = () =>
  useQuery({ queryKey: authoringKeys.tree, queryFn: () => call(api.authoringTree) });

export const useAuthoringQuestionnaire = (id: number) =>
  useQuery({
    queryKey: authoringKeys.questionnaire(id),
    queryFn: () => call(api.authoringQuestionnaireGet, { params: { id } }),
  });

/** What the server would refuse anyway, said before the upload (the contract's limits). */
export function mediaProblem(file: Pick<File, "type" | "size">): "type" | "size" | null {
  if (!(UPLOAD_MEDIA_TYPES as readonly string[]).includes(file.type)) return "type";
  const limit = file.type.startsWith("video/") ? UPLOAD_MAX_BYTES.video : UPLOAD_MAX_BYTES.image;
  return file.size > limit ? "size" : null;
}

/** POST /api/authoring/media with the file as the body (the typed `call` sends JSON only). */
export async function uploadQuestionMedia(file: File): Promise<AuthoringMediaResult> {
  const token = sessionStore.get().session?.token;
  const headers: Record<string, string> = { accept: "application/json", "content-type": file.type };
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(endpointUrl(api.authoringMediaUpload, {}), { method: "POST", headers, body: file });
  } catch {
    throw new ApiError(0, null);
  }
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return data as AuthoringMediaResult;
  const body = isErrorBody(data) ? data : null;
  if (res.status === 401 || body?.error_code === ErrorCode.sessionExpired) sessionStore.clear();
  throw new ApiError(res.status, body);
}
