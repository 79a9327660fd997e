import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

/** Files whose newest chunk is younger than this may belong to an upload still arriving. */
export const UNUSED_CHUNKS_GRACE_MS = 60 * 60 * 1000;

/**
 * Deletes the chunks of uploads that no media row took up: a server that stopped in the middle
 * of one leaves them (a failed upload deletes its own). Whole files only, by their newest chunk:
 * an upload over a slow link for more than the grace period has old first chunks while it still
 * arrives, and loses none of them. Returns how many files went.
 */
export async function deleteUnusedChunks(db: Db, now: Date): Promise<{ files: number }> {
  const cutoff = new Date(now.getTime() - UNUSED_CHUNKS_GRACE_MS).toISOString();
  const gone = await db.execute<{ key: string }>(sql`
    delete from "media_chunks" where "key" in (
      select c."key" from "media_chunks" c
      where not exists (select 1 from "media" m where m."storage_key" = c."key")
      group by c."key"
      having max(c."created_at") < ${cutoff}::timestamptz)
    returning "key"`);
  return { files: new Set(gone.rows.map((g) => g.key)).size };
}
