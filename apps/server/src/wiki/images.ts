import type { WIKI_IMAGE_TYPES } from "@carecampus/contract";

export type WikiImageType = (typeof WIKI_IMAGE_TYPES)[number];

export interface ImageInfo {
  mime: WikiImageType;
  width: number;
  height: number;
}

/**
 * How much of an upload's start is read to tell what image it is: a JPEG gives its size after
 * its metadata segments (EXIF, ICC profile), which rarely pass a few hundred KiB.
 */
export const IMAGE_HEAD_BYTES = 1024 * 1024;

/** Larger pictures are refused: nobody needs them in a handbook, and decoders choke on them. */
export const MAX_IMAGE_SIDE = 10_000;

function png(b: Buffer): ImageInfo | null {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (b.length < 33 || !b.subarray(0, 8).equals(sig) || b.toString("latin1", 12, 16) !== "IHDR") return null;
  return { mime: "image/png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): ImageInfo | null {
  const head = b.toString("latin1", 0, 6);
  if (b.length < 13 || (head !== "GIF87a" && head !== "GIF89a")) return null;
  return { mime: "image/gif", width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function jpeg(b: Buffer): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    // Start of frame (baseline, progressive, …; not DHT 0xc4, JPG 0xc8, DAC 0xcc) carries the size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { mime: "image/jpeg", height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webp(b: Buffer): ImageInfo | null {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP") return null;
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { mime: "image/webp", width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { mime: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { mime: "image/webp", width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  return null;
}

/**
 * What the bytes are, read from their own headers (never from the name or the declared type):
 * a PNG, JPEG, WebP or GIF with a plausible size, else null. SVG and everything else is null.
 */
export function imageInfo(bytes: Buffer): ImageInfo | null {
  const info = png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? gif(bytes);
  if (!info) return null;
  if (info.width < 1 || info.height < 1 || info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) return null;
  return info;
}

/** The media row name of a wiki image: per facility (or common) and content, so a second upload reuses the first. */
export function wikiImageName(facilityId: number | null, sha256: string): string {
  return `${facilityId ?? "common"}-${sha256}`;
}
