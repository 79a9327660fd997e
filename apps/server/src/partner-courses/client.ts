import pRetry, { AbortError } from "p-retry";
import { z } from "zod";
import type { PartnerConfig } from "../config";
import { fetchIcon, type IconPolicy, localOriginOf } from "./icons";

/*
 * The one place CareCampus talks to the partner provider of external courses
 * (docs/partner-contract.md, docs/partner-openapi.yaml). Node's own fetch with a timeout per
 * attempt; GETs are retried a bounded number of times with backoff (p-retry), the launch-token
 * POST never. Every answer is checked against the contract before anything uses it.
 */

/** The partner failed: no answer, too late, an error status or an answer outside the contract. */
export class PartnerError extends Error {
  constructor(
    message: string,
    readonly reason: "unreachable" | "timeout" | "status" | "garbage",
  ) {
    super(message);
  }
}

const Url = z.string().url().max(2000);
const CourseId = z.string().min(1).max(100);

export const PartnerCourse = z.object({
  id: CourseId,
  name: z.string().min(1).max(300),
  icon_url: Url.nullable(),
  launch_url: Url.refine((u) => /^https?:/.test(u), "an http(s) address"),
});
export type PartnerCourse = z.infer<typeof PartnerCourse>;
const CourseListBody = z.object({ courses: z.array(PartnerCourse).max(200) });

export const PartnerProgress = z
  .object({
    user_ref: z.string().min(1).max(100),
    course_id: CourseId,
    count: z.number().int().min(0),
    total: z.number().int().min(1),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
    certificate_id: z.string().min(1).max(100).nullable(),
  })
  .refine((p) => p.count <= p.total, "count beyond total");
export type PartnerProgress = z.infer<typeof PartnerProgress>;
const ProgressBody = z.object({ progress: z.array(PartnerProgress).max(100_000) });

const TokenBody = z.object({ token: z.string().min(16).max(2000), valid_until: z.iso.datetime({ offset: true }) });
export type PartnerToken = z.infer<typeof TokenBody>;

const ICON_TYPES = new Set(["image/svg+xml", "image/png", "image/jpeg", "image/webp"]);
const MAX_ICON_BYTES = 64 * 1024;

/** At most 5 MB of PDF (base64: 4/3 of it). */
const MAX_PDF_BYTES = 5 * 1024 * 1024;
const CertificateBody = z.object({
  certificate_id: z.string().min(1).max(100),
  user_ref: z.string().min(1).max(100),
  course_id: CourseId,
  filename: z
    .string()
    .min(5)
    .max(200)
    .regex(/^[^\\/\p{C}]+\.pdf$/iu, "a file name ending in .pdf"),
  content: z
    .string()
    .max(Math.ceil((MAX_PDF_BYTES * 4) / 3) + 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, "base64"),
  issued_at: z.iso.datetime({ offset: true }),
});
export interface PartnerCertificate {
  certificateId: string;
  userRef: string;
  courseId: string;
  filename: string;
  pdf: Buffer;
  issuedAt: Date;
}

export interface PartnerClient {
  listCourses(trainingKey: string): Promise<PartnerCourse[]>;
  progress(trainingKey: string, userRef?: string): Promise<PartnerProgress[]>;
  certificate(id: string): Promise<PartnerCertificate>;
  launchToken(userRef: string, displayName: string): Promise<PartnerToken>;
}

/** The reference a partner knows a user by: stable, no name or login in it. */
export const userRef = (userId: number) => `cc-${userId}`;
export const userIdOfRef = (ref: string): number | null => {
  const m = /^cc-([1-9][0-9]{0,9})$/.exec(ref);
  return m ? Number(m[1]) : null;
};

