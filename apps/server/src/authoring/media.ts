import { Readable } from "node:stream";
import {
  type AuthoringMediaResult,
  ErrorCode,
  QUESTION_MEDIA_TYPES,
  type QuestionMediaType,
  UPLOAD_MAX_BYTES,
  uploadProblem,
} from "@carecampus/contract";
import { type Actor, assertMay, decide } from "../access/policy";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { storeUpload } from "../storage/media";
import type { UploadQuota } from "../storage/quota";
import { peekBody } from "../storage/upload";

/** What the bytes are, whatever the request says (a declared type is only believed when the bytes agree). */
export function sniffMedia(body: Buffer): QuestionMediaType | undefined {
  if (body.length >= 8 && body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "image/png";
  if (body.length >= 3 && body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return "image/jpeg";
  if (body.length >= 12 && body.toString("latin1", 0, 4) === "RIFF" && body.toString("latin1", 8, 12) === "WEBP")
    return "image/webp";
  if (body.length >= 12 && body.toString("latin1", 4, 8) === "ftyp") return "video/mp4";
  return undefined;
}

/** Enough of a file's start to tell its type (sniffMedia). */
const SNIFF_BYTES = 12;

/**
 * Stores an uploaded image or mp4 for a question's explanation: an administrator's is their
 * facility's (served only there), a Super-Admin's everyone's. Served by /api/static/image|video/{id}.
 * The body streams into storage; its type, told by its first bytes, sets its size limit, and the
 * installation's media quota may leave less (`quota`). An image is stored as its image data only.
 */
export async function storeQuestionMedia(
  db: Db,
  actor: Actor,
  declared: string,
  body: unknown,
  quota: UploadQuota,
): Promise<AuthoringMediaResult> {
  assertMay(actor, "authoring.upload");
  const facilityId = decide(actor, "authoring.editCommon") === "allow" ? null : actor.facilityId;
  if (!(body instanceof Readable))
    throw new AppError(ErrorCode.validation, "Send the image or video as the request body");
  const { head, bytes } = await peekBody(body, (h) => h.length >= SNIFF_BYTES, SNIFF_BYTES);
  if (head.length === 0) throw new AppError(ErrorCode.validation, "Send the image or video as the request body");
  const mime = sniffMedia(head);
  if (!mime || (declared !== mime && declared !== "application/octet-stream")) {
    throw new AppError(ErrorCode.validation, "Only PNG, JPEG or WebP images and mp4 videos are accepted", 415);
  }
  const tooLarge = () => new AppError(ErrorCode.payloadTooLarge, "The file is too large", 413);
  const problem = uploadProblem(mime, head.length);
  if (problem === "size") throw tooLarge();
  if (problem)
    throw new AppError(ErrorCode.validation, "Only PNG, JPEG or WebP images and mp4 videos are accepted", 415);
  return storeChecked(db, facilityId, mime, bytes, quota, tooLarge);
}

/** Stores media whose type was told by its bytes, as the actor's (an upload's owner rule). */
async function storeChecked(
  db: Db,
  facilityId: number | null,
  mime: QuestionMediaType,
  bytes: AsyncIterable<Uint8Array>,
  quota: UploadQuota,
  tooLarge: () => AppError,
): Promise<AuthoringMediaResult> {
  const kind = QUESTION_MEDIA_TYPES[mime].kind;
  const id = await storeUpload(
    db,
    bytes,
    { maxBytes: UPLOAD_MAX_BYTES[kind], tooLarge },
    // Named by owner and content: the same file twice is stored once; nothing clashes with package names.
    { kind, mime, facilityId, name: (sha256) => `@${facilityId === null ? "c" : `f${facilityId}`}-${sha256}` },
    quota,
  );
  return { type: kind, id, src: `/api/static/${kind}/${id}` };
}

/**
 * Whether a file may be a question's media, as an upload is checked: its type told by its bytes
 * (PNG, JPEG, WebP, mp4), then its size; the reason as a code the import screen translates.
 */
export function mediaRefusal(
  bytes: Buffer,
): { mime: QuestionMediaType; reason: null } | { mime: null; reason: "image-not-supported" | "image-too-large" } {
  const mime = sniffMedia(bytes);
  const problem = mime ? uploadProblem(mime, bytes.length) : "type";
  if (problem === "size") return { mime: null, reason: "image-too-large" };
  if (!mime || problem) return { mime: null, reason: "image-not-supported" };
  return { mime, reason: null };
}

/**
 * Stores a file a question bank embedded (already checked by mediaRefusal), with the same owner,
 * limits and quota as an upload of the same actor.
 */
export async function storeEmbeddedMedia(
  db: Db,
  actor: Actor,
  mime: QuestionMediaType,
  bytes: Buffer,
  quotaBytes: number | null,
): Promise<AuthoringMediaResult> {
  assertMay(actor, "authoring.upload");
  const facilityId = decide(actor, "authoring.editCommon") === "allow" ? null : actor.facilityId;
  const tooLarge = () => new AppError(ErrorCode.payloadTooLarge, "An embedded file is too large", 413);
  return storeChecked(
    db,
    facilityId,
    mime,
    Readable.from([bytes]),
    { quotaBytes, declaredLength: bytes.length },
    tooLarge,
  );
}
