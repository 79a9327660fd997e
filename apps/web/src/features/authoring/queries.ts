import {
  type AuthoringMediaResult,
  api,
  endpointUrl,
  UPLOAD_MAX_BYTES,
  UPLOAD_MEDIA_TYPES,
} from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../api/client";
import { postFile } from "../../api/file-upload";

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

/** POST /api/authoring/media with the file as the body and its type. */
export function uploadQuestionMedia(file: File): Promise<AuthoringMediaResult> {
  return postFile(endpointUrl(api.authoringMediaUpload, {}), file, file.type);
}