export function createPartnerClient(config: PartnerConfig, now: () => Date = () => new Date()): PartnerClient {
  const auth = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64")}`;

  async function once(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${config.url}${path}`, {
        method,
        headers: {
          authorization: auth,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
        redirect: "error",
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new PartnerError(
        timeout ? `no answer within ${config.timeoutMs} ms` : "unreachable",
        timeout ? "timeout" : "unreachable",
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new PartnerError(`the answer broke off or took longer than ${config.timeoutMs} ms`, "timeout");
    }
    if (!response.ok) {
      const error = new PartnerError(`answered ${response.status}`, "status");
      // A client error will not heal by asking again; a busy or failing partner may.
      if (response.status < 500 && response.status !== 429) throw new AbortError(error);
      throw error;
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AbortError(new PartnerError("answered something that is not JSON", "garbage"));
    }
  }

  async function call<T>(method: "GET" | "POST", path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const attempt = async () => {
      const raw = await once(method, path, body);
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const where = parsed.error.issues[0]?.path.join(".") || "body";
        throw new AbortError(new PartnerError(`answered outside the contract (${where})`, "garbage"));
      }
      return parsed.data;
    };
    try {
      // Only idempotent calls are asked again (a second POST could issue a second token).
      return method === "GET"
        ? await pRetry(attempt, { retries: config.retries, minTimeout: 100, maxTimeout: 1000, factor: 3 })
        : await attempt();
    } catch (err) {
      // p-retry unwraps its AbortError; a call without retries gets it as thrown.
      if (err instanceof AbortError && err.originalError instanceof PartnerError) throw err.originalError;
      throw err;
    }
  }

  const iconPolicy: IconPolicy = {
    origins: new Set([new URL(config.url).origin, ...config.iconOrigins]),
    ownLocalOrigin: localOriginOf(config.url),
    httpsOnly: config.httpsOnly,
    timeoutMs: config.timeoutMs,
    maxBytes: MAX_ICON_BYTES,
    types: ICON_TYPES,
  };

  /**
   * A course icon as a data: URL: the page's CSP admits images of its own origin only, and the
   * browser needs no address of the partner but the launch one. An icon the policy refuses
   * (icons.ts), a missing or an odd one is none: the page shows its placeholder.
   */
  async function inlineIcon(url: string | null): Promise<string | null> {
    const icon = url ? await fetchIcon(url, iconPolicy) : null;
    return icon ? `data:${icon.type};base64,${icon.bytes.toString("base64")}` : null;
  }

  // A training's course list changes seldom: kept a short while, one request in flight per training.
  const cache = new Map<string, { until: number; courses: Promise<PartnerCourse[]> }>();

  return {
    listCourses(trainingKey) {
      const hit = cache.get(trainingKey);
      if (hit && hit.until > now().getTime()) return hit.courses;
      const courses = call("GET", `/v1/courses?training=${encodeURIComponent(trainingKey)}`, CourseListBody).then((b) =>
        Promise.all(b.courses.map(async (c) => ({ ...c, icon_url: await inlineIcon(c.icon_url) }))),
      );
      cache.set(trainingKey, { until: now().getTime() + config.cacheSeconds * 1000, courses });
      // A failure is not kept: the next page load asks again.
      courses.catch(() => {
        if (cache.get(trainingKey)?.courses === courses) cache.delete(trainingKey);
      });
      return courses;
    },
    async progress(trainingKey, ref) {
      const query = new URLSearchParams({ training: trainingKey, ...(ref ? { user_ref: ref } : {}) });
      return (await call("GET", `/v1/progress?${query}`, ProgressBody)).progress;
    },
    async certificate(id) {
      const body = await call("GET", `/v1/certificates/${encodeURIComponent(id)}`, CertificateBody);
      const pdf = Buffer.from(body.content, "base64");
      if (pdf.length > MAX_PDF_BYTES || pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
        throw new PartnerError("sent a certificate that is not a PDF", "garbage");
      }
      if (body.certificate_id !== id) throw new PartnerError("sent another certificate than asked for", "garbage");
      return {
        certificateId: body.certificate_id,
        userRef: body.user_ref,
        courseId: body.course_id,
        filename: body.filename,
        pdf,
        issuedAt: new Date(body.issued_at),
      };
    },
    launchToken(ref, displayName) {
      return call("POST", "/v1/launch-tokens", TokenBody, { user_ref: ref, display_name: displayName });
    },
  };
}
