import fs from "node:fs";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { ErrorCode } from "@carecampus/contract";
import { count, eq, sum } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  freshPng,
  login,
  onePixelPng,
  PNG_1X1,
  pngChunk,
  type TestContext,
} from "../../test/helpers";
import { secondServerDatabase } from "../../test/second-server";
import { buildApp } from "../app";
import { media, mediaChunks } from "../db/schema";
import { serverPath } from "../paths";
import { storeUpload } from "./media";

/*
 * Issue 27 (trust, second review): uploads are limited per user and per installation, and an
 * image is stored as its image data only, whatever was appended to it.
 */

const MP4_HEAD = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);
const video = (bytes: number, fill = 7) => Buffer.concat([MP4_HEAD, Buffer.alloc(bytes - MP4_HEAD.length, fill)]);
const KiB = 1024;

interface Uploader {
  ctx: TestContext;
  token: string;
}

const upload = ({ ctx, token }: Uploader, url: string, type: string, payload: Buffer | Readable) =>
  ctx.app.inject({
    method: "POST",
    url: `/api${url}`,
    headers: { ...bearer(token), "content-type": type },
    payload,
  });

async function mediaTotals(ctx: TestContext) {
  const db = ctx.deps.database.db;
  const [rows] = await db.select({ n: count(), bytes: sum(media.size) }).from(media);
  const [chunks] = await db.select({ n: count() }).from(mediaChunks);
  return { rows: rows?.n, bytes: Number(rows?.bytes ?? 0), chunks: chunks?.n };
}

async function adminOf(ctx: TestContext): Promise<Uploader & { id: number }> {
  const facility = await createFacility(ctx);
  const user = await createUser(ctx, ["administrator"], facility.id);
  return { ctx, token: await login(ctx, user.login), id: user.id };
}

describe("the upload rate (UPLOAD_RATE_PER_MINUTE)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { UPLOAD_RATE_PER_MINUTE: "3" } });
  });
  afterAll(() => ctx.close());

  it("admits N uploads of a user a minute over both routes and every server, answers the next 429 with Retry-After, and counts each user apart", async () => {
    const admin = await adminOf(ctx);
    const other = await adminOf(ctx);
    // A second server on the same database (on PostgreSQL a pool of its own) counts together.
    const second = await secondServerDatabase(ctx);
    const app = await buildApp({ ...ctx.deps, database: second.database });
    try {
      const onSecond = { ...admin, ctx: { ...ctx, app } };
      expect((await upload(admin, "/wiki/images", "image/png", freshPng())).statusCode).toBe(200);
      expect((await upload(admin, "/authoring/media", "image/png", freshPng())).statusCode).toBe(200);
      expect((await upload(onSecond, "/authoring/media", "video/mp4", video(2 * KiB))).statusCode).toBe(200);
      const before = await mediaTotals(ctx);
      for (const [who, url, type, body] of [
        [admin, "/wiki/images", "image/png", freshPng()],
        [admin, "/authoring/media", "video/mp4", video(3 * KiB)],
        [onSecond, "/wiki/images", "image/png", freshPng()],
      ] as const) {
        const refused = await upload(who, url, type, body);
        expect(refused.statusCode, url).toBe(429);
        expect(refused.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
        const retryAfter = Number(refused.headers["retry-after"]);
        expect(retryAfter, url).toBeGreaterThanOrEqual(1);
        expect(retryAfter, url).toBeLessThanOrEqual(60);
      }
      expect(await mediaTotals(ctx)).toEqual(before);
    } finally {
      await app.close();
      await second.close();
    }
    // Another user has their own count.
    expect((await upload(other, "/wiki/images", "image/png", freshPng())).statusCode).toBe(200);
    // A minute later the user may upload again.
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 61_000);
    expect((await upload(admin, "/wiki/images", "image/png", freshPng())).statusCode).toBe(200);
  });
});

