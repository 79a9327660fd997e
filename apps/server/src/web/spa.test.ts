import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/helpers";
import { buildApp } from "../app";

let ctx: TestContext;
let web: Awaited<ReturnType<typeof buildApp>>;

let dist: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), "cc-dist-"));
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(
    path.join(dist, "index.html"),
    "<!doctype html><html><head><title>x</title></head><body></body></html>",
  );
  fs.writeFileSync(path.join(dist, "assets", "app-123.js"), "console.log(1)");
  fs.writeFileSync(path.join(dist, "sw.js"), "self.addEventListener('fetch', () => {})");
  // As the web build writes them (apps/web/vite.config.ts precompress): the same script compressed.
  const script = Buffer.from(`console.log("${"x".repeat(4000)}")`);
  fs.writeFileSync(path.join(dist, "assets", "big-456.js"), script);
  fs.writeFileSync(path.join(dist, "assets", "big-456.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, "assets", "big-456.js.gz"), zlib.gzipSync(script));
  ctx = await createTestApp({ env: { WEB_DIST: dist, SHOW_POINTS: "true", MULTI_LANGUAGE: "de,en" } });
  web = await buildApp(ctx.deps, { serveWeb: true });
});
afterAll(async () => {
  await web.close();
  await ctx.close();
});

describe("the web app", () => {
  it("serves index.html with the runtime settings as meta tags, for / and any deep link", async () => {
    for (const url of ["/", "/topic/1/training/2", "/index.html", "/profile?x=1"]) {
      const res = await web.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain('<meta name="show-points" content="true">');
      expect(res.body).toContain('<meta name="multi-language" content="de,en">');
      expect(res.body).toContain('<meta name="session-time-in-minutes" content="10">');
    }
  });

  it("serves hashed assets for a year, and unknown /api paths as JSON 404", async () => {
    const asset = await web.inject({ method: "GET", url: "/assets/app-123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const api = await web.inject({ method: "GET", url: "/api/nope" });
    expect(api.statusCode).toBe(404);
    expect(api.json().status_code).toBe(404);
    expect((await web.inject({ method: "POST", url: "/somewhere" })).statusCode).toBe(404);
    // A chunk of an older build is missing (rolling deploy): 404, never the app's HTML as a script.
    const gone = await web.inject({ method: "GET", url: "/assets/QuizPage-old123.js" });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers["content-type"]).not.toContain("text/html");
  });

  it("serves the service worker to be asked for again each time (a new build's worker is found at once)", async () => {
    const sw = await web.inject({ method: "GET", url: "/sw.js" });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers["content-type"]).toContain("javascript");
    expect(sw.headers["cache-control"]).toBe("no-cache");
  });

  it("sends an asset as the build compressed it, by the browser's Accept-Encoding, not compressed again", async () => {
    const get = (encoding?: string) =>
      web.inject({
        method: "GET",
        url: "/assets/big-456.js",
        headers: encoding ? { "accept-encoding": encoding } : {},
      });
    const br = await get("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain("console.log");
    expect(br.rawPayload.equals(fs.readFileSync(path.join(dist, "assets", "big-456.js.br")))).toBe(true);
    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain("console.log");
    const plain = await get();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("console.log");
  });
});
