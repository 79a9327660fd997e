import { ErrorCode } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { media } from "../db/schema";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let imageId: number;
let videoId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  imageId =
    (
      await db
        .select()
        .from(media)
        .where(and(eq(media.kind, "image"), eq(media.name, "bild.svg")))
    )[0]?.id ?? 0;
  videoId = (await db.select().from(media).where(eq(media.kind, "video")))[0]?.id ?? 0;
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: "GET", url, headers });

describe("static files", () => {
  it("serves an image with a header token or ?token=, with type, nosniff and a locked-down CSP", async () => {
    for (const res of [
      await get(`/api/static/image/${imageId}`, bearer(cast.tokens.employee)),
      await get(`/api/static/image/${imageId}?token=${cast.tokens.employee}`),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/svg+xml");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(res.body).toContain("<svg");
    }
  });

  it("needs a token", async () => {
    expect((await get(`/api/static/image/${imageId}`)).statusCode).toBe(401);
    expect((await get(`/api/static/icon/icon_hygiene.svg`)).statusCode).toBe(401);
    expect((await get(`/api/static/video/${videoId}?token=nope`)).statusCode).toBe(401);
  });

  it("serves icons by name", async () => {
    const res = await get(`/api/static/icon/icon_hygiene.svg?token=${cast.tokens.employee}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    const missing = await get(`/api/static/icon/icon_nope.svg?token=${cast.tokens.employee}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe(ErrorCode.imageNotFound);
  });

  it("answers HTTP ranges so an mp4 can seek", async () => {
    const full = await get(`/api/static/video/${videoId}`, bearer(cast.tokens.employee));
    expect(full.statusCode).toBe(200);
    expect(full.headers["content-type"]).toBe("video/mp4");
    expect(full.headers["accept-ranges"]).toBe("bytes");
    expect(full.rawPayload.length).toBe(4096);
    const part = await get(`/api/static/video/${videoId}`, { ...bearer(cast.tokens.employee), range: "bytes=100-199" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe("bytes 100-199/4096");
    expect([...part.rawPayload]).toEqual(Array.from({ length: 100 }, (_, i) => (100 + i) % 256));
    const tail = await get(`/api/static/video/${videoId}`, { ...bearer(cast.tokens.employee), range: "bytes=-10" });
    expect(tail.headers["content-range"]).toBe("bytes 4086-4095/4096");
    const open = await get(`/api/static/video/${videoId}`, { ...bearer(cast.tokens.employee), range: "bytes=4000-" });
    expect(open.rawPayload.length).toBe(96);
    const bad = await get(`/api/static/video/${videoId}`, {
      ...bearer(cast.tokens.employee),
      range: "bytes=5000-6000",
    });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers["content-range"]).toBe("bytes */4096");
    // A video id is not an image.
    expect((await get(`/api/static/image/${videoId}`, bearer(cast.tokens.employee))).statusCode).toBe(404);
  });

  it("has no path that escapes, encoded or not", async () => {
    const token = cast.tokens.employee;
    for (const url of [
      "/api/static/icon/../../../etc/passwd",
      "/api/static/icon/..%2F..%2F..%2Fetc%2Fpasswd",
      "/api/static/icon/icon_..%2F..%2Fpackage.json.svg",
      "/api/static/icon/icon_%2e%2e%2fpackage.svg",
      "/api/static/icon/icon_hygiene.svg%00.png",
      "/api/static/image/..%2F1",
      "/api/static/image/1;rm",
      "/api/static/video/%2e%2e",
      "/api/static/../../package.json",
      "/api/static/%2e%2e/%2e%2e/package.json",
    ]) {
      const res = await get(`${url}${url.includes("?") ? "&" : "?"}token=${token}`);
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain("carecampus");
      expect(res.body).not.toContain("root:");
    }
  });
});