describe("the media quota (MEDIA_QUOTA_MB)", () => {
  let ctx: TestContext;
  let admin: Uploader;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { MEDIA_QUOTA_MB: "1" } });
    admin = await adminOf(ctx);
  });
  afterAll(() => ctx.close());

  it("refuses an upload beyond what remains of the quota with 1109 and stores nothing of it", async () => {
    const first = await upload(admin, "/authoring/media", "video/mp4", video(700 * KiB));
    expect(first.statusCode, first.body).toBe(200);
    const before = await mediaTotals(ctx);
    expect(before.bytes).toBe(700 * KiB);
    // Declared length beyond the 324 KiB left: refused before anything is stored.
    const declared = await upload(admin, "/authoring/media", "video/mp4", video(400 * KiB));
    expect(declared.statusCode, declared.body).toBe(413);
    expect(declared.json()).toMatchObject({ error_code: ErrorCode.mediaQuotaExceeded, status_code: 413 });
    expect(await mediaTotals(ctx)).toEqual(before);
    // A wiki image too.
    const image = onePixelPng(0x12345678);
    const padded = Buffer.concat([image, Buffer.alloc(400 * KiB)]);
    const wiki = await upload(admin, "/wiki/images", "image/png", padded);
    expect(wiki.statusCode, wiki.body).toBe(413);
    expect(wiki.json()).toMatchObject({ error_code: ErrorCode.mediaQuotaExceeded });
    expect(await mediaTotals(ctx)).toEqual(before);
  });

  it("enforces it while the bytes stream in when no length was declared", async () => {
    const before = await mediaTotals(ctx);
    async function* undeclared() {
      yield MP4_HEAD;
      for (let i = 0; i < 40; i++) yield Buffer.alloc(10 * KiB, i);
    }
    const row = { kind: "video", mime: "video/mp4", facilityId: null, name: (sha: string) => `quota-${sha}` };
    const limit = { maxBytes: 50 * 1024 * KiB, tooLarge: () => new Error("type limit") };
    await expect(
      storeUpload(ctx.deps.database.db, undeclared(), limit, row, {
        quotaBytes: ctx.deps.config.mediaQuotaBytes,
        declaredLength: undefined,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.mediaQuotaExceeded, status: 413 });
    expect(await mediaTotals(ctx)).toEqual(before);
    // The same through the route, streamed without a Content-Length.
    const res = await upload(admin, "/authoring/media", "video/mp4", Readable.from(undeclared()));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.mediaQuotaExceeded });
    expect(await mediaTotals(ctx)).toEqual(before);
  });

  it("still takes what fits", async () => {
    const res = await upload(admin, "/authoring/media", "video/mp4", video(300 * KiB));
    expect(res.statusCode, res.body).toBe(200);
    expect((await mediaTotals(ctx)).bytes).toBe(1000 * KiB);
  });
});

/** A little-endian record of `size` bytes, its fields as [offset, width in bytes, value]. */
function record(size: number, fields: [number, 2 | 4, number][]): Buffer {
  const out = Buffer.alloc(size);
  for (const [at, width, value] of fields) {
    if (width === 2) out.writeUInt16LE(value, at);
    else out.writeUInt32LE(value, at);
  }
  return out;
}

/** A ZIP of one stored file, as a polyglot's tail would carry it. */
function zipOf(name: string, content: Buffer): Buffer {
  const file = Buffer.from(name, "latin1");
  const crc = zlib.crc32(content);
  const n = content.length;
  const local = record(30, [
    [0, 4, 0x04034b50],
    [4, 2, 10],
    [14, 4, crc],
    [18, 4, n],
    [22, 4, n],
    [26, 2, file.length],
  ]);
  const central = record(46, [
    [0, 4, 0x02014b50],
    [4, 2, 10],
    [6, 2, 10],
    [16, 4, crc],
    [20, 4, n],
    [24, 4, n],
    [28, 2, file.length],
  ]);
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, 1],
    [10, 2, 1],
    [12, 4, central.length + file.length],
    [16, 4, local.length + file.length + n],
  ]);
  return Buffer.concat([local, file, content, central, file, end]);
}

const HTML_TAIL = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
const ZIP_TAIL = zipOf("index.html", HTML_TAIL);

