import { Transform } from "node:stream";
import { ErrorCode } from "@carecampus/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Action, decide } from "../access/policy";
import { AppError } from "../errors";

/**
 * The default body limit, 64 KiB: every JSON call of spec §7 is far smaller (a calendar event
 * with 2 000 invitees is about 20 KiB). The few that need more raise their own: the training
 * matrix, and the CSV import, which only a superuser may send (users/admin-routes.ts).
 */
export const BODY_LIMIT = 64 * 1024;

/** 413: a body beyond `limit` bytes, refused with the limit in the message. */
export function tooLarge(limit: number): AppError {
  const err = new AppError(ErrorCode.payloadTooLarge, `Request body too large (at most ${limit} bytes here)`, 413);
  return Object.assign(err, { statusCode: 413 });
}

/**
 * preParsing hook of a route whose large bodies only some callers may send (the CSV import):
 * runs after `authenticate` and before a byte of the body is read. Callers the access module
 * does not allow `action` get `limit` bytes instead of the route's limit: a declared length
 * beyond it is refused at once (413), a chunked body is cut off when it passes it.
 */
export function smallBodyUnless(action: Action, limit: number) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    if (request.actor && decide(request.actor, action) === "allow") return payload;
    if (Number(request.headers["content-length"]) > limit) throw tooLarge(limit);
    let received = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > limit) callback(tooLarge(limit));
        else callback(null, chunk);
      },
    });
    return payload.pipe(capped);
  };
}
