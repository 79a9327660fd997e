import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, zonedTime } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainingMatrices, trainingMatrixEntries, trainings, users } from "../db/schema";
import { insertUser } from "../users/service";
import { exportFileName, safeText } from "./xlsx";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let activeId: number;
let topicId: number;
const DAY = 86_400_000;
const HOSTILE = ['=HYPERLINK("http://evil.example","klick")', "+1", "@SUM(1)", "-2+3", "\tTab"];

beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.now = zonedTime(ctx.deps.config.timeZone, 2026, 11, 22, 12);
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [a] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  activeId = a?.id ?? 0;
  topicId = a?.topicId ?? 0;
  // Learners whose names try to become formulas, each with a certificate in another state.
  const [hash] = await db.select({ h: users.passwordHash }).from(users).limit(1);
  for (const [i, surname] of HOSTILE.entries()) {
    const id = await insertUser(
      db,
      { login: `hostile${i}`, name: "Eve", surname, password: "", roles: ["employee"], facilityId: cast.facilityA.id },
      hash?.h,
    );
    await db.insert(certificates).values({
      userId: id,
      trainingId: activeId,
      acquiredAt: new Date(ctx.clock.now.getTime() - 300 * DAY),
      expiresAt: new Date(ctx.clock.now.getTime() + ([40, 20, 5, 0, 100][i] ?? 0) * DAY),
      points: 0,
      verificationCode: `X${i}${crypto.randomUUID()}`,
    });
  }
});
afterAll(() => ctx.close());

const download = (token: string, query = "") =>
  ctx.app.inject({ url: `/api/progress/admin/export/xlsx?token=${encodeURIComponent(token)}${query}` });
/** The export of facility A, as a superuser asks for it (the export is theirs and the Super-Admins', spec §6). */
const downloadA = (query = "") =>
  download(cast.tokens.superchris, `&facilityName=${encodeURIComponent(cast.facilityA.name)}${query}`);

