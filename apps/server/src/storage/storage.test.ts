import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { ErrorCode, UPLOAD_MAX_BYTES } from "@carecampus/contract";
import { and, count, eq, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFacility, createTestApp, createUser, login, PNG_1X1, type TestContext } from "../../test/helpers";
import { media, mediaChunks } from "../db/schema";
import { deleteUnusedChunks, UNUSED_CHUNKS_GRACE_MS } from "./cleanup";
import { STORAGE_CHUNK_BYTES } from "./database";
import { mediaStore } from "./store";

/** The largest file a route takes: a question's mp4 video, 50 MiB. */
const SIZE = UPLOAD_MAX_BYTES.video;
/**
 * What a 50 MiB transfer may add to the memory the process holds (heap and buffers, after a full
 * collection), a fifth of the file: holding it whole once would pass it. Measured on PGlite:
 * about 1.5 MiB either way; with the upload buffering the body before storing it 69 MiB, with
 * the download buffering the file before sending it 51 MiB. The resident set is only reported:
 * garbage and PGlite's WebAssembly memory move it by tens of MiB either way.
 */
const MAX_GROWTH = 10 * 1024 * 1024;
const PIECE = 64 * 1024;
/** 50 MiB each way take seconds, more on a busy machine. */
const SLOW = 120_000;
const MP4_HEAD = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);

/** The bytes repeated through the test video: a prime length, so no two chunks of it are alike. */
const PATTERN = Buffer.from(Array.from({ length: 65_521 }, (_, i) => (i * 31 + (i >>> 8)) & 0xff));

/** Bytes `start` (included) to `end` (excluded) of the test video: an mp4's first bytes, then the pattern. */
function videoBytes(start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  for (let at = start; at < end; ) {
    const from = at % PATTERN.length;
    const n = Math.min(PATTERN.length - from, end - at);
    PATTERN.copy(out, at - start, from, from + n);
    at += n;
  }
  if (start < MP4_HEAD.length) MP4_HEAD.copy(out, 0, start, Math.min(MP4_HEAD.length, end));
  return out;
}

/** The test video as it is sent: 64 KiB at a time, never all of it at once. */
async function* videoPieces(size = SIZE): AsyncGenerator<Buffer> {
  for (let at = 0; at < size; at += PIECE) yield videoBytes(at, Math.min(at + PIECE, size));
}

// What is live: after a full collection, and a second one, which first finishes sweeping the
// buffers the first found dead (until then they still count among process.memoryUsage's).
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const collect = () => {
  gc();
  gc();
};

/**
 * Watches the process's memory during a transfer: `sample()` (called by the test every 8 MiB
 * sent or received) takes what is live after a full collection, the heap and the buffers; the
 * resident set, garbage included, is read every 10 ms and only reported.
 */
function watchMemory() {
  collect();
  const base = process.memoryUsage();
  let rss = 0;
  let live = 0;
  const timer = setInterval(() => {
    rss = Math.max(rss, process.memoryUsage.rss() - base.rss);
  }, 10);
  const growth = () => {
    const now = process.memoryUsage();
    return now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers;
  };
  const sample = () => {
    // After one collection the count is what is live plus, at most, buffers found dead but not
    // yet swept: under the limit that already shows the transfer within it. Only a count at the
    // limit or over needs the second collection (a tenth of a second each) for the exact one.
    gc();
    let grown = growth();
    if (grown >= MAX_GROWTH) {
      gc();
      grown = growth();
    }
    live = Math.max(live, grown);
  };
  return {
    sample,
    stop() {
      clearInterval(timer);
      return { rss, live };
    },
  };
}

