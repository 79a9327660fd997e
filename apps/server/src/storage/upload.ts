import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { tooLarge } from "../http/body-limit";

/**
 * Hands the routes of `app` (one plugin) bodies of these content types as the request stream
 * instead of one buffer: the route stores them as they arrive (storage/store.ts put) and enforces
 * the limit of the file type it finds. A declared length beyond `maxBytes`, the largest file any
 * route of the plugin takes, is refused at once, before a byte is read.
 */
export function streamedBodies(app: FastifyInstance, types: string[], maxBytes: number): void {
  app.addContentTypeParser(types, (request, payload, done) => {
    if (Number(request.headers["content-length"]) > maxBytes) done(tooLarge(maxBytes), undefined);
    else done(null, payload);
  });
}

/** The length a request's Content-Length header declares, if it declares one. */
export function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers["content-length"];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** The start of an upload, to tell what it is, and all its bytes (the start again first) to store. */
export interface PeekedBody {
  head: Buffer;
  bytes: AsyncIterable<Buffer>;
}

/**
 * Reads `body` until `enough(head)` says the start tells what the file is, or `max` bytes or the
 * end have come. The rest stays unread until `bytes` is read; when that stops early (an upload
 * refused), the rest of the request is read and dropped, so the refusal can still be answered.
 */
export async function peekBody(body: Readable, enough: (head: Buffer) => boolean, max: number): Promise<PeekedBody> {
  const input = body.iterator({ destroyOnReturn: false });
  const parts: Buffer[] = [];
  let head = Buffer.alloc(0);
  let ended = false;
  while (!enough(head) && head.length < max) {
    const next = await input.next();
    if (next.done) {
      ended = true;
      break;
    }
    parts.push(Buffer.from(next.value));
    head = Buffer.concat(parts);
  }
  async function* bytes(): AsyncGenerator<Buffer> {
    let done = ended;
    try {
      if (head.length > 0) yield head;
      while (!done) {
        const next = await input.next();
        done = next.done === true;
        if (!done) yield Buffer.from(next.value);
      }
    } finally {
      if (!done) {
        await input.return?.();
        body.resume();
      }
    }
  }
  return { head, bytes: bytes() };
}
