import { api, endpointUrl, WIKI_IMAGE_MAX_BYTES, WIKI_IMAGE_TYPES, type WikiImageResult } from "@carecampus/contract";
import { postFile } from "../../api/file-upload";

export type ImageProblem = "type" | "size";

/** What the server would refuse anyway, said before the upload: a raster image of at most 5 MiB. */
export function imageProblem(file: Pick<File, "type" | "size">): ImageProblem | null {
  if (!(WIKI_IMAGE_TYPES as readonly string[]).includes(file.type)) return "type";
  if (file.size > WIKI_IMAGE_MAX_BYTES) return "size";
  return null;
}

/** POST /api/wiki/images with the file itself as the body and its Content-Type. */
export function uploadWikiImage(file: File, facility: number | null): Promise<WikiImageResult> {
  return postFile(endpointUrl(api.wikiImageUpload, { query: { facility: facility ?? undefined } }), file, file.type);
}
