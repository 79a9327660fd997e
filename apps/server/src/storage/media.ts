import { ErrorCode } from "@carecampus/contract";
import type { Db } from "../db/client";
import { media } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { mediaStore, type SizeLimit } from "./store";

/** What the media row of an upload says besides its bytes; its name is made from the bytes' hash. */
export interface UploadedMedia {
  kind: string;
  mime: string;
  /** The facility the file is served in (null: everyone). */
  facilityId: number | null;
  name(sha256: string): string;
}

/**
 * Stores an upload's bytes as they arrive, then its media row in a short transaction of its own.
 * Rows are named by owner and content: the same file again gives the first upload's id, and the
 * bytes that came a second time are deleted. A failure leaves nothing behind (a refused or
 * aborted upload deletes its bytes; so does a failed row).
 */
export async function storeUpload(
  db: Db,
  bytes: AsyncIterable<Uint8Array>,
  limit: SizeLimit,
  row: UploadedMedia,
): Promise<number> {
  const store = mediaStore(db);
  const file = await store.put(bytes, limit);
  try {
    const stored = await runTransaction(db, async (tx) => {
      const [written] = await tx
        .insert(media)
        .values({
          kind: row.kind,
          name: row.name(file.sha256),
          mime: row.mime,
          size: file.size,
          sha256: file.sha256,
          storageKey: file.key,
          facilityId: row.facilityId,
        })
        .onConflictDoUpdate({ target: [media.kind, media.name], set: { size: file.size } })
        .returning({ id: media.id, storageKey: media.storageKey });
      if (!written) throw new AppError(ErrorCode.unexpected, "The file was not stored");
      return written;
    });
    if (stored.storageKey !== file.key) await store.delete(file.key);
    return stored.id;
  } catch (err) {
    await store.delete(file.key).catch(() => {});
    throw err;
  }
}
