import crypto from "node:crypto";
import {
  type AuthoringMediaResult,
  ErrorCode,
  QUESTION_MEDIA_TYPES,
  type QuestionMediaType,
  uploadProblem,
} from "@carecampus/contract";
import { type Actor, assertMay, decide } from "../access/policy";
import type { Db } from "../db/client";
import { media } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";

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

/**
 * Stores an uploaded image or mp4 for a question's explanation: an administrator's is their
 * facility's (served only there), a Super-Admin's everyone's. Served by /api/static/image|video/{id}.
 */
export async function storeQuestionMedia(
  db: Db,
  actor: Actor,
  declared: string,
  body: unknown,
): Promise<AuthoringMediaResult> {
  assertMay(actor, "authoring.upload");
  const facilityId = decide(actor, "authoring.editCommon") === "allow" ? null : actor.facilityId;
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new AppError(ErrorCode.validation, "Send the image or video as the request body");
  }
  const mime = sniffMedia(body);
  if (!mime || (declared !== mime && declared !== "application/octet-stream")) {
    throw new AppError(ErrorCode.validation, "Only PNG, JPEG or WebP images and mp4 videos are accepted", 415);
  }
  const problem = uploadProblem(mime, body.length);
  if (problem === "size") throw new AppError(ErrorCode.payloadTooLarge, "The file is too large", 413);
  if (problem)
    throw new AppError(ErrorCode.validation, "Only PNG, JPEG or WebP images and mp4 videos are accepted", 415);
  const kind = QUESTION_MEDIA_TYPES[mime].kind;
  const sha256 = crypto.createHash("sha256").update(body).digest("hex");
  // Named by owner and content: the same file twice is stored once; nothing clashes with package names.
  const name = `@${facilityId === null ? "c" : `f${facilityId}`}-${sha256}`;
  return runTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(media)
      .values({ kind, name, mime, size: body.length, sha256, data: body, facilityId })
      .onConflictDoUpdate({ target: [media.kind, media.name], set: { size: body.length } })
      .returning({ id: media.id });
    if (!row) throw new AppError(ErrorCode.unexpected, "The file was not stored");
    return { type: kind, id: row.id, src: `/api/static/${kind}/${row.id}` };
  });
}