/** A 1×1 GIF89a (global colour table, graphic control extension, one image). */
const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
/** An animated GIF: NETSCAPE loop extension, two frames each with a local colour table. */
const GIF_ANIMATED = Buffer.concat([
  Buffer.from("GIF89a", "latin1"),
  Buffer.from([2, 0, 1, 0, 0x00, 0, 0]),
  Buffer.from([0x21, 0xff, 11, ...Buffer.from("NETSCAPE2.0"), 3, 1, 0, 0, 0]),
  ...[0, 1].map((frame) =>
    Buffer.from([
      0x21,
      0xf9,
      4,
      0,
      10,
      0,
      0,
      0,
      0x2c,
      frame,
      0,
      0,
      0,
      1,
      0,
      1,
      0,
      0x80,
      0xff,
      0,
      0,
      0,
      0,
      0xff,
      2,
      2,
      0x44,
      0x01,
      0,
    ]),
  ),
  Buffer.from([0x3b]),
]);
/** A GIF comment extension: text a GIF carries beside its image. */
const gifComment = (text: string) =>
  Buffer.concat([Buffer.from([0x21, 0xfe, text.length]), Buffer.from(text, "latin1"), Buffer.from([0])]);
/** A 1×1 lossless WebP. */
const WEBP_1X1 = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");
/** A real JPEG of the demo content (JFIF, ICC profile, baseline). */
const JPEG = fs.readFileSync(serverPath("../../content/demo/tutorial/admin/images/import-en_2x.jpg"));

/** An EXIF segment (APP1) whose thumbnail is a JPEG of its own: its FFD9 is no end of the picture. */
function withExifThumbnail(jpeg: Buffer): Buffer {
  const thumbnail = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0, 4, 0, 0, 0xff, 0xda, 0, 2, 1, 2, 3, 0xff, 0xd9]);
  const payload = Buffer.concat([Buffer.from("Exif\0\0MM\0*\0\0\0\x08", "latin1"), thumbnail, Buffer.from("pad")]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}