function sheetsXml(buffer: Buffer): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-xlsx-"));
  try {
    const file = path.join(dir, "export.xlsx");
    fs.writeFileSync(file, buffer);
    const list = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).split("\n");
    return list
      .filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
      .map((name) => execFileSync("unzip", ["-p", file, name], { encoding: "utf8" }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function readBook(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  return book;
}

describe("GET /api/progress/admin/export/xlsx", () => {
  it("is a real workbook: legend, a sheet per topic, dates, colours, frozen header, filter", async () => {
    const res = await downloadA();
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    expect(res.headers["content-disposition"]).toContain(
      exportFileName(cast.facilityA.name, ctx.clock.now, ctx.deps.config.timeZone),
    );
    expect(res.headers["content-disposition"]).toContain("2026-11-22");
    const book = await readBook(res.rawPayload);
    expect(book.worksheets.map((s) => s.name)).toEqual(["Legende", "Hygiene"]);
    const sheet = book.getWorksheet("Hygiene") as ExcelJS.Worksheet;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      "Nachname",
      "Vorname",
      "Einrichtung",
      "Händehygiene",
      "Reanimationskurs",
    ]);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", xSplit: 2, ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();

    const rowOf = (surname: string) => {
      let found: ExcelJS.Row | undefined;
      sheet.eachRow((row) => {
        if (row.getCell(1).value === surname) found = row;
      });
      if (!found) throw new Error(`no row for ${surname}`);
      return found;
    };
    const expiry = rowOf(safeText("+1")).getCell(4);
    expect(expiry.value).toBeInstanceOf(Date);
    expect((expiry.value as Date).toISOString().slice(0, 10)).toBe("2026-12-12");
    expect(expiry.numFmt).toBe("dd.mm.yyyy");
    const fillOf = (surname: string) => (rowOf(safeText(surname)).getCell(4).fill as ExcelJS.FillPattern).fgColor?.argb;
    expect(fillOf(HOSTILE[0] as string)).toBe("FFB7E4C7"); // 40 days: green
    expect(fillOf("+1")).toBe("FFFFF1A6"); // 20 days: yellow
    expect(fillOf("@SUM(1)")).toBe("FFFDD0A2"); // 5 days: orange
    expect(fillOf("-2+3")).toBe("FFF8B4B4"); // today: red
    // Never acquired: empty and red.
    expect(rowOf(safeText("+1")).getCell(5).value).toBeNull();
  });

  it("greys the trainings a learner's matrix leaves out and leaves out learners without any", async () => {
    const db = ctx.deps.database.db;
    const [hash] = await db.select({ h: users.passwordHash }).from(users).limit(1);
    const [reanimation] = await db.select().from(trainings).where(eq(trainings.name, "Reanimationskurs"));
    const learner = (login: string, surname: string) =>
      insertUser(
        db,
        { login, name: "Mia", surname, password: "", roles: ["employee"], facilityId: cast.facilityA.id },
        hash?.h,
      );
    const onlyOne = await learner("matrix-one", "Nur-Reanimation");
    const none = await learner("matrix-none", "Ohne-Hygiene");
    await db.insert(trainingMatrices).values([{ userId: onlyOne }, { userId: none }]);
    await db.insert(trainingMatrixEntries).values({ userId: onlyOne, trainingId: reanimation?.id ?? 0 });

    const book = await readBook((await downloadA()).rawPayload);
    const sheet = book.getWorksheet("Hygiene") as ExcelJS.Worksheet;
    const surnames: unknown[] = [];
    let row: ExcelJS.Row | undefined;
    sheet.eachRow((r) => {
      surnames.push(r.getCell(1).value);
      if (r.getCell(1).value === "Nur-Reanimation") row = r;
    });
    expect(surnames).not.toContain("Ohne-Hygiene");
    const fill = (cell: ExcelJS.Cell) => (cell.fill as ExcelJS.FillPattern).fgColor?.argb;
    expect(row?.getCell(4).value).toBeNull();
    expect(fill(row?.getCell(4) as ExcelJS.Cell)).toBe("FFE9ECEF"); // not assigned: grey
    expect(fill(row?.getCell(5) as ExcelJS.Cell)).toBe("FFF8B4B4"); // assigned, never acquired: red
  });

  it("is sent as it is to a browser that accepts compression (an xlsx is zipped already)", async () => {
    const res = await ctx.app.inject({
      url: `/api/progress/admin/export/xlsx?token=${encodeURIComponent(cast.tokens.superchris)}&facilityName=${encodeURIComponent(cast.facilityA.name)}`,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect((await readBook(res.rawPayload)).worksheets.length).toBeGreaterThan(1);
  });

  it("writes no formula, whatever the names, and keeps them as text with an apostrophe", async () => {
    const res = await downloadA();
    const xml = sheetsXml(res.rawPayload).join("\n");
    expect(xml).not.toMatch(/<f[ >]/);
    const text = xml
      .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
      .replaceAll("&apos;", "'")
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    for (const name of HOSTILE) expect(text.includes(`<v>'${name}</v>`), name).toBe(true);
    const sheet = (await readBook(res.rawPayload)).getWorksheet("Hygiene") as ExcelJS.Worksheet;
    const surnames: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) surnames.push(String(row.getCell(1).value));
    });
    expect(surnames).toEqual(expect.arrayContaining(HOSTILE.map((h) => `'${h}`)));
  });

  it("scopes rows like the overview and names the facility", async () => {
    const surnamesOf = async (token: string, query = "") => {
      const res = await download(token, query);
      expect(res.statusCode).toBe(200);
      const sheet = (await readBook(res.rawPayload)).getWorksheet("Hygiene") as ExcelJS.Worksheet;
      const facilities = new Set<string>();
      sheet.eachRow((row, n) => {
        if (n > 1) facilities.add(String(row.getCell(3).value));
      });
      return facilities;
    };
    expect(await surnamesOf(cast.tokens.contentmanager)).toEqual(new Set([cast.facilityA.name, cast.facilityB.name]));
    const onlyB = await download(cast.tokens.superchris, `&facilityName=${encodeURIComponent(cast.facilityB.name)}`);
    expect(onlyB.headers["content-disposition"]).toContain(cast.facilityB.name.replaceAll(" ", "-"));
    expect(
      await surnamesOf(cast.tokens.superchris, `&facilityName=${encodeURIComponent(cast.facilityB.name)}`),
    ).toEqual(new Set([cast.facilityB.name]));
  });

  it("refuses employees, other facilities, unknown topics and missing tokens", async () => {
    const employee = await download(cast.tokens.employee);
    expect(employee.statusCode).toBe(403);
    expect(employee.json().error_code).toBe(ErrorCode.notAllowedToSeeEmployees);
    // Administrators and supervisors see the overview, but the export is not theirs (spec §6).
    for (const who of ["administrator", "supervisor"] as const) {
      const refused = await download(cast.tokens[who]);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error_code).toBe(ErrorCode.forbidden);
    }
    const unknown = await download(cast.tokens.contentmanager, "&facilityName=Nirgendwo");
    expect(unknown.statusCode).toBe(404);
    expect((await downloadA("&topicId=999999")).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: "/api/progress/admin/export/xlsx" })).statusCode).toBe(401);
    // The token may come in the header too; one topic gives the legend and that topic's sheet.
    const header = await ctx.app.inject({
      url: `/api/progress/admin/export/xlsx?topicId=${topicId}&facilityName=${encodeURIComponent(cast.facilityA.name)}`,
      headers: bearer(cast.tokens.contentmanager),
    });
    expect(header.statusCode).toBe(200);
    expect((await readBook(header.rawPayload)).worksheets).toHaveLength(2);
  });
});

describe("safeText", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+49 170", "'+49 170"],
    ["-", "'-"],
    ["@x", "'@x"],
    ["\rx", "'\rx"],
    ["Müller", "Müller"],
    ["", ""],
  ])("%j → %j", (input, output) => {
    expect(safeText(input)).toBe(output);
  });
});
