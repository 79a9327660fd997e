import { and, eq, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { media, mediaChunks } from "../db/schema";

/** Chunks younger than this may belong to an upload still arriving. */
export const UNUSED_CHUNKS_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes the chunks of uploads that no media row took up: a server that stopped in the middle
 * of one leaves them (a failed upload deletes its own). Returns how many files went.
 */
export async function deleteUnusedChunks(db: Db, now: Date): Promise<{ files: number }> {
  const gone = await db
    .delete(mediaChunks)
    .where(
      and(
        lt(mediaChunks.createdAt, new Date(now.getTime() - UNUSED_CHUNKS_GRACE_MS)),
        notExists(db.select({ one: sql`1` }).from(media).where(eq(media.storageKey, mediaChunks.key))),
      ),
    )
    .returning({ key: mediaChunks.key });
  return { files: new Set(gone.map((g) => g.key)).size };
}