describe("images are stored as their image data only", () => {
  let ctx: TestContext;
  let admin: Uploader;
  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await adminOf(ctx);
  });
  afterAll(() => ctx.close());

  /** Uploads `sent` to `url` and returns the bytes served back, checking the row's size and hash are theirs. */
  async function stored(url: "/wiki/images" | "/authoring/media", type: string, sent: Buffer): Promise<Buffer> {
    const res = await upload(admin, url, type, sent);
    expect(res.statusCode, res.body).toBe(200);
    const { id, src } = res.json() as { id: number; src: string };
    const served = await ctx.app.inject({ method: "GET", url: `${src}?token=${admin.token}` });
    expect(served.statusCode).toBe(200);
    const bytes = served.rawPayload;
    const [row] = await ctx.deps.database.db.select().from(media).where(eq(media.id, id));
    expect(row?.size).toBe(bytes.length);
    expect(row?.sha256).toBe((await import("node:crypto")).createHash("sha256").update(bytes).digest("hex"));
    return bytes;
  }

  const clean = {
    png: onePixelPng(0x336699ff),
    gif: GIF_1X1,
    animated: GIF_ANIMATED,
    webp: WEBP_1X1,
    jpeg: JPEG,
    exif: withExifThumbnail(JPEG),
  };

  it("stores clean images byte for byte", async () => {
    expect((await stored("/wiki/images", "image/png", PNG_1X1)).equals(PNG_1X1)).toBe(true);
    expect((await stored("/wiki/images", "image/png", clean.png)).equals(clean.png)).toBe(true);
    expect((await stored("/wiki/images", "image/gif", clean.gif)).equals(clean.gif)).toBe(true);
    expect((await stored("/wiki/images", "image/gif", clean.animated)).equals(clean.animated)).toBe(true);
    expect((await stored("/wiki/images", "image/webp", clean.webp)).equals(clean.webp)).toBe(true);
    expect((await stored("/wiki/images", "image/jpeg", clean.jpeg)).equals(clean.jpeg)).toBe(true);
    expect((await stored("/authoring/media", "image/jpeg", clean.exif)).equals(clean.exif)).toBe(true);
    expect((await stored("/authoring/media", "image/webp", clean.webp)).equals(clean.webp)).toBe(true);
  });

  it("drops an HTML or a ZIP tail after a PNG's IEND", async () => {
    const png = onePixelPng(0x445566ff);
    for (const url of ["/wiki/images", "/authoring/media"] as const) {
      for (const tail of [HTML_TAIL, ZIP_TAIL]) {
        const bytes = await stored(url, "image/png", Buffer.concat([png, tail]));
        expect(bytes.equals(png), `${url} ${tail.subarray(0, 6).toString()}`).toBe(true);
      }
    }
  });

  it("drops a PNG's text chunks and unknown ancillary chunks, keeps those that change how it looks", async () => {
    const gamma = pngChunk("gAMA", Buffer.from([0, 0, 0xb1, 0x8f]));
    const text = pngChunk("tEXt", Buffer.from("Comment\0<script>alert(1)</script>", "latin1"));
    const itxt = pngChunk("iTXt", Buffer.from("XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>", "latin1"));
    const ztxt = pngChunk("zTXt", Buffer.concat([Buffer.from("Note\0\0", "latin1"), zlib.deflateSync("<html>")]));
    const privateChunk = pngChunk("prVt", HTML_TAIL);
    const sent = onePixelPng(0x778899ff, [gamma, text, itxt, ztxt, privateChunk]);
    const bytes = await stored("/wiki/images", "image/png", Buffer.concat([sent, ZIP_TAIL]));
    expect(bytes.equals(onePixelPng(0x778899ff, [gamma]))).toBe(true);
  });

  it("drops a tail after a GIF's trailer, and its comments", async () => {
    for (const gif of [GIF_1X1, GIF_ANIMATED]) {
      expect((await stored("/wiki/images", "image/gif", Buffer.concat([gif, HTML_TAIL]))).equals(gif)).toBe(true);
      expect((await stored("/wiki/images", "image/gif", Buffer.concat([gif, ZIP_TAIL]))).equals(gif)).toBe(true);
    }
    // A comment before the image (after the global colour table) goes too.
    const commented = Buffer.concat([GIF_1X1.subarray(0, 19), gifComment("<html>"), GIF_1X1.subarray(19)]);
    expect((await stored("/wiki/images", "image/gif", commented)).equals(GIF_1X1)).toBe(true);
  });

  it("drops a tail after a JPEG's end of image, not at an FFD9 of its EXIF thumbnail", async () => {
    for (const url of ["/wiki/images", "/authoring/media"] as const) {
      const plain = await stored(url, "image/jpeg", Buffer.concat([clean.jpeg, HTML_TAIL]));
      expect(plain.equals(clean.jpeg), url).toBe(true);
      const exif = await stored(url, "image/jpeg", Buffer.concat([clean.exif, ZIP_TAIL]));
      expect(exif.equals(clean.exif), url).toBe(true);
    }
  });

  it("drops a tail after a WebP's RIFF length", async () => {
    for (const url of ["/wiki/images", "/authoring/media"] as const) {
      const bytes = await stored(url, "image/webp", Buffer.concat([WEBP_1X1, HTML_TAIL]));
      expect(bytes.equals(WEBP_1X1), url).toBe(true);
    }
  });

  it("refuses an image that ends before its end, or a PNG with an unknown critical chunk, with 400 and stores nothing", async () => {
    const before = await mediaTotals(ctx);
    const png = onePixelPng(0x99aabbff);
    for (const [type, body] of [
      ["image/png", png.subarray(0, png.length - 12)],
      ["image/gif", GIF_1X1.subarray(0, GIF_1X1.length - 1)],
      ["image/jpeg", JPEG.subarray(0, JPEG.length - 2)],
      ["image/webp", WEBP_1X1.subarray(0, WEBP_1X1.length - 3)],
      // A critical chunk of no registered type: no decoder shows it, and it could carry a page.
      ["image/png", onePixelPng(0x99aabbff, [pngChunk("HTML", HTML_TAIL)])],
    ] as const) {
      const res = await upload(admin, "/wiki/images", type, body);
      expect(res.statusCode, `${type} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.validation });
    }
    expect(await mediaTotals(ctx)).toEqual(before);
  });
});
