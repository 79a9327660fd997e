import { ErrorCode } from "@carecampus/contract";
import { AppError } from "../errors";
import type { SizeLimit } from "./store";

/*
 * An uploaded image is stored as its image data only (issue 27): whatever follows the format's
 * end (an HTML page, a ZIP archive: a polyglot file) is read and dropped, and so are the parts
 * that carry text beside the picture (PNG text chunks and unknown ancillary chunks, GIF comments,
 * JPEG comments). The bytes are walked as they stream in, by the format's own structure (chunk
 * and segment lengths), never by searching for an end marker: an EXIF thumbnail inside a JPEG
 * ends with the same FFD9 as the picture. No more than a chunk of the upload is held at a time.
 * An image that ends before its format's end is refused (400). Nothing is decoded: the pixels
 * stay as they came, so a clean image is stored byte for byte.
 */

export type StrippedImageType = "image/png" | "image/gif" | "image/jpeg" | "image/webp";

const incomplete = (what: string) => new AppError(ErrorCode.validation, `The ${what} ends before its end`);
const malformed = (what: string) => new AppError(ErrorCode.validation, `The ${what} is malformed`);

const EMPTY = Buffer.alloc(0);

/** The upload as the parsers ask for it: a few bytes to look at, or a span to pass on or drop. */
class ByteReader {
  private pending: Buffer = EMPTY;
  private ended = false;

  constructor(
    private readonly input: AsyncIterator<Uint8Array>,
    private readonly counted: (n: number) => void,
  ) {}

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.input.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.counted(next.value.length);
    const piece = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length);
    this.pending = this.pending.length === 0 ? piece : Buffer.concat([this.pending, piece]);
    return true;
  }

  /** The next `n` bytes (still unread), or undefined when the upload ends first. */
  async peek(n: number): Promise<Buffer | undefined> {
    while (this.pending.length < n) if (!(await this.more())) return undefined;
    return this.pending.subarray(0, n);
  }

  /** The bytes read but not yet taken, at least one unless the upload has ended. */
  async buffered(): Promise<Buffer> {
    if (this.pending.length === 0) await this.more();
    return this.pending;
  }

  /** Takes `n` bytes already looked at. */
  take(n: number): Buffer {
    const taken = this.pending.subarray(0, n);
    this.pending = this.pending.subarray(n);
    return taken;
  }

  /** The next `n` bytes, as they arrive; `what` is refused as incomplete when the upload ends first. */
  async *span(n: number, what: string): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.pending.length === 0 && !(await this.more())) throw incomplete(what);
      const piece = this.take(Math.min(left, this.pending.length));
      left -= piece.length;
      yield piece;
    }
  }

  /** Reads the rest of the upload and drops it. */
  async drain(): Promise<void> {
    this.pending = EMPTY;
    while (await this.more()) this.pending = EMPTY;
  }
}

type Parser = (reader: ByteReader) => AsyncGenerator<Buffer>;

async function need(reader: ByteReader, n: number, what: string): Promise<Buffer> {
  const bytes = await reader.peek(n);
  if (!bytes) throw incomplete(what);
  return bytes;
}

async function drop(parts: AsyncIterable<Buffer>): Promise<void> {
  for await (const _ of parts) {
    // Read and not kept.
  }
}

/**
 * The ancillary PNG chunks kept: those that change how the picture looks (colour, transparency,
 * pixel size, orientation) and APNG's animation. Text (tEXt, zTXt, iTXt), time stamps and
 * chunks of no registered meaning go; critical chunks (IHDR, PLTE, IDAT, IEND) always stay, and a
 * critical chunk of another type is refused.
 */
/** The critical PNG chunks of the standard; any other critical type is refused. */
const PNG_CRITICAL = new Set(["IHDR", "PLTE", "IDAT", "IEND"]);

const PNG_KEPT = new Set([
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "iCCP",
  "sBIT",
  "bKGD",
  "pHYs",
  "hIST",
  "sPLT",
  "eXIf",
  "cICP",
  "mDCv",
  "cLLi",
  "acTL",
  "fcTL",
  "fdAT",
]);

const png: Parser = async function* (reader) {
  const signature = await need(reader, 8, "PNG");
  yield reader.take(signature.length);
  for (let first = true; ; first = false) {
    const head = await need(reader, 8, "PNG");
    const length = head.readUInt32BE(0);
    const type = head.toString("latin1", 4, 8);
    if (length > 0x7fffffff || !/^[A-Za-z]{4}$/.test(type) || (first && type !== "IHDR")) throw malformed("PNG");
    // Bit 5 of the type's first letter: 0 (upper case) for a critical chunk. A decoder refuses a
    // critical chunk it does not know, so one here is no picture (and could carry a page or an
    // archive through): refused, as an ancillary one of no registered meaning is dropped.
    const critical = (head[4] as number) < 0x61;
    if (critical && !PNG_CRITICAL.has(type)) throw malformed("PNG");
    const kept = critical || PNG_KEPT.has(type);
    const header = reader.take(8);
    // The chunk's data and CRC.
    const chunk = reader.span(length + 4, "PNG");
    if (kept) {
      yield header;
      yield* chunk;
    } else {
      await drop(chunk);
    }
    if (type === "IEND") return;
  }
};

/** A GIF's data sub-blocks, each a length byte and that many bytes, up to an empty one. */
async function* gifSubBlocks(reader: ByteReader): AsyncGenerator<Buffer> {
  for (;;) {
    const size = (await need(reader, 1, "GIF"))[0] as number;
    yield reader.take(1);
    if (size === 0) return;
    yield* reader.span(size, "GIF");
  }
}

const colourTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

const gif: Parser = async function* (reader) {
  // Header and logical screen descriptor, then the global colour table.
  const head = await need(reader, 13, "GIF");
  yield reader.take(13);
  yield* reader.span(colourTable(head[10] as number), "GIF");
  for (;;) {
    const introducer = (await need(reader, 1, "GIF"))[0];
    if (introducer === 0x3b) {
      yield reader.take(1);
      return;
    }
    if (introducer === 0x21) {
      const label = (await need(reader, 2, "GIF"))[1];
      if (label === 0xfe) {
        // A comment extension: text beside the picture.
        reader.take(2);
        await drop(gifSubBlocks(reader));
      } else {
        yield reader.take(2);
        yield* gifSubBlocks(reader);
      }
    } else if (introducer === 0x2c) {
      // Image descriptor, local colour table, LZW minimum code size, image data.
      const descriptor = await need(reader, 10, "GIF");
      yield reader.take(10);
      yield* reader.span(colourTable(descriptor[9] as number), "GIF");
      await need(reader, 1, "GIF");
      yield reader.take(1);
      yield* gifSubBlocks(reader);
    } else {
      throw malformed("GIF");
    }
  }
};

/**
 * A JPEG's entropy-coded data after a start of scan: everything up to the next marker, an FF
 * followed by neither 00 (a stuffed FF) nor a restart marker (D0-D7), which stay in the data.
 */
async function* jpegScan(reader: ByteReader): AsyncGenerator<Buffer> {
  for (;;) {
    const bytes = await reader.buffered();
    if (bytes.length === 0) throw incomplete("JPEG");
    let i = 0;
    for (; i < bytes.length - 1; i++) {
      if (bytes[i] !== 0xff) continue;
      const next = bytes[i + 1] as number;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        i++;
        continue;
      }
      if (i > 0) yield reader.take(i);
      return;
    }
    // The last byte may be the FF of a marker whose second byte is still to come.
    if (i > 0) yield reader.take(i);
    await need(reader, 2, "JPEG");
  }
}

const jpeg: Parser = async function* (reader) {
  const soi = await need(reader, 2, "JPEG");
  if (soi[0] !== 0xff || soi[1] !== 0xd8) throw malformed("JPEG");
  yield reader.take(2);
  for (;;) {
    const marker = await need(reader, 2, "JPEG");
    if (marker[0] !== 0xff) throw malformed("JPEG");
    const code = marker[1] as number;
    if (code === 0xff) {
      // A fill byte before a marker (kept: a clean file stays as it was).
      yield reader.take(1);
      continue;
    }
    if (code === 0xd9) {
      yield reader.take(2);
      return;
    }
    if ((code >= 0xd0 && code <= 0xd7) || code === 0x01) {
      yield reader.take(2);
      continue;
    }
    if (code === 0xd8 || code === 0x00) throw malformed("JPEG");
    const segment = await need(reader, 4, "JPEG");
    const length = segment.readUInt16BE(2);
    if (length < 2) throw malformed("JPEG");
    const header = reader.take(4);
    const body = reader.span(length - 2, "JPEG");
    if (code === 0xfe) {
      // A comment segment: text beside the picture.
      await drop(body);
      continue;
    }
    yield header;
    yield* body;
    if (code === 0xda) yield* jpegScan(reader);
  }
};

const webp: Parser = async function* (reader) {
  // A RIFF file: "RIFF", the length of what follows, "WEBP" and its chunks; nothing after it belongs to it.
  const head = await need(reader, 12, "WebP");
  const length = head.readUInt32LE(4);
  if (head.toString("latin1", 0, 4) !== "RIFF" || head.toString("latin1", 8, 12) !== "WEBP" || length < 4) {
    throw malformed("WebP");
  }
  yield reader.take(12);
  yield* reader.span(length - 4, "WebP");
};

const PARSERS: Record<StrippedImageType, Parser> = {
  "image/png": png,
  "image/gif": gif,
  "image/jpeg": jpeg,
  "image/webp": webp,
};

export const isStrippedImage = (mime: string): mime is StrippedImageType => Object.hasOwn(PARSERS, mime);

/** What is passed on at once: the parsers hand out small pieces (a GIF's sub-blocks are at most 255 bytes). */
const BATCH_BYTES = 64 * 1024;

/**
 * The image data of the upload `source` of type `mime`, as it streams in. The whole upload, the
 * dropped bytes too, counts against `limit`: a picture with 100 MiB appended is refused (413),
 * not read to its end. When this stops early (a refusal, an aborted store), `source` is ended
 * (peekBody then reads and drops the rest of the request).
 */
export async function* imageData(
  mime: StrippedImageType,
  source: AsyncIterable<Uint8Array>,
  limit: SizeLimit,
): AsyncGenerator<Buffer> {
  const input = source[Symbol.asyncIterator]();
  let read = 0;
  const reader = new ByteReader(input, (n) => {
    read += n;
    if (read > limit.maxBytes) throw limit.tooLarge();
  });
  let batch: Buffer[] = [];
  let batched = 0;
  try {
    for await (const piece of PARSERS[mime](reader)) {
      if (piece.length === 0) continue;
      batch.push(piece);
      batched += piece.length;
      if (batched >= BATCH_BYTES) {
        yield Buffer.concat(batch, batched);
        batch = [];
        batched = 0;
      }
    }
    await reader.drain();
    if (batched > 0) yield Buffer.concat(batch, batched);
  } finally {
    await input.return?.();
  }
}
