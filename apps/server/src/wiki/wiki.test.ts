import {
  ErrorCode,
  WIKI_ATTRIBUTES,
  WIKI_IMAGE_MAX_BYTES,
  WIKI_MARK_END,
  WIKI_MARK_START,
  WIKI_TAGS,
  type WikiConfirmations,
  type WikiDiff,
  type WikiPage,
  type WikiRevisionList,
  type WikiSearchResult,
  type WikiTree,
} from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { Parser } from "htmlparser2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { seedFirstStart } from "../bootstrap";
import { ContentError, loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { notifications, trainings, users, wikiPages } from "../db/schema";
import { DEMO_PASSWORD } from "../demo/seed";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const call = (method: Method, token: string, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
async function ok<T>(method: Method, token: string, url: string, payload?: unknown): Promise<T> {
  const res = await call(method, token, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json() as T;
}
const failsWith = async (
  status: number,
  code: number,
  method: Method,
  token: string,
  url: string,
  payload?: unknown,
) => {
  const res = await call(method, token, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  expect(res.json()).toMatchObject({ error_code: code, status_code: status });
  expect(res.body).not.toMatch(/at .*\.ts:\d+/); // never a stack trace
  return res;
};

const HAENDE_DE = `# Händehygiene

## Die fünf Momente

1. Vor dem Kontakt mit Bewohnerinnen und Bewohnern
2. Vor aseptischen Tätigkeiten

> [!WARNING]
> Vor jeder Desinfektion Schmuck ablegen.

| Schritt | Dauer |
|---|---|
| Einreiben | 30 Sekunden |
`;

/** A package with a wiki of two topics; `v2` changes one page and drops another. */
function wikiFixture(v2 = false) {
  const files: Record<string, string> = {
    "wiki/topics.yaml": "topics:\n  - key: hygiene\n    title: Hygiene\n  - key: brandschutz\n    title: Brandschutz\n",
    "wiki/hygiene/pages.yaml": "pages:\n  - key: haende\n    requires_confirmation: true\n",
    "wiki/hygiene/haende.de.md": v2 ? HAENDE_DE.replace("30 Sekunden", "mindestens 30 Sekunden") : HAENDE_DE,
    "wiki/hygiene/haende.en.md": "# Hand hygiene\n\nDisinfect your hands for 30 seconds.\n",
    "wiki/brandschutz/pages.yaml": v2
      ? "pages:\n  - key: alarmplan\n"
      : "pages:\n  - key: alarmplan\n  - key: loeschdecke\n",
    "wiki/brandschutz/alarmplan.de.md": "# Alarmplan\n\nRuhe bewahren. Brand melden: Notruf 112. Feuerlöscher holen.\n",
  };
  if (!v2) files["wiki/brandschutz/loeschdecke.de.md"] = "# Löschdecke\n\nDie Löschdecke hängt im Flur.\n";
  return writeFixture({ version: v2 ? "2.0.0" : "1.0.0", v2, files });
}

const tree = (token: string, query = "") => ok<WikiTree>("GET", token, `/wiki${query}`);
const page = (token: string, path: string, query = "") => ok<WikiPage>("GET", token, `/wiki/page/${path}${query}`);

beforeAll(async () => {
  // Wiki pages may also be written in content languages the interface does not speak (issue 31).
  ctx = await createTestApp({ env: { CONTENT_LANGUAGES: "en,fr,es,br,tr,ar" } });
  cast = await createCast(ctx);
  await importPackage(ctx.deps.database.db, loadPackage(wikiFixture()), ctx.clock.now);
});
afterAll(() => ctx.close());

describe("package import of wiki/", () => {
  it("imports the common pages released, in their languages, and shows them to everyone", async () => {
    const t = await tree(cast.tokens.employeeB);
    expect(t.topics.map((x) => x.key)).toEqual(["hygiene", "brandschutz"]);
    expect(t.topics[0]?.pages.map((p) => [p.slug, p.status, p.requires_confirmation])).toEqual([
      ["haende", "released", true],
    ]);
    const de = await page(cast.tokens.employee, "hygiene/haende");
    expect(de).toMatchObject({ title: "Händehygiene", lang: "de", languages: ["de", "en"], origin: "package" });
    expect(de.html).toContain('<div class="callout callout-warning" role="note">');
    expect(de.html).toContain("<table>");
    expect(de.html).not.toContain("[!WARNING]");
    expect(de.markdown).toBeNull(); // learners get no Markdown
    const en = await page(cast.tokens.employee, "hygiene/haende", "?lang=en");
    expect(en).toMatchObject({ title: "Hand hygiene", lang: "en" });
    // A language the page lacks shows German.
    expect(await page(cast.tokens.employee, "hygiene/haende", "?lang=fr")).toMatchObject({ lang: "de" });
  });

  it("refuses a package whose training links to a wiki page it does not have, naming the file", () => {
    const dir = writeFixture({
      files: {
        "wiki/topics.yaml": "topics:\n  - key: other\n    title: Other\n",
        "wiki/other/pages.yaml": "pages:\n  - key: x\n",
        "wiki/other/x.de.md": "# X\n",
      },
    });
    expect(() => loadPackage(dir)).toThrow(ContentError);
    try {
      loadPackage(dir);
    } catch (err) {
      expect((err as ContentError).problems.join("\n")).toContain(
        "wiki_link: /wiki/hygiene/haende is not a page of wiki/",
      );
    }
    const noTitle = writeFixture({
      files: {
        ...Object.fromEntries([
          ["wiki/topics.yaml", "topics:\n  - key: hygiene\n    title: H\n"],
          ["wiki/hygiene/pages.yaml", "pages:\n  - key: haende\n"],
        ]),
        "wiki/hygiene/haende.de.md": "no title\n",
      },
    });
    expect(() => loadPackage(noTitle)).toThrow(/haende\.de\.md: must start with its title/);
  });

  it("adds a revision only for changed package text, keeps app edits in the history, and retires dropped pages", async () => {
    const db = ctx.deps.database.db;
    const before = await page(cast.tokens.contentmanager, "hygiene/haende");
    // An edit in the app (not released) before the new package version.
    await ok("PUT", cast.tokens.contentmanager, `/wiki/pages/${before.id}`, {
      version: before.version,
      lang: "de",
      title: "Händehygiene",
      markdown: `${HAENDE_DE}\nErgänzung aus der App.\n`,
      summary: "App",
    });
    const alarm = await page(cast.tokens.employee, "brandschutz/alarmplan");
    await importPackage(db, loadPackage(wikiFixture(true)), ctx.clock.now);
    const after = await page(cast.tokens.contentmanager, "hygiene/haende");
    expect(after.revision.number).toBe(3);
    expect(after.markdown).toContain("mindestens 30 Sekunden");
    const history = await ok<WikiRevisionList>("GET", cast.tokens.contentmanager, `/wiki/pages/${after.id}/revisions`);
    expect(history.map((r) => [r.number, r.summary, r.released])).toEqual([
      [3, "Inhaltspaket 2.0.0", true],
      [2, "App", false],
      [1, "Inhaltspaket 1.0.0", false],
    ]);
    // Unchanged text: no new revision.
    expect((await page(cast.tokens.employee, "brandschutz/alarmplan")).revision.number).toBe(alarm.revision.number);
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.employee, "/wiki/page/brandschutz/loeschdecke");
    const [retired] = await db.select().from(wikiPages).where(eq(wikiPages.slug, "loeschdecke"));
    expect(retired?.retired).toBe(true);
  });
});

describe("rights", () => {
  let facilityPage: WikiPage;

  beforeAll(async () => {
    await ok("POST", cast.tokens.administrator, "/wiki/topics", {
      key: "unser-haus",
      title: "Unser Haus",
      facility: cast.facilityA.id,
    });
    facilityPage = await ok<WikiPage>("POST", cast.tokens.administrator, "/wiki/pages", {
      topic: "unser-haus",
      slug: "alarmplan",
      facility: cast.facilityA.id,
      title: "Unser Alarmplan",
      markdown: "Sammelplatz: Parkplatz vor Haus B.",
      requires_confirmation: true,
    });
  });

  it("lets a facility's administrator write its pages; drafts stay with the editors", async () => {
    expect(facilityPage).toMatchObject({ status: "draft", revision: { number: 1 }, can_edit: true, version: 1 });
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.employee, "/wiki/page/unser-haus/alarmplan");
    expect((await tree(cast.tokens.employee)).topics.some((t) => t.key === "unser-haus")).toBe(false);
    await ok("POST", cast.tokens.administrator, `/wiki/pages/${facilityPage.id}/release`, { version: 1 });
    const seen = await page(cast.tokens.employee, "unser-haus/alarmplan");
    expect(seen).toMatchObject({ status: "released", can_edit: false, confirmation: "missing" });
  });

  it("hides a facility's pages from every other facility (404), also by id, and from their search", async () => {
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.employeeB, "/wiki/page/unser-haus/alarmplan");
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.administratorB, "/wiki/page/unser-haus/alarmplan");
    await failsWith(404, ErrorCode.notFound, "POST", cast.tokens.employeeB, `/wiki/pages/${facilityPage.id}/confirm`, {
      revision: 1,
    });
    await failsWith(404, ErrorCode.notFound, "PUT", cast.tokens.administratorB, `/wiki/pages/${facilityPage.id}`, {
      version: 2,
      title: "x",
      markdown: "x",
    });
    await failsWith(
      404,
      ErrorCode.notFound,
      "GET",
      cast.tokens.administratorB,
      `/wiki/pages/${facilityPage.id}/confirmations`,
    );
    // Asking for another facility's view is an unknown facility.
    await failsWith(
      404,
      ErrorCode.facilityNotFound,
      "GET",
      cast.tokens.employeeB,
      `/wiki?facility=${cast.facilityA.id}`,
    );
    const found = await ok<WikiSearchResult>("GET", cast.tokens.employeeB, "/wiki/search?q=Sammelplatz");
    expect(found.hits).toEqual([]);
    const mine = await ok<WikiSearchResult>("GET", cast.tokens.employee, "/wiki/search?q=Sammelplatz");
    expect(mine.hits.map((h) => h.slug)).toEqual(["alarmplan"]);
    // Super-Admins see a facility's pages when they name it.
    expect((await tree(cast.tokens.contentmanager)).topics.some((t) => t.key === "unser-haus")).toBe(false);
    const cm = await tree(cast.tokens.contentmanager, `?facility=${cast.facilityA.id}`);
    expect(cm.topics.some((t) => t.key === "unser-haus")).toBe(true);
  });

  it("refuses editing to employees and supervisors, and common pages to administrators", async () => {
    const common = await page(cast.tokens.contentmanager, "brandschutz/alarmplan");
    const save = { version: common.version, title: "x", markdown: "x" };
    for (const who of ["employee", "supervisor", "administrator"] as const) {
      await failsWith(403, ErrorCode.forbidden, "PUT", cast.tokens[who], `/wiki/pages/${common.id}`, save);
      await failsWith(403, ErrorCode.forbidden, "POST", cast.tokens[who], "/wiki/pages", {
        topic: "brandschutz",
        slug: "neu",
        title: "Neu",
        markdown: "x",
      });
    }
    for (const who of ["employee", "supervisor"] as const) {
      await failsWith(403, ErrorCode.forbidden, "PUT", cast.tokens[who], `/wiki/pages/${facilityPage.id}`, save);
      await failsWith(403, ErrorCode.forbidden, "GET", cast.tokens[who], `/wiki/pages/${facilityPage.id}/revisions`);
    }
    await failsWith(403, ErrorCode.forbidden, "POST", cast.tokens.employee, "/wiki/topics", { key: "x", title: "X" });
    const t = await tree(cast.tokens.administrator);
    expect(t).toMatchObject({ can_edit_common: false, can_edit_facility: true });
    expect(await tree(cast.tokens.contentmanager)).toMatchObject({ can_edit_common: true, can_edit_facility: false });
    expect(await tree(cast.tokens.employee)).toMatchObject({ can_edit_common: false, can_edit_facility: false });
  });

  it("answers a slug already used in the topic with 409, and bad input with 400, changing nothing", async () => {
    await failsWith(409, ErrorCode.conflict, "POST", cast.tokens.administrator, "/wiki/pages", {
      topic: "unser-haus",
      slug: "alarmplan",
      facility: cast.facilityA.id,
      title: "Doppelt",
      markdown: "",
    });
    // A facility page may not hide a common page of the same name.
    await failsWith(409, ErrorCode.conflict, "POST", cast.tokens.administrator, "/wiki/pages", {
      topic: "brandschutz",
      slug: "alarmplan",
      facility: cast.facilityA.id,
      title: "Doppelt",
      markdown: "",
    });
    for (const body of [
      { topic: "unser-haus", slug: "Großbuchstaben", title: "x", markdown: "" },
      { topic: "unser-haus", slug: "ok", title: "", markdown: "" },
      { topic: "unser-haus", slug: "ok", title: "x", markdown: "\u0000" },
      { topic: "unser-haus", slug: "ok", title: "x", markdown: "", extra: 1 },
      { topic: "unser-haus", slug: "ok", title: "x", markdown: "x".repeat(200_001) },
    ]) {
      const res = await call("POST", cast.tokens.administrator, "/wiki/pages", {
        facility: cast.facilityA.id,
        ...body,
      });
      expect([400, 413], res.body).toContain(res.statusCode);
    }
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.employee, "/wiki/page/unser-haus/ok");
  });
});

