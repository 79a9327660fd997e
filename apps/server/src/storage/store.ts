import type { Readable } from "node:stream";
import { type Db, isTransaction, type Tx } from "../db/client";
import { databaseStore } from "./database";

/** A file as stored: the store's key for it, its length, and its SHA-256 (hex), taken as it streamed in. */
export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
}

/** The most bytes a put takes, and the error when its source has more (an upload's 413). */
export interface SizeLimit {
  maxBytes: number;
  tooLarge(): Error;
}

/** Bytes `start` to `end` of a stored file, both included. */
export interface ByteSpan {
  start: number;
  end: number;
}

/**
 * Where the bytes of media files live (ARCHITECTURE §3 storage/). A media row holds a file's
 * metadata and the key this store gave its bytes; nothing else writes or reads them. The
 * database implements it now (storage/database.ts); a directory or an object store could
 * implement the same three calls, keys being opaque strings the store makes.
 */
export interface MediaStore {
  /**
   * Stores the bytes of `source` as they come, holding no more than a chunk of them, and refuses
   * past `limit` with its error. Whatever fails (the limit, an aborted request, the store) deletes
   * what was written before the error is thrown, unless the store was opened on a transaction
   * (then the transaction's rollback does). The file is anybody's to lose until a media row names
   * its key: bytes no row took up are deleted later (storage/cleanup.ts).
   */
  put(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit?: SizeLimit): Promise<StoredFile>;
  /** The bytes of `span` as a stream of chunks, each read when the consumer asks for it. */
  open(key: string, span: ByteSpan): Readable;
  /** Deletes a stored file; an unknown key is no error. */
  delete(key: string): Promise<void>;
}

/**
 * The media store on `db`. On a transaction's handle its writes are the transaction's: a content
 * import stores its files all or nothing. An upload stores on the database itself, one statement a
 * chunk: a transaction open for as long as a video takes to arrive would hold PGlite's only
 * session (every other request waits) or one of PostgreSQL's pooled connections.
 */
export function mediaStore(db: Db | Tx): MediaStore {
  return databaseStore(db, isTransaction(db));
}
