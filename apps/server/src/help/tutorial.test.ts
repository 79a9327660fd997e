import fs from "node:fs";
import path from "node:path";
import { ErrorCode, type Tutorial } from "@carecampus/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemsOf, writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { renderTutorialMarkdown } from "../content/tutorial";

// A real 1×1 PNG: the static route serves what the package holds, byte for byte.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const TUTORIAL = {
  "tutorial/employee/pages.yaml": "pages:\n  - key: start\n    screen: home\n  - key: learn\n",
  "tutorial/employee/start.de.md":
    "# Die Startseite\n\nHier sehen Sie Ihre **Themen**.\n\n## Fortschritt\n\n- eins\n- zwei\n",
  "tutorial/employee/start.en.md": "# The start page\n\nYour **topics** are here.\n",
  "tutorial/employee/learn.de.md":
    "# Lernen\n\nSo geht es.<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[Profil](/profile) · [extern](https://example.org) · [böse](javascript:alert(1))\n",
  "tutorial/employee/images/home-de_2x.png": PNG,
  // A content language the interface does not speak (issue 31).
  "tutorial/employee/learn.tr.md": "# Öğrenmek\n\nSoruları yanıtlayın.\n",
  "tutorial/admin/pages.yaml": "pages:\n  - key: overview\n    screen: progress\n",
  "tutorial/admin/overview.de.md": "# Die Übersicht\n\nRot, orange, gelb, grün.\n",
  "tutorial/admin/images/progress-de_2x.png": PNG,
} as const;

function fixtureWith(files: Record<string, string | Buffer>): string {
  const dir = writeFixture();
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,fr,es,br,tr" } });
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(fixtureWith(TUTORIAL)));
});
afterAll(() => ctx.close());

const get = (token: string, url: string) => ctx.app.inject({ method: "GET", url, headers: token ? bearer(token) : {} });

describe("GET /api/Tutorial", () => {
  it("gives an employee the employee version in their language, German where a page lacks it", async () => {
    const res = await get(cast.tokens.employee, "/api/Tutorial?Role=employee&lang=en");
    expect(res.statusCode, res.body).toBe(200);
    const tutorial: Tutorial = res.json();
    expect(tutorial).toMatchObject({ role: "employee", language: "en" });
    expect(tutorial.pages.map((p) => [p.key, p.title])).toEqual([
      ["start", "The start page"],
      ["learn", "Lernen"],
    ]);
    // The English page has no English screenshot: the German one stands in.
    expect(tutorial.pages[0]?.image).toBe("/api/static/employee-tutorial/home-de_2x");
    expect(tutorial.pages[1]?.image).toBeNull();
    // Each page says its language: the one asked for, or German where the page lacks it.
    expect(tutorial.pages.map((p) => p.lang)).toEqual(["en", "de"]);
    const tr: Tutorial = (await get(cast.tokens.employee, "/api/Tutorial?Role=employee&lang=tr")).json();
    expect(tr.pages.map((p) => [p.title, p.lang])).toEqual([
      ["Die Startseite", "de"],
      ["Öğrenmek", "tr"],
    ]);
    const de: Tutorial = (await get(cast.tokens.employee, "/api/Tutorial?Role=employee")).json();
    expect(de.language).toBe("de");
    expect(de.pages[0]?.html).toBe(
      "<p>Hier sehen Sie Ihre <strong>Themen</strong>.</p>\n<h3>Fortschritt</h3>\n<ul>\n<li>eins</li>\n<li>zwei</li>\n</ul>",
    );
  });

  it("keeps the staff version for staff and refuses it to employees", async () => {
    const refused = await get(cast.tokens.employee, "/api/Tutorial?Role=admin");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error_code).toBe(ErrorCode.forbidden);
    for (const who of ["administrator", "supervisor", "contentmanager", "superchris"] as const) {
      const res = await get(cast.tokens[who], "/api/Tutorial?Role=admin");
      expect(res.statusCode, who).toBe(200);
      expect(res.json().pages.map((p: { title: string }) => p.title)).toEqual(["Die Übersicht"]);
    }
    expect((await get(cast.tokens.administrator, "/api/Tutorial?Role=employee")).statusCode).toBe(200);
  });

  it("refuses a missing or unknown audience and an unknown language with 400, and strangers with 401", async () => {
    for (const query of ["", "?Role=boss", "?Role=employee&lang=it", "?Role=employee&x=1"]) {
      expect((await get(cast.tokens.employee, `/api/Tutorial${query}`)).statusCode, query).toBe(400);
    }
    expect((await get("", "/api/Tutorial?Role=employee")).statusCode).toBe(401);
  });
});