/** Calls `sample` every 8 MiB that pass. */
function every8MiB(sample: () => void) {
  let passed = 0;
  return (bytes: number) => {
    if (Math.floor((passed + bytes) / (8 * 1024 * 1024)) > Math.floor(passed / (8 * 1024 * 1024))) sample();
    passed += bytes;
  };
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

let ctx: TestContext;
let base: string;
let token: string;

beforeAll(async () => {
  // On disk: an in-memory PGlite would hold the stored video in this process's memory.
  ctx = await createTestApp({ pgliteOnDisk: true });
  const facility = await createFacility(ctx);
  const user = await createUser(ctx, ["administrator"], facility.id);
  token = await login(ctx, user.login);
  // Real HTTP: inject would hold the whole body and the whole answer.
  await ctx.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api`;
});
afterAll(() => ctx.close());

const chunkRows = async () => (await ctx.deps.database.db.select({ n: count() }).from(mediaChunks))[0]?.n ?? Number.NaN;

/**
 * POSTs `body` as it is made, waiting whenever the socket is full (node:http through pipeline),
 * so that the test's own side never holds more of it than the network does.
 */
async function upload(type: string, body: AsyncIterable<Buffer>): Promise<{ status: number; json: unknown }> {
  const request = http.request(`${base}/authoring/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
  });
  const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on("response", resolve).on("error", reject);
  });
  // A refused upload is answered before it is all sent: then the rest is not sent.
  await pipeline(Readable.from(body), request).catch(() => {});
  const res = await answer;
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
}

const getVideo = (id: number, range?: string) =>
  fetch(`${base}/static/video/${id}`, {
    headers: { authorization: `Bearer ${token}`, ...(range !== undefined && { range }) },
  });

