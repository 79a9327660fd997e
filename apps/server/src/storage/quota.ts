import { ErrorCode } from "@carecampus/contract";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { mediaChunks } from "../db/schema";
import { AppError } from "../errors";
import type { SizeLimit } from "./store";

/** What an upload is measured against besides its type's limit. */
export interface UploadQuota {
  /** MEDIA_QUOTA_MB in bytes; null: no quota. */
  quotaBytes: number | null;
  /** The request's Content-Length, when it declared one. */
  declaredLength: number | undefined;
}

/**
 * The bytes the media store holds for the whole installation: every file's, those of uploads
 * still arriving and of files no row took up yet too. octet_length reads a stored value's length
 * from its header, without reading the value.
 */
export async function storedMediaBytes(db: Db): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | number | null>`sum(octet_length(${mediaChunks.data}))` })
    .from(mediaChunks);
  return Number(row?.bytes ?? 0);
}

const quotaExceeded = (quotaBytes: number) => () =>
  new AppError(
    ErrorCode.mediaQuotaExceeded,
    `The installation's media would pass its quota of ${Math.round(quotaBytes / 1024 / 1024)} MiB (MEDIA_QUOTA_MB)`,
  );

/**
 * The limit of an upload's stored bytes: its type's `limit`, or what remains of the quota when
 * that is less (refused with 1109 past it, while the bytes stream in). An upload whose declared
 * length is more than what remains is refused (1109) before a byte is stored. Uploads arriving at
 * the same moment each see the bytes the others stored so far, so together they may pass the
 * quota by what they store after that.
 */
export async function quotaLimit(db: Db, limit: SizeLimit, quota: UploadQuota): Promise<SizeLimit> {
  if (quota.quotaBytes === null) return limit;
  const remaining = quota.quotaBytes - (await storedMediaBytes(db));
  const tooMuch = quotaExceeded(quota.quotaBytes);
  if (remaining <= 0 || (quota.declaredLength !== undefined && quota.declaredLength > remaining)) throw tooMuch();
  return remaining < limit.maxBytes ? { maxBytes: remaining, tooLarge: tooMuch } : limit;
}
