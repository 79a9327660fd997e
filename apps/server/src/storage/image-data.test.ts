import fs from "node:fs";
import { ErrorCode } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { onePixelPng, pngChunk } from "../../test/helpers";
import { serverPath } from "../paths";
import { imageData, type StrippedImageType } from "./image-data";

/*
 * The structure walk of storage/image-data.ts on its own, fed in pieces of every size (a marker
 * or a chunk header split between two reads), with the JPEG structures the route tests' files
 * lack: restart markers, stuffed FF bytes, fill bytes, several scans (progressive), comments.
 */

const tooLarge = () => new Error("too large");
const limit = { maxBytes: 5 * 1024 * 1024, tooLarge };

async function strip(mime: StrippedImageType, bytes: Buffer, piece: number, max = limit.maxBytes): Promise<Buffer> {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
  }
  const out: Buffer[] = [];
  for await (const part of imageData(mime, pieces(), { maxBytes: max, tooLarge })) out.push(part);
  return Buffer.concat(out);
}

const PIECES = [1, 2, 3, 7, 64, 65_536];
const TAIL = Buffer.from("<html><script>alert(1)</script></html>\xff\xd9PK\x05\x06", "latin1");

const jpegSegment = (code: number, body: Buffer) => {
  const head = Buffer.from([0xff, code, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};
/** A progressive JPEG's structure: two scans, a table between them, restart markers, stuffed and fill bytes. */
const PROGRESSIVE = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  jpegSegment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1")),
  jpegSegment(0xdb, Buffer.alloc(65, 1)),
  jpegSegment(0xc2, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
  jpegSegment(0xc4, Buffer.alloc(20, 2)),
  jpegSegment(0xdd, Buffer.from([0, 1])),
  jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0, 0])),
  Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0x00, 0xff, 0xd1, 0x78, 0xff, 0xff, 0xc4]),
  Buffer.from([0, 4, 0, 0]),
  jpegSegment(0xda, Buffer.from([1, 1, 0, 1, 63, 0])),
  Buffer.from([0x9a, 0xff, 0x00, 0xff, 0xd7, 0xbc]),
  Buffer.from([0xff, 0xd9]),
]);

describe("imageData", () => {
  it("passes a JPEG's scans, restart markers, stuffed and fill bytes, and stops at its end of image", async () => {
    for (const piece of PIECES) {
      const out = await strip("image/jpeg", Buffer.concat([PROGRESSIVE, TAIL]), piece);
      expect(out.equals(PROGRESSIVE), `pieces of ${piece}`).toBe(true);
    }
  });

  it("drops a JPEG's comment segments", async () => {
    const comment = jpegSegment(0xfe, Buffer.from("<script>alert(1)</script>"));
    const commented = Buffer.concat([PROGRESSIVE.subarray(0, 2), comment, PROGRESSIVE.subarray(2)]);
    for (const piece of PIECES) {
      expect((await strip("image/jpeg", commented, piece)).equals(PROGRESSIVE), `pieces of ${piece}`).toBe(true);
    }
  });

  it("keeps real files whole in pieces of every size and drops their tails", async () => {
    const jpeg = fs.readFileSync(serverPath("../../content/demo/tutorial/admin/images/import-en_2x.jpg"));
    const png = onePixelPng(0x0a0b0c0d, [pngChunk("sRGB", Buffer.from([0])), pngChunk("pHYs", Buffer.alloc(9, 1))]);
    for (const piece of PIECES) {
      expect((await strip("image/jpeg", Buffer.concat([jpeg, TAIL]), piece)).equals(jpeg), `jpeg ${piece}`).toBe(true);
      expect((await strip("image/png", Buffer.concat([png, TAIL]), piece)).equals(png), `png ${piece}`).toBe(true);
    }
  });

  it("counts the dropped bytes against the limit, and refuses what ends early or is no such image", async () => {
    const png = onePixelPng(0x01020304);
    await expect(strip("image/png", Buffer.concat([png, Buffer.alloc(2000)]), 100, 1000)).rejects.toThrow("too large");
    for (const [mime, bytes] of [
      ["image/png", png.subarray(0, 40)],
      ["image/jpeg", PROGRESSIVE.subarray(0, PROGRESSIVE.length - 1)],
      ["image/jpeg", Buffer.from([0xff, 0xd8, 0x00, 0x00])],
      ["image/png", Buffer.concat([png.subarray(0, 8), pngChunk("IDAT", Buffer.alloc(1))])],
      ["image/gif", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00\x99", "latin1")],
      ["image/webp", Buffer.from("RIFF\x02\x00\x00\x00WEBP", "latin1")],
    ] as const) {
      await expect(strip(mime, bytes, 5), `${mime} ${bytes.length}`).rejects.toMatchObject({
        code: ErrorCode.validation,
        status: 400,
      });
    }
  });
});
