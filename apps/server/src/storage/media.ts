import { ErrorCode } from "@carecampus/contract";
import type { Db } from "../db/client";
import { media } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { imageData, isStrippedImage } from "./image-data";
import { quotaLimit, type UploadQuota } from "./quota";
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
 * `limit` is the file type's (413); the installation's media quota may leave less (1109,
 * storage/quota.ts). An image is stored as its image data only (storage/image-data.ts): the size
 * and hash of the row are those of the bytes stored. Rows are named by owner and content: the
 * same file again gives the first upload's id, and the bytes that came a second time are deleted.
 * A failure leaves nothing behind (a refused or aborted upload deletes its bytes; so does a
 * failed row).
 */
export async function storeUpload(
  db: Db,
  bytes: AsyncIterable<Uint8Array>,
  limit: SizeLimit,
  row: UploadedMedia,
  quota: UploadQuota,
): Promise<number> {
  const store = mediaStore(db);
  const stored = await quotaLimit(db, limit, quota);
  // The type's limit holds for all that is sent, the bytes dropped from an image too.
  const source = isStrippedImage(row.mime) ? imageData(row.mime, bytes, limit) : bytes;
  const file = await store.put(source, stored);
  try {
    const written = await runTransaction(db, async (tx) => {
      const [inserted] = await tx
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
      if (!inserted) throw new AppError(ErrorCode.unexpected, "The file was not stored");
      return inserted;
    });
    if (written.storageKey !== file.key) await store.delete(file.key);
    return written.id;
  } catch (err) {
    await store.delete(file.key).catch(() => {});
    throw err;
  }
}