describe("revisions, conflicts and release", () => {
  let p: WikiPage;

  beforeAll(async () => {
    await ok("POST", cast.tokens.contentmanager, "/wiki/topics", { key: "qm", title: "QM" });
    p = await ok<WikiPage>("POST", cast.tokens.contentmanager, "/wiki/pages", {
      topic: "qm",
      slug: "verfahren",
      title: "Verfahren",
      markdown: "Zeile eins\nZeile zwei\n",
      requires_confirmation: true,
      summary: "Anfang",
    });
    p = await ok<WikiPage>("POST", cast.tokens.contentmanager, `/wiki/pages/${p.id}/release`, { version: p.version });
  });

  it("keeps every save as a revision with author and summary, and shows learners only the released one", async () => {
    const saved = await ok<WikiPage>("PUT", cast.tokens.contentmanager, `/wiki/pages/${p.id}`, {
      version: p.version,
      title: "Verfahren",
      markdown: "Zeile eins\nZeile zwei geändert\nZeile drei\n",
      summary: "Ergänzt",
    });
    expect(saved).toMatchObject({ latest: 2, version: p.version + 1, revision: { number: 2, summary: "Ergänzt" } });
    expect(saved.revision.author).toMatch(/Test User/);
    const learner = await page(cast.tokens.employee, "qm/verfahren");
    expect(learner.revision.number).toBe(1);
    expect(learner.html).not.toContain("Zeile drei");
    // Learners cannot ask for the draft.
    expect((await page(cast.tokens.employee, "qm/verfahren", "?draft=true")).revision.number).toBe(1);
    expect((await page(cast.tokens.contentmanager, "qm/verfahren", "?draft=true")).revision.number).toBe(2);
    const tr = await tree(cast.tokens.contentmanager);
    expect(tr.topics.find((t) => t.key === "qm")?.pages[0]).toMatchObject({ has_draft: true, status: "released" });
    p = saved;
  });

  it("tells the second of two editors that the page changed and saves nothing of theirs", async () => {
    const stale = p.version - 1;
    const res = await failsWith(409, ErrorCode.conflict, "PUT", cast.tokens.superchris, `/wiki/pages/${p.id}`, {
      version: stale,
      title: "Verfahren",
      markdown: "Überschrieben",
    });
    expect(res.json().message).toMatch(/changed/);
    const now = await page(cast.tokens.contentmanager, "qm/verfahren", "?draft=true");
    expect(now.revision.number).toBe(2);
    expect(now.markdown).toContain("Zeile drei");
    await failsWith(409, ErrorCode.conflict, "POST", cast.tokens.contentmanager, `/wiki/pages/${p.id}/release`, {
      version: stale,
    });
  });

  it("shows a readable diff between two revisions and restores an earlier one as a new revision", async () => {
    const diff = await ok<WikiDiff>("GET", cast.tokens.contentmanager, `/wiki/pages/${p.id}/diff?from=1&to=2`);
    expect(diff).toMatchObject({ from: 1, to: 2, added: 2, removed: 1 });
    expect(diff.lines[0]).toEqual({ type: "same", text: "Zeile eins" });
    expect(diff.lines[1]).toMatchObject({ type: "changed", text: "Zeile zwei geändert" });
    expect(diff.lines[1]?.parts?.find((x) => x.type === "added")?.text).toContain("geändert");
    expect(diff.lines[2]).toEqual({ type: "added", text: "Zeile drei" });
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.contentmanager, `/wiki/pages/${p.id}/diff?from=1&to=9`);
    await failsWith(403, ErrorCode.forbidden, "GET", cast.tokens.employee, `/wiki/pages/${p.id}/diff?from=1&to=2`);
    const restored = await ok<WikiPage>("POST", cast.tokens.contentmanager, `/wiki/pages/${p.id}/restore`, {
      version: p.version,
      revision: 1,
    });
    expect(restored).toMatchObject({ latest: 3, revision: { number: 3 } });
    expect(restored.markdown).toBe("Zeile eins\nZeile zwei\n");
    const one = await ok<{ markdown: string }>("GET", cast.tokens.contentmanager, `/wiki/pages/${p.id}/revisions/2`);
    expect(one.markdown).toContain("Zeile drei");
    p = restored;
  });

  it("asks for a read confirmation of the released version, and again after a new release", async () => {
    const before = await page(cast.tokens.employee, "qm/verfahren");
    expect(before).toMatchObject({ confirmation: "missing", requires_confirmation: true });
    expect((await tree(cast.tokens.employee)).to_confirm).toBeGreaterThan(0);
    const confirmed = await ok<WikiPage>("POST", cast.tokens.employee, `/wiki/pages/${p.id}/confirm`, { revision: 1 });
    expect(confirmed.confirmation).toBe("confirmed");
    expect(confirmed.confirmed_at).not.toBeNull();
    // Twice is once.
    await ok("POST", cast.tokens.employee, `/wiki/pages/${p.id}/confirm`, { revision: 1 });
    // Super-Admins (no facility) are asked nothing.
    await failsWith(400, ErrorCode.validation, "POST", cast.tokens.contentmanager, `/wiki/pages/${p.id}/confirm`, {
      revision: 1,
    });
    const list = await ok<WikiConfirmations>("GET", cast.tokens.supervisor, `/wiki/pages/${p.id}/confirmations`);
    expect(list.rows.find((r) => r.user_id === cast.users.employee.id)).toMatchObject({
      state: "confirmed",
      revision: 1,
    });
    expect(list.rows.find((r) => r.user_id === cast.users.administrator.id)?.state).toBe("missing");
    expect(list.facility.id).toBe(cast.facilityA.id);

    p = await ok<WikiPage>("POST", cast.tokens.contentmanager, `/wiki/pages/${p.id}/release`, { version: p.version });
    expect(p.released?.number).toBe(3);
    const again = await page(cast.tokens.employee, "qm/verfahren");
    expect(again.confirmation).toBe("outdated");
    // Confirming the old version now is a conflict: a newer one was released.
    await failsWith(409, ErrorCode.conflict, "POST", cast.tokens.employee, `/wiki/pages/${p.id}/confirm`, {
      revision: 1,
    });
    const list2 = await ok<WikiConfirmations>("GET", cast.tokens.administrator, `/wiki/pages/${p.id}/confirmations`);
    expect(list2).toMatchObject({ revision: 3, confirmed: 0 });
    expect(list2.rows.find((r) => r.user_id === cast.users.employee.id)).toMatchObject({
      state: "outdated",
      revision: 1,
    });
  });

  it("lets staff remind the missing ones and export the list; employees and other facilities may not", async () => {
    const before = await ctx.deps.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, cast.users.employee.id), eq(notifications.type, "WIKI_CONFIRMATION_REMINDER")),
      );
    const { reminded } = await ok<{ reminded: number }>(
      "POST",
      cast.tokens.supervisor,
      `/wiki/pages/${p.id}/confirmations/remind`,
    );
    expect(reminded).toBeGreaterThanOrEqual(3);
    const after = await ctx.deps.database.db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.userId, cast.users.employee.id), eq(notifications.type, "WIKI_CONFIRMATION_REMINDER")),
      );
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)?.customMessage).toMatchObject({
      key: "notifications.wikiConfirmReminder",
      values: { topic: "qm", slug: "verfahren", revision: "3" },
    });
    await failsWith(
      403,
      ErrorCode.notAllowedToSeeEmployees,
      "GET",
      cast.tokens.employee,
      `/wiki/pages/${p.id}/confirmations`,
    );
    // A Super-Admin names the facility.
    await failsWith(
      400,
      ErrorCode.facilityRequired,
      "GET",
      cast.tokens.contentmanager,
      `/wiki/pages/${p.id}/confirmations`,
    );
    await ok("GET", cast.tokens.contentmanager, `/wiki/pages/${p.id}/confirmations?facility=${cast.facilityB.id}`);
    await failsWith(
      404,
      ErrorCode.facilityNotFound,
      "GET",
      cast.tokens.supervisor,
      `/wiki/pages/${p.id}/confirmations?facility=${cast.facilityB.id}`,
    );

    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/wiki/pages/${p.id}/confirmations/export?token=${cast.tokens.administrator}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="Kenntnisnahme-verfahren-Haus .*\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getCell("A1").value).toBe("Seite");
    expect(sheet?.getCell("B1").value).toBe("Verfahren");
    const states = [] as unknown[];
    sheet?.eachRow((row, n) => {
      if (n > 5) states.push(row.getCell(4).value);
    });
    expect(states).toContain("nur frühere Fassung");
  });

  it("writes names that look like formulas as text in the export", async () => {
    const evil = await createUser(ctx, ["employee"], cast.facilityA.id, { login: "=cmd|' /C calc'!A0" });
    await ctx.deps.database.db
      .update(users)
      .set({ surname: '=HYPERLINK("https://evil.example")', name: "+1" })
      .where(eq(users.id, evil.id));
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/wiki/pages/${p.id}/confirmations/export?token=${cast.tokens.administrator}`,
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: unknown[] = [];
    book.worksheets[0]?.eachRow((row) => row.eachCell((cell) => cells.push(cell.formula ?? cell.value)));
    expect(cells).toContain('\'=HYPERLINK("https://evil.example")');
    expect(cells).toContain("'+1");
    expect(cells).toContain("'=cmd|' /C calc'!A0");
    expect(cells.some((c) => typeof c === "object" && c !== null)).toBe(false);
  });
});

describe("a confirmation of a translation (issue 31)", () => {
  it("records the language read: one the released revision has; German is binding", async () => {
    const readerUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const otherUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const reader = await login(ctx, readerUser.login);
    const other = await login(ctx, otherUser.login);
    const haende = await page(reader, "hygiene/haende");
    expect(haende.languages).toEqual(["de", "en"]);
    const revision = haende.released?.number ?? 0;
    // French is not among the revision's languages.
    await failsWith(400, ErrorCode.validation, "POST", reader, `/wiki/pages/${haende.id}/confirm`, {
      revision,
      lang: "fr",
    });
    await ok("POST", reader, `/wiki/pages/${haende.id}/confirm`, { revision, lang: "en" });
    // Without a language: the one the page shows the reader (German for a German reader).
    await ok("POST", other, `/wiki/pages/${haende.id}/confirm`, { revision });
    const list = await ok<WikiConfirmations>("GET", cast.tokens.supervisor, `/wiki/pages/${haende.id}/confirmations`);
    const row = (id: number) => list.rows.find((r) => r.user_id === id);
    expect(row(readerUser.id)).toMatchObject({ state: "confirmed", revision, lang: "en" });
    expect(row(otherUser.id)).toMatchObject({ state: "confirmed", revision, lang: "de" });
    expect(list.rows.filter((r) => r.state === "missing").every((r) => r.lang === null)).toBe(true);
    // The workbook names the language read, in the reader's words.
    const res = await call("GET", cast.tokens.supervisor, `/wiki/pages/${haende.id}/confirmations/export`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values = (sheet?.getSheetValues() ?? []).map((r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(values[5]).toContain("Gelesen auf");
    expect(values.some((r) => r.includes("Englisch"))).toBe(true);
  });
});

describe("a wiki translation's status (issue 31)", () => {
  it("shows readers a translation once published and current; a German change outdates it, and they get German", async () => {
    const cm = cast.tokens.contentmanager;
    // A reader whose interface speaks English.
    const readerUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    await ok("PATCH", await login(ctx, readerUser.login), `/preferences/${readerUser.id}`, {
      property: "language",
      value: "en",
    });
    const reader = await login(ctx, readerUser.login);
    await ok("POST", cm, "/wiki/topics", { key: "uebersetzt", title: "Übersetzt" });
    const created = await ok<WikiPage>("POST", cm, "/wiki/pages", {
      topic: "uebersetzt",
      slug: "lueften",
      title: "Richtig lüften",
      markdown: "Stoßlüften, dreimal am Tag.",
    });
    const save = async (lang: string, title: string, markdown: string, status?: string) => {
      const now = await page(cm, "uebersetzt/lueften", `?draft=true&lang=${lang}`);
      return ok<WikiPage>("PUT", cm, `/wiki/pages/${created.id}`, {
        version: now.version,
        lang,
        title,
        markdown,
        ...(status && { status }),
      });
    };
    const release = async () => {
      const now = await page(cm, "uebersetzt/lueften", "?draft=true");
      await ok("POST", cm, `/wiki/pages/${created.id}/release`, { version: now.version });
    };
    const read = () => page(reader, "uebersetzt/lueften", "?lang=en");
    const treeTitle = async () =>
      (await ok<WikiTree>("GET", reader, "/wiki")).topics
        .find((t) => t.key === "uebersetzt")
        ?.pages.find((p) => p.slug === "lueften")?.title;

    // A new translation without a status is a draft: released, readers still get German, and why.
    const draft = await save("en", "Airing rooms", "Open the windows wide, three times a day.");
    expect(draft.translations).toEqual([{ lang: "en", status: "draft", outdated: false }]);
    await release();
    expect(await read()).toMatchObject({
      lang: "de",
      title: "Richtig lüften",
      languages: ["de"],
      fallback: "unpublished",
      translations: [],
    });
    expect(await treeTitle()).toBe("Richtig lüften");

    // Published: readers of English get it, the tree names it in English.
    await save("en", "Airing rooms", "Open the windows wide, three times a day.", "published");
    await release();
    expect(await read()).toMatchObject({ lang: "en", title: "Airing rooms", languages: ["de", "en"], fallback: null });
    expect(await treeTitle()).toBe("Airing rooms");

    // The German changes: the English is outdated (the editor says so), readers get German.
    const german = await save("de", "Richtig lüften", "Stoßlüften, viermal am Tag, jeweils fünf Minuten.");
    expect(german.translations).toEqual([{ lang: "en", status: "published", outdated: true }]);
    await release();
    const fallback = await read();
    expect(fallback).toMatchObject({ lang: "de", languages: ["de"], fallback: "outdated" });
    expect(await treeTitle()).toBe("Richtig lüften");
    // Confirming the outdated English is refused: it is not what readers are shown.
    await failsWith(400, ErrorCode.validation, "POST", reader, `/wiki/pages/${created.id}/confirm`, {
      revision: fallback.released?.number,
      lang: "en",
    });
    // Revised, it keeps its status and is current again.
    const revised = await save("en", "Airing rooms", "Open the windows wide, four times a day, five minutes each.");
    expect(revised.translations).toEqual([{ lang: "en", status: "published", outdated: false }]);
    await release();
    expect(await read()).toMatchObject({ lang: "en", fallback: null });
    expect(await treeTitle()).toBe("Airing rooms");
  });
});

describe("wiki pages in content languages beyond the interface's (issue 31)", () => {
  it("are written in a content language, read in the reader's chosen language by default, searched in it; others are refused", async () => {
    const cm = cast.tokens.contentmanager;
    const created = await ok<WikiPage>("POST", cm, "/wiki/pages", {
      topic: "uebersetzt",
      slug: "haende-waschen",
      title: "Hände waschen",
      markdown: "Mit Seife waschen, gründlich abspülen.",
    });
    const put = (lang: string, title: string, markdown: string, version: number) =>
      call("PUT", cm, `/wiki/pages/${created.id}`, { version, lang, title, markdown, status: "published" });
    // Not a language of the interface nor a content language here: refused, nothing saved.
    await failsWith(400, ErrorCode.validation, "PUT", cm, `/wiki/pages/${created.id}`, {
      version: created.version,
      lang: "pl",
      title: "Mycie rąk",
      markdown: "Myć mydłem.",
    });
    const tr = await put("tr", "Elleri yıkamak", "Sabunla yıkayın, iyice durulayın.", created.version);
    expect(tr.statusCode, tr.body).toBe(200);
    const ar = await put("ar", "غسل اليدين", "اغسل يديك بالصابون.", tr.json().version);
    expect(ar.json()).toMatchObject({ languages: ["de", "ar", "tr"] });
    await ok("POST", cm, `/wiki/pages/${created.id}/release`, { version: ar.json().version });

    // A reader who takes trainings in Turkish reads it in Turkish without asking, the tree too.
    const readerUser = await createUser(ctx, ["employee"], cast.facilityA.id);
    const reader = await login(ctx, readerUser.login);
    await ok("PATCH", reader, `/preferences/${readerUser.id}`, { property: "content_language", value: "tr" });
    expect(await page(reader, "uebersetzt/haende-waschen")).toMatchObject({
      lang: "tr",
      title: "Elleri yıkamak",
      languages: ["de", "ar", "tr"],
    });
    const tree = await ok<WikiTree>("GET", reader, "/wiki");
    const listed = tree.topics.find((t) => t.key === "uebersetzt")?.pages.find((p) => p.slug === "haende-waschen");
    expect(listed?.title).toBe("Elleri yıkamak");
    // Asked for another, it is shown in that one.
    expect((await page(reader, "uebersetzt/haende-waschen", "?lang=ar")).title).toBe("غسل اليدين");
    // Searched in Turkish (PostgreSQL's Turkish configuration): a stem finds it.
    const hits = await ok<WikiSearchResult>("GET", reader, "/wiki/search?q=sabunla&lang=tr");
    expect(hits.hits.map((h) => h.title)).toContain("Elleri yıkamak");
  });
});

describe("sanitisation", () => {
  const PAYLOADS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[klick](javascript:alert(1))",
    "[klick](JaVaScRiPt:alert(1))",
    "[klick](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[klick](vbscript:msgbox(1))",
    '[klick](https://example.org "x\\" onmouseover=\\"alert(1)")',
    "![bild](javascript:alert(1))",
    '![bild](https://example.org/a.png" onerror="alert(1))',
    "![bild](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    "<svg onload=alert(1)>",
    '<div class="callout callout-warning" onclick="alert(1)" style="position:fixed">x</div>',
    "> [!WARNING]\n> <img src=x onerror=alert(1)> text",
    "<style>body{display:none}</style>",
    '<form action="https://evil.example"><input name=p></form>',
    "<details open ontoggle=alert(1)>",
    "[x](//evil.example)",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  ];

  it.each(PAYLOADS)("leaves no script, handler, style or foreign scheme of %s", async (payload) => {
    const created = await ok<WikiPage>("POST", cast.tokens.contentmanager, "/wiki/pages", {
      topic: "qm",
      slug: `xss-${PAYLOADS.indexOf(payload)}`,
      title: "<script>alert(1)</script>Titel",
      markdown: `Text\n\n${payload}\n`,
    });
    // Read as a browser would: every element and attribute the HTML really has.
    const elements: { name: string; attribs: Record<string, string> }[] = [];
    new Parser({ onopentag: (name, attribs) => elements.push({ name, attribs }) }, { decodeEntities: true }).end(
      created.html,
    );
    for (const { name, attribs } of elements) {
      expect(WIKI_TAGS as readonly string[]).toContain(name);
      for (const [attr, value] of Object.entries(attribs)) {
        expect(WIKI_ATTRIBUTES[name] ?? []).toContain(attr);
        expect(attr).not.toMatch(/^on/);
        if (attr === "href") expect(value).toMatch(/^(https:\/\/|mailto:|\/(?!\/))/);
        if (attr === "src") expect(value).toMatch(/^\/api\/static\/wiki\/\d+$/);
      }
    }
    // The title is text, shown as text.
    expect(created.title).toBe("<script>alert(1)</script>Titel");
  });

  it("keeps what a handbook needs: headings, lists, tables, links, images of its own, callouts", async () => {
    const created = await ok<WikiPage>("POST", cast.tokens.contentmanager, "/wiki/pages", {
      topic: "qm",
      slug: "formatiert",
      title: "Formatiert",
      markdown:
        "# Oben\n\n## Abschnitt\n\n- a\n- b\n\n1. eins\n\n| A | B |\n|:--|--:|\n| 1 | 2 |\n\n[intern](/wiki/qm/verfahren) [extern](https://example.org)\n\n![Plan](/api/static/wiki/12) ![fremd](https://example.org/x.png)\n\n> [!NOTE]\n> Hinweis\n\n> Zitat\n",
    });
    expect(created.html).toContain("<h2>Oben</h2>"); // the page title is the only h1
    expect(created.html).toContain("<h2>Abschnitt</h2>");
    expect(created.html).toMatch(/<ul>\s*<li>a<\/li>/);
    expect(created.html).toContain('<th align="left">A</th>');
    expect(created.html).toContain('<a href="/wiki/qm/verfahren">intern</a>');
    expect(created.html).toContain(
      '<a href="https://example.org" rel="noopener noreferrer" target="_blank">extern</a>',
    );
    expect(created.html).toContain('<img src="/api/static/wiki/12" alt="Plan" />');
    // Pictures from elsewhere would not load under the page's CSP, and could track readers: gone.
    expect(created.html).not.toContain("example.org/x.png");
    expect(created.html).not.toContain('alt="fremd"');
    expect(created.html).toContain('<div class="callout callout-note" role="note">\n<p>Hinweis</p>');
    expect(created.html).toContain("<blockquote>");
  });
});

describe("images", () => {
  const PNG_1x1 = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  const upload = (token: string, body: Buffer, type: string, query = "") =>
    ctx.app.inject({
      method: "POST",
      url: `/api/wiki/images${query}`,
      headers: { ...bearer(token), "content-type": type },
      payload: body,
    });

  it("stores a checked raster image and serves it with the token rules, a facility's only there", async () => {
    const res = await upload(cast.tokens.administrator, PNG_1x1, "image/png");
    expect(res.statusCode, res.body).toBe(200);
    const { id, src, width, height } = res.json();
    expect({ src, width, height }).toEqual({ src: `/api/static/wiki/${id}`, width: 1, height: 1 });
    const own = await ctx.app.inject({ method: "GET", url: `${src}?token=${cast.tokens.employee}` });
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("image/png");
    expect(own.headers["x-content-type-options"]).toBe("nosniff");
    const other = await ctx.app.inject({ method: "GET", url: `${src}?token=${cast.tokens.employeeB}` });
    expect(other.statusCode).toBe(404);
    expect((await ctx.app.inject({ method: "GET", url: src })).statusCode).toBe(401);
    // A common image (Super-Admin) is everyone's.
    const common = (await upload(cast.tokens.contentmanager, PNG_1x1, "image/png")).json();
    expect(common.id).not.toBe(id);
    expect(
      (await ctx.app.inject({ method: "GET", url: `${common.src}?token=${cast.tokens.employeeB}` })).statusCode,
    ).toBe(200);
  });

  it("refuses SVG, bytes that are not the image they claim, other roles, and too large files", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    expect((await upload(cast.tokens.administrator, svg, "image/svg+xml")).statusCode).toBe(400);
    expect((await upload(cast.tokens.administrator, svg, "image/png")).statusCode).toBe(400);
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    expect((await upload(cast.tokens.administrator, html, "image/gif")).statusCode).toBe(400);
    expect((await upload(cast.tokens.administrator, PNG_1x1, "image/jpeg")).statusCode).toBe(400);
    expect([400, 415]).toContain((await upload(cast.tokens.administrator, PNG_1x1, "text/plain")).statusCode);
    const employee = await upload(cast.tokens.employee, PNG_1x1, "image/png");
    expect(employee.statusCode).toBe(403);
    const supervisor = await upload(cast.tokens.supervisor, PNG_1x1, "image/png");
    expect(supervisor.statusCode).toBe(403);
    const big = Buffer.concat([PNG_1x1, Buffer.alloc(WIKI_IMAGE_MAX_BYTES)]);
    const tooLarge = await upload(cast.tokens.administrator, big, "image/png");
    expect(tooLarge.statusCode).toBe(413);
    // Another facility's upload target is unknown.
    expect(
      (await upload(cast.tokens.administrator, PNG_1x1, "image/png", `?facility=${cast.facilityB.id}`)).statusCode,
    ).toBe(404);
  });
});

describe("search", () => {
  it("finds German words by their stem, ranks titles first, marks the matches, and leaves out what is not released", async () => {
    const res = await ok<WikiSearchResult>(
      "GET",
      cast.tokens.employee,
      `/wiki/search?q=${encodeURIComponent("Desinfektionen Schmuck")}`,
    );
    expect(res.hits[0]).toMatchObject({ topic: "hygiene", slug: "haende", title: "Händehygiene" });
    expect(res.hits[0]?.snippet).toContain(`${WIKI_MARK_START}Schmuck${WIKI_MARK_END}`);
    const draft = await ok<WikiPage>("POST", cast.tokens.contentmanager, "/wiki/pages", {
      topic: "qm",
      slug: "entwurf",
      title: "Entwurf",
      markdown: "Zauberwort Quastenflosser",
    });
    expect(
      (await ok<WikiSearchResult>("GET", cast.tokens.contentmanager, "/wiki/search?q=Quastenflosser")).hits,
    ).toEqual([]);
    await ok("POST", cast.tokens.contentmanager, `/wiki/pages/${draft.id}/release`, { version: draft.version });
    expect(
      (await ok<WikiSearchResult>("GET", cast.tokens.employeeB, "/wiki/search?q=Quastenflosser")).hits,
    ).toHaveLength(1);
    await ok("DELETE", cast.tokens.contentmanager, `/wiki/pages/${draft.id}`);
    expect((await ok<WikiSearchResult>("GET", cast.tokens.employeeB, "/wiki/search?q=Quastenflosser")).hits).toEqual(
      [],
    );
    await failsWith(404, ErrorCode.notFound, "GET", cast.tokens.employeeB, "/wiki/page/qm/entwurf");
  });

  it("searches the reader's language", async () => {
    const res = await ok<WikiSearchResult>("GET", cast.tokens.employee, "/wiki/search?q=disinfect&lang=en");
    expect(res.hits.map((h) => h.title)).toEqual(["Hand hygiene"]);
  });

  it("refuses queries too short, too long or malformed with 400", async () => {
    for (const q of ["a", "x".repeat(201)]) {
      await failsWith(400, ErrorCode.validation, "GET", cast.tokens.employee, `/wiki/search?q=${q}`);
    }
    // websearch syntax never fails, whatever the operators.
    const odd = await ok<WikiSearchResult>(
      "GET",
      cast.tokens.employee,
      `/wiki/search?q=${encodeURIComponent('"(( !! & |: ')}`,
    );
    expect(odd.hits).toEqual([]);
  });
});

describe("the demo handbook", () => {
  let demo: TestContext;
  beforeAll(async () => {
    demo = await createTestApp();
    await seedFirstStart(
      demo.deps.database.db,
      { demoData: true, adminPassword: undefined, timeZone: "Europe/Berlin" },
      demo.clock.now,
    );
  });
  afterAll(() => demo.close());

  const demoLogin = async (name: string) => {
    const res = await demo.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { login: name, password: DEMO_PASSWORD },
    });
    return (res.json() as { token: string }).token;
  };

  it("has a page behind every training's wiki link, and the hand-hygiene procedure with the five moments", async () => {
    const token = await demoLogin("employee");
    const links = await demo.deps.database.db
      .select({ link: trainings.wikiLink })
      .from(trainings)
      .where(eq(trainings.retired, false));
    expect(links.length).toBeGreaterThan(10);
    for (const { link } of links) {
      expect(link).toMatch(/^\/wiki\/[a-z0-9-]+\/[a-z0-9-]+$/);
      const res = await demo.app.inject({
        method: "GET",
        url: `/api${link?.replace("/wiki/", "/wiki/page/")}`,
        headers: bearer(token),
      });
      expect(res.statusCode, `${link}: ${res.body}`).toBe(200);
    }
    const hands = (
      await demo.app.inject({ method: "GET", url: "/api/wiki/page/hygiene/haendehygiene", headers: bearer(token) })
    ).json() as WikiPage;
    expect(hands.html).toMatch(/5 Momente|fünf Momente/i);
    // The interface's five and Turkish (issue 31: a content language of its own).
    expect(hands.languages).toEqual(["de", "en", "fr", "es", "br", "tr"]);
  });

  it("shows Haus Sonnenhof's own pages only in Haus Sonnenhof, with the supervisor's confirmation", async () => {
    const own = await demoLogin("employee");
    const other = await demoLogin("employee2");
    const page = await demo.app.inject({
      method: "GET",
      url: "/api/wiki/page/haus-sonnenhof/alarmplan",
      headers: bearer(own),
    });
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json() as WikiPage).confirmation).toBe("missing");
    const elsewhere = await demo.app.inject({
      method: "GET",
      url: "/api/wiki/page/haus-sonnenhof/alarmplan",
      headers: bearer(other),
    });
    expect(elsewhere.statusCode).toBe(404);
    const admin = await demoLogin("admin");
    const id = (page.json() as WikiPage).id;
    const list = (
      await demo.app.inject({ method: "GET", url: `/api/wiki/pages/${id}/confirmations`, headers: bearer(admin) })
    ).json() as WikiConfirmations;
    expect(list.rows.filter((r) => r.state === "confirmed").map((r) => r.login)).toEqual(["supervisor"]);
  });
});
