import { ErrorCode } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { media } from "../db/schema";
import { AppError } from "../errors";

/** Served media is content, never a page: no script, no plugins, no framing. */
export const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src 'self'; sandbox";

export type MediaKind = "image" | "video" | "icon" | "admin-tutorial" | "employee-tutorial" | "wiki";

export interface MediaMeta {
  id: number;
  mime: string;
  size: number;
  sha256: string;
  /** Where storage keeps its bytes (storage/store.ts). */
  storageKey: string;
  /** A facility's wiki image: only for that facility (null: everyone's). */
  facilityId: number | null;
}

/** A media file of one kind, by id or (icons) by name; 1009 when there is none. */
export async function findMedia(db: Db, kind: MediaKind, where: { id?: number; name?: string }): Promise<MediaMeta> {
  const cond = where.id !== undefined ? eq(media.id, where.id) : eq(media.name, where.name ?? "");
  const [row] = await db
    .select({
      id: media.id,
      mime: media.mime,
      size: media.size,
      sha256: media.sha256,
      storageKey: media.storageKey,
      facilityId: media.facilityId,
    })
    .from(media)
    .where(and(eq(media.kind, kind), cond));
  if (!row) throw new AppError(ErrorCode.imageNotFound, "Image not found");
  return row;
}

/** The bytes to send: all, one satisfiable range (206), or none of a range that cannot be (416). */
export type ByteRange = { start: number; end: number; partial: boolean } | { unsatisfiable: true };

/** One HTTP byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), so an mp4 can seek. */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return { start: 0, end: size - 1, partial: false };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return { unsatisfiable: true };
  let start: number;
  let end = size - 1;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
  } else {
    start = Number(match[1]);
    if (match[2] !== "") end = Math.min(end, Number(match[2]));
  }
  if (start > end || start >= size) return { unsatisfiable: true };
  return { start, end, partial: true };
}
