import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemsOf, writeFixture } from "../../test/content-fixture";
import { bearer, createFacility, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { questions, trainings } from "../db/schema";
import { ContentError, compareVersions, loadPackage } from "./package";
import { currentContentVersion, importPackage, sanitizeExplanation } from "./service";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe("content package validation", () => {
  it("accepts the fixture package", () => {
    const pkg = loadPackage(writeFixture());
    expect(pkg.trainings.map((t) => t.key)).toEqual(["haende", "kurs"]);
    expect(pkg.media.map((m) => `${m.kind}:${m.name}`)).toContain("video:film.mp4");
  });

  it.each([
    ["a missing topics file", { "topics.yaml": "" }, /topics\.yaml/],
    ["broken YAML", { "trainings/haende.yaml": "key: [unclosed" }, /trainings\/haende\.yaml: not valid YAML/],
    [
      "a bad key",
      { "trainings/Bad.yaml": "key: Bad\ntopic: hygiene\nname: X\nicon: haende\npassive: true\n" },
      /trainings\/Bad\.yaml: key: must be a lower-case slug/,
    ],
    [
      "an unknown topic",
      { "trainings/x.yaml": "key: x\ntopic: nope\nname: X\nicon: haende\npassive: true\n" },
      /trainings\/x\.yaml: topic: unknown topic nope/,
    ],
    [
      "a missing icon",
      { "trainings/x.yaml": "key: x\ntopic: hygiene\nname: X\nicon: nope\npassive: true\n" },
      /trainings\/x\.yaml: icon: icons\/nope\.svg does not exist/,
    ],
    [
      "two correct answers in a single-choice question",
      {
        "trainings/x.yaml":
          "key: x\ntopic: hygiene\nname: X\nicon: haende\nquestionnaires:\n  - key: '1'\n    name: '1'\n    questions:\n      - key: a\n        type: single\n        text: T\n        explanation: E\n        answers:\n          - text: A\n            correct: true\n          - text: B\n            correct: true\n",
      },
      /trainings\/x\.yaml: questionnaires\.0\.questions\.0\.answers: a single-choice question needs exactly one correct answer/,
    ],
    [
      "missing media",
      {
        "trainings/x.yaml":
          "key: x\ntopic: hygiene\nname: X\nicon: haende\nquestionnaires:\n  - key: '1'\n    name: '1'\n    questions:\n      - key: a\n        type: single\n        text: T\n        explanation: E\n        media:\n          image: fehlt.png\n        answers:\n          - text: A\n            correct: true\n          - text: B\n",
      },
      /questions\.0\.media\.image: media\/fehlt\.png does not exist/,
    ],
    [
      "an SVG with a script",
      { "media/evil.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
      /media\/evil\.svg: refused, the SVG contains <script>/,
    ],
    [
      "an unknown field",
      { "trainings/x.yaml": "key: x\ntopic: hygiene\nname: X\nicon: haende\npassive: true\ncolour: red\n" },
      /trainings\/x\.yaml: Unrecognized key/,
    ],
    [
      "a passive training with questionnaires",
      {
        "trainings/x.yaml":
          "key: x\ntopic: hygiene\nname: X\nicon: haende\npassive: true\nquestionnaires:\n  - key: '1'\n    name: '1'\n    questions: []\n",
      },
      /trainings\/x\.yaml: questionnaires/,
    ],
  ])("names the file and field for %s", (_name, files, pattern) => {
    const dir = writeFixture({ files: files as Record<string, string> });
    if ((files as Record<string, string>)["topics.yaml"] === "") fs.rmSync(path.join(dir, "topics.yaml"));
    const problems = problemsOf(dir);
    expect(problems.join("\n")).toMatch(pattern);
  });

  it("compares versions numerically", () => {
    expect(compareVersions("2026.11.10", "2026.11.9")).toBeGreaterThan(0);
    expect(compareVersions("1.0", "1.0.0")).toBe(0);
  });

  it("sanitises explanations", () => {
    const clean = sanitizeExplanation(
      '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a><img src=x onerror=y></p><script>z</script>',
    );
    expect(clean).toMatch(/^<p>Hi <a [^>]*>x<\/a><\/p>$/);
    expect(clean).not.toMatch(/onclick|javascript|img|script|onerror/);
    expect(sanitizeExplanation('<a href="https://www.rki.de">RKI</a>')).toContain('rel="noopener noreferrer"');
  });
});

describe("content import", () => {
  it("imports in one transaction and writes nothing for a bad package", async () => {
    const bad = writeFixture({
      files: { "trainings/x.yaml": "key: x\ntopic: nope\nname: X\nicon: haende\npassive: true\n" },
    });
    expect(() => loadPackage(bad)).toThrow(ContentError);
    expect(await currentContentVersion(ctx.deps.database.db)).toBeNull();

    const result = await importPackage(ctx.deps.database.db, loadPackage(writeFixture()));
    expect(result).toMatchObject({ status: "imported", version: "1.0.0", topics: 1, trainings: 2, questions: 4 });
    const [q] = await ctx.deps.database.db.select().from(questions).limit(1);
    expect(q?.explanation).not.toContain("<script>");
  });

  it("re-importing the same version changes nothing; an older one is refused", async () => {
    expect((await importPackage(ctx.deps.database.db, loadPackage(writeFixture()))).status).toBe("unchanged");
    await expect(importPackage(ctx.deps.database.db, loadPackage(writeFixture({ version: "0.9.0" })))).rejects.toThrow(
      /older than the imported version 1\.0\.0/,
    );
  });

  it("a newer version updates content by key and keeps ids, retiring what is gone", async () => {
    const db = ctx.deps.database.db;
    const before = await db.select().from(questions);
    await importPackage(db, loadPackage(writeFixture({ version: "1.1.0", v2: true })));
    const after = await db.select().from(questions);
    const byKey = (rows: typeof before, key: string) =>
      rows.find((r) => r.key === key && r.questionnaireId === before[0]?.questionnaireId);
    expect(byKey(after, "q1")?.id).toBe(byKey(before, "q1")?.id);
    expect(byKey(after, "q1")?.text).toContain("(neu)");
    expect(byKey(after, "q3")?.retired).toBe(true);
    expect(byKey(after, "q4")?.retired).toBe(false);
    expect((await db.select().from(trainings)).length).toBe(2);
  });

  it("GET /api/content/CurrentContentVersion reports the imported version", async () => {
    const f = await createFacility(ctx);
    const u = await createUser(ctx, ["employee"], f.id);
    const res = await ctx.app.inject({
      method: "GET",
      url: "/api/content/CurrentContentVersion",
      headers: bearer(await login(ctx, u.login)),
    });
    expect(res.json()).toEqual({ version: "1.1.0" });
    expect((await ctx.app.inject({ method: "GET", url: "/api/content/CurrentContentVersion" })).statusCode).toBe(401);
  });
});