describe("storage", () => {
  let id = 0;
  const sha256 = crypto.createHash("sha256");

  it(
    "takes a 50 MiB video through the upload route in bounded memory",
    async () => {
      const memory = watchMemory();
      const passed = every8MiB(memory.sample);
      async function* sent() {
        for await (const piece of videoPieces()) {
          sha256.update(piece);
          passed(piece.length);
          yield piece;
        }
      }
      const res = await upload("video/mp4", sent());
      const { rss, live } = memory.stop();
      console.info(`upload of ${mib(SIZE)}: live heap and buffers at most +${mib(live)} (resident set +${mib(rss)})`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toMatchObject({ type: "video" });
      id = (res.json as { id: number }).id;
      const [row] = await ctx.deps.database.db.select().from(media).where(eq(media.id, id));
      expect(row).toMatchObject({ size: SIZE, sha256: sha256.copy().digest("hex"), mime: "video/mp4" });
      expect(await chunkRows()).toBe(SIZE / STORAGE_CHUNK_BYTES);
      expect(live).toBeLessThan(MAX_GROWTH);
    },
    SLOW,
  );

  it(
    "serves it back as a stream in bounded memory",
    async () => {
      const memory = watchMemory();
      const passed = every8MiB(memory.sample);
      const res = await getVideo(id);
      const hash = crypto.createHash("sha256");
      let length = 0;
      for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(piece);
        length += piece.length;
        passed(piece.length);
      }
      const { rss, live } = memory.stop();
      console.info(`download of ${mib(SIZE)}: live heap and buffers at most +${mib(live)} (resident set +${mib(rss)})`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(SIZE));
      expect(res.headers.get("content-type")).toBe("video/mp4");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(res.headers.get("etag")).toBe(`"${sha256.copy().digest("hex")}"`);
      expect(length).toBe(SIZE);
      expect(hash.digest("hex")).toBe(sha256.copy().digest("hex"));
      expect(live).toBeLessThan(MAX_GROWTH);
    },
    SLOW,
  );

  it("answers ranges: the first, middle (across chunks) and last bytes, a suffix, and 416 beyond the end", async () => {
    const boundary = 37 * STORAGE_CHUNK_BYTES;
    for (const [range, start, end] of [
      ["bytes=0-99", 0, 99],
      [`bytes=${boundary - 50}-${boundary + 49}`, boundary - 50, boundary + 49],
      [`bytes=${SIZE - 1}-${SIZE - 1}`, SIZE - 1, SIZE - 1],
      [`bytes=${SIZE - STORAGE_CHUNK_BYTES - 10}-`, SIZE - STORAGE_CHUNK_BYTES - 10, SIZE - 1],
      ["bytes=-300", SIZE - 300, SIZE - 1],
      [`bytes=${SIZE - 10}-${SIZE + 1000}`, SIZE - 10, SIZE - 1],
    ] as const) {
      const res = await getVideo(id, range);
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(res.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(videoBytes(start, end + 1)), range).toBe(true);
    }
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 5}-${SIZE + 10}`, "bytes=9-3", "bytes=-", "pages=0-1"]) {
      const res = await getVideo(id, range);
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range"), range).toBe(`bytes */${SIZE}`);
    }
  });

  it("refuses a file over its type's limit with 413 and keeps none of its bytes", async () => {
    const before = await chunkRows();
    // An image is refused past 5 MiB: a PNG's first bytes, then 6 MiB, sent without a length.
    async function* bigImage() {
      yield PNG_1X1;
      for (let i = 0; i < (6 * 1024 * 1024) / PIECE; i++) yield Buffer.alloc(PIECE, i);
    }
    const res = await upload("image/png", bigImage());
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ error_code: ErrorCode.payloadTooLarge, status_code: 413 });
    expect(await chunkRows()).toBe(before);
    // A declared length beyond the largest file is answered at once, before the body is sent.
    const request = http.request(`${base}/authoring/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "video/mp4", "content-length": SIZE + 1 },
    });
    request.on("error", () => {});
    request.write(MP4_HEAD);
    const declared = await new Promise<http.IncomingMessage>((resolve) => request.on("response", resolve));
    expect(declared.statusCode).toBe(413);
    declared.resume();
    request.destroy();
    expect(await chunkRows()).toBe(before);
  });

  it("stores the same file once, and the cleanup deletes only bytes no media row took up", async () => {
    const db = ctx.deps.database.db;
    const again = await upload("video/mp4", videoPieces(3 * STORAGE_CHUNK_BYTES + 5));
    const first = (again.json as { id: number }).id;
    const before = await chunkRows();
    const twice = await upload("video/mp4", videoPieces(3 * STORAGE_CHUNK_BYTES + 5));
    expect((twice.json as { id: number }).id).toBe(first);
    expect(await chunkRows()).toBe(before);
    // Bytes a stopped server left: deleted once the grace period is over, the media rows' stay.
    const orphan = await mediaStore(db).put(videoPieces(STORAGE_CHUNK_BYTES + 1));
    expect(await chunkRows()).toBe(before + 2);
    expect(await deleteUnusedChunks(db, new Date())).toEqual({ files: 0 });
    const later = new Date(Date.now() + UNUSED_CHUNKS_GRACE_MS + 60_000);
    expect(await deleteUnusedChunks(db, later)).toEqual({ files: 1 });
    expect(await chunkRows()).toBe(before);
    const rest = await db.select({ n: count() }).from(mediaChunks).where(eq(mediaChunks.key, orphan.key));
    expect(rest[0]?.n).toBe(0);
  });

  it("the cleanup leaves an upload still arriving over a slow link whole, its first chunks old as they are", async () => {
    const db = ctx.deps.database.db;
    const before = await chunkRows();
    const slow = await mediaStore(db).put(videoPieces(2 * STORAGE_CHUNK_BYTES + 1));
    // The first two chunks came in long ago, the last just now: the upload goes on.
    const longAgo = new Date(Date.now() - 2 * UNUSED_CHUNKS_GRACE_MS);
    await db
      .update(mediaChunks)
      .set({ createdAt: longAgo })
      .where(and(eq(mediaChunks.key, slow.key), lt(mediaChunks.seq, 2)));
    expect(await deleteUnusedChunks(db, new Date())).toEqual({ files: 0 });
    expect(await chunkRows()).toBe(before + 3);
    // Once its newest chunk is old too, the whole file goes.
    const later = new Date(Date.now() + UNUSED_CHUNKS_GRACE_MS + 60_000);
    expect(await deleteUnusedChunks(db, later)).toEqual({ files: 1 });
    expect(await chunkRows()).toBe(before);
  });
});