describe("tutorial screenshots", () => {
  it("are served with a bearer header or a ?token=, never without", async () => {
    const url = "/api/static/employee-tutorial/home-de_2x";
    const withHeader = await get(cast.tokens.employee, url);
    expect(withHeader.statusCode).toBe(200);
    expect(withHeader.headers["content-type"]).toBe("image/png");
    expect(withHeader.rawPayload.equals(PNG)).toBe(true);
    expect((await get("", `${url}?token=${cast.tokens.employee}`)).statusCode).toBe(200);
    expect((await get("", url)).statusCode).toBe(401);
    expect((await get("", `${url}?token=nonsense`)).statusCode).toBe(401);
  });

  it("of the staff version for staff only; an unknown one is 1009", async () => {
    const url = "/api/static/admin-tutorial/progress-de_2x";
    expect((await get(cast.tokens.supervisor, url)).statusCode).toBe(200);
    expect((await get("", `${url}?token=${cast.tokens.employee}`)).statusCode).toBe(403);
    const missing = await get(cast.tokens.employee, "/api/static/employee-tutorial/nothing-de_2x");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe(ErrorCode.imageNotFound);
    expect((await get(cast.tokens.employee, "/api/static/employee-tutorial/..%2F..%2Fetc")).statusCode).toBe(400);
  });
});

describe("the package's tutorial folder", () => {
  it("renders Markdown to sanitised HTML: no raw HTML, no script links, outside links in a new tab", () => {
    const html = renderTutorialMarkdown(
      "Text<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[Profil](/profile) [x](https://example.org) [y](javascript:alert(1))",
    );
    expect(html).not.toMatch(/script|onerror|<img|javascript/);
    expect(html).toContain('<a href="/profile">Profil</a>');
    expect(html).toContain('<a href="https://example.org" rel="noopener noreferrer" target="_blank">x</a>');
  });

  it("is validated with the rest of the package, every problem named by its file", () => {
    const problems = problemsOf(
      fixtureWith({
        "tutorial/employee/pages.yaml": "pages:\n  - key: start\n  - key: start\n  - key: Bad Key\n",
        "tutorial/employee/start.de.md": "No title here\n",
        "tutorial/employee/start.it.md": "# Italiano\n",
        "tutorial/employee/images/home.png": PNG,
        "tutorial/admin/pages.yaml": "pages:\n  - key: overview\n",
        "tutorial/guests/pages.yaml": "pages: []\n",
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tutorial\/employee\/pages\.yaml: pages\.2\.key: must be a lower-case slug/),
        "tutorial/admin/overview.de.md: file is missing (German is required)",
        "tutorial/guests: unknown audience (admin, employee)",
        "tutorial/employee/images/home.png: must be named <screen>-<lang>_2x.png (or .jpg, .webp)",
      ]),
    );
    const dup = problemsOf(
      fixtureWith({
        "tutorial/employee/pages.yaml": "pages:\n  - key: start\n  - key: start\n",
        "tutorial/employee/start.de.md": "No title here\n",
        "tutorial/employee/start.italiano.md": "# Italiano\n",
      }),
    );
    expect(dup).toEqual(
      expect.arrayContaining([
        "tutorial/employee/pages.yaml: pages.1.key: duplicate key start",
        "tutorial/employee/start.de.md: must start with its title as a level-one heading (# Title)",
        "tutorial/employee/start.italiano.md: not a page of pages.yaml in a language (<page>.<de|en|fr|es|br|tr|…>.md)",
      ]),
    );
  });

  it("the demo package ships both versions in all five languages", () => {
    const pkg = loadPackage(path.resolve(import.meta.dirname, "../../../../content/demo"));
    for (const audience of ["employee", "admin"] as const) {
      const pages = pkg.tutorial.filter((p) => p.audience === audience);
      const keys = [...new Set(pages.map((p) => p.key))];
      expect(keys.length, audience).toBeGreaterThanOrEqual(5);
      for (const key of keys) {
        expect(
          pages
            .filter((p) => p.key === key)
            .map((p) => p.language)
            .sort(),
          `${audience}/${key}`,
        ).toEqual(["br", "de", "en", "es", "fr"]);
      }
    }
  });
});
