import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/helpers";
import { buildApp } from "../app";

let ctx: TestContext;
let web: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "cc-dist-"));
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(
    path.join(dist, "index.html"),
    "<!doctype html><html><head><title>x</title></head><body></body></html>",
  );
  fs.writeFileSync(path.join(dist, "assets", "app-123.js"), "console.log(1)");
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
});
