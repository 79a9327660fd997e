import crypto from "node:crypto";
import { Readable } from "node:stream";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { mediaChunks } from "../db/schema";
import type { ByteSpan, MediaStore } from "./store";

/**
 * The bytes of a media_chunks row; every chunk but a file's last is this long, so a byte's chunk
 * is its offset divided by it. Migration 0017 cut the files it moved the same way: changing it
 * needs a migration that cuts them anew.
 */
export const STORAGE_CHUNK_BYTES = 256 * 1024;

const asBuffer = (bytes: Buffer | Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));

/** The media store of migration 0017: a file's bytes are media_chunks rows under one key. */
export function databaseStore(db: Db | Tx, inTransaction: boolean): MediaStore {
  const remove = async (key: string) => {
    await db.delete(mediaChunks).where(eq(mediaChunks.key, key));
  };

  async function* chunks(key: string, { start, end }: ByteSpan): AsyncGenerator<Buffer> {
    for (let seq = Math.floor(start / STORAGE_CHUNK_BYTES); seq * STORAGE_CHUNK_BYTES <= end; seq++) {
      const from = Math.max(start - seq * STORAGE_CHUNK_BYTES, 0);
      const length = Math.min(end - seq * STORAGE_CHUNK_BYTES, STORAGE_CHUNK_BYTES - 1) - from + 1;
      // Only the bytes asked for leave the database: a range's first and last chunk are cut there.
      const [row] = await db
        .select({ data: sql<Buffer>`substring(${mediaChunks.data} from ${from + 1}::int for ${length}::int)` })
        .from(mediaChunks)
        .where(and(eq(mediaChunks.key, key), eq(mediaChunks.seq, seq)));
      const data = row ? asBuffer(row.data) : undefined;
      // A file replaced or deleted while it is read ends the response early rather than wrongly.
      if (data?.length !== length) throw new Error(`Stored file ${key} has no bytes ${from} to ${from + length - 1}`);
      yield data;
    }
  }

  return {
    async put(source, limit) {
      const key = crypto.randomUUID();
      const hash = crypto.createHash("sha256");
      // One buffer, filled and written again and again: a statement has sent it when it returns.
      const chunk = Buffer.allocUnsafe(STORAGE_CHUNK_BYTES);
      let filled = 0;
      let seq = 0;
      let size = 0;
      const flush = async () => {
        await db.insert(mediaChunks).values({ key, seq, data: chunk.subarray(0, filled) });
        seq++;
        filled = 0;
      };
      try {
        for await (const piece of source) {
          size += piece.length;
          if (limit && size > limit.maxBytes) throw limit.tooLarge();
          hash.update(piece);
          for (let at = 0; at < piece.length; ) {
            const n = Math.min(piece.length - at, STORAGE_CHUNK_BYTES - filled);
            chunk.set(piece.subarray(at, at + n), filled);
            filled += n;
            at += n;
            if (filled === STORAGE_CHUNK_BYTES) await flush();
          }
        }
        if (filled > 0) await flush();
      } catch (err) {
        if (!inTransaction) await remove(key).catch(() => {});
        throw err;
      }
      return { key, size, sha256: hash.digest("hex") };
    },
    open(key, span) {
      return Readable.from(span.end < span.start ? [] : chunks(key, span), { objectMode: false });
    },
    delete: remove,
  };
}
