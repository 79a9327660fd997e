import { ErrorCode } from "@carecampus/contract";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
/** `\uD800`–`\uDFFF` written as a JSON escape: only then can a parsed string hold a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every string of a parsed JSON value, keys included, is well-formed UTF-16. */
export function wellFormed(value: unknown): boolean {
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).every(([k, v]) => !LONE_SURROGATE.test(k) && wellFormed(v));
  }
  return true;
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), but strict about text: bytes
 * that are not UTF-8, and lone surrogates (`"\uD800"`), are refused with 400 — PostgreSQL would
 * otherwise store U+FFFD in their place and the data would silently differ from what was sent.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(new AppError(ErrorCode.validation, "The body is not valid UTF-8"), undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      if (err) return done(err, undefined);
      if (SURROGATE_ESCAPE.test(text) && !wellFormed(value)) {
        return done(new AppError(ErrorCode.validation, "The body holds a lone surrogate (not a Unicode character)"));
      }
      return done(null, value);
    });
  });
}
