import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, type EvidenceReport, isoDay } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import {
  bearer,
  createCast,
  createTestApp,
  createUser,
  login,
  type TestContext,
  type TestUser,
} from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainingMatrixHistory, trainings, users } from "../db/schema";

/*
 * The facility's evidence at a date (issue 29): certificates expiring, renewed and revoked, an
 * employee archived, an assignment changed and a person created later give the exact table for
 * a day before, between and after the changes (the test app's clock moves between them).
 */

const DAY = 86_400_000;
const ZONE = "Europe/Berlin";
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let t0: Date;
let ids: { haende: number; kurs: number; topic: number };
let e1: TestUser;
let e2: TestUser;
let e3: TestUser;
let e4: number;
const codes: Record<string, string> = {};
const day = (offset: number) => isoDay(new Date(t0.getTime() + offset * DAY), ZONE);

/** Fresh tokens at the clock's present (it moves: older ones have expired). */
async function relog() {
  for (const [who, user] of Object.entries(cast.users)) {
    cast.tokens[who as keyof typeof cast.tokens] = await login(ctx, user.login);
  }
}

const get = (token: string, query: string) =>
  ctx.app.inject({ method: "GET", url: `/api/evidence?${query}`, headers: bearer(token) });

async function certify(user: number, training: number, from: number, to: number, name: string, revoked = false) {
  const code = `EV${name.toUpperCase()}${crypto.randomUUID().slice(0, 6)}`;
  codes[name] = code;
  await ctx.deps.database.db.insert(certificates).values({
    userId: user,
    trainingId: training,
    acquiredAt: new Date(t0.getTime() + from * DAY),
    expiresAt: new Date(t0.getTime() + to * DAY),
    points: 10,
    verificationCode: code,
    ...(revoked ? { revokedAt: new Date(t0.getTime()), revokeReason: "issued_in_error" } : {}),
  });
}

/** Per training name: each person's surname → certificate code or "missing". */
function table(report: EvidenceReport) {
  return Object.fromEntries(
    report.trainings.map((t) => [
      t.name,
      {
        rate: [t.held, t.required],
        people: Object.fromEntries(t.people.map((p) => [p.surname, p.certificate?.code ?? "missing"])),
      },
    ]),
  );
}

beforeAll(async () => {
  ctx = await createTestApp();
  t0 = new Date(ctx.clock.now);
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [h] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  const [k] = await db.select().from(trainings).where(eq(trainings.key, "kurs"));
  ids = { haende: h?.id as number, kurs: k?.id as number, topic: h?.topicId as number };
  e1 = cast.users.employee;
  e2 = await createUser(ctx, ["employee"], cast.facilityA.id);
  e3 = await createUser(ctx, ["employee"], cast.facilityA.id);
  for (const [u, surname] of [
    [e1, "Eins"],
    [e2, "Zwei"],
    [e3, "Drei"],
  ] as const) {
    await db.update(users).set({ surname }).where(eq(users.id, u.id));
  }
  // E1: expires on day 8, renewed on day 7; E2: a revoked one and a valid passive one;
  // E3: an expired passive one, a new one on day 12.
  await certify(e1.id, ids.haende, -300, 8, "c1");
  await certify(e1.id, ids.haende, 7, 373, "c2");
  await certify(e2.id, ids.haende, -10, 355, "c3", true);
  await certify(e2.id, ids.kurs, -1, 100, "c4");
  await certify(e3.id, ids.kurs, -400, 3, "c6");
  await certify(e3.id, ids.haende, 12, 377, "c5");

  // Day 10: E3's matrix leaves out the passive course; a new employee (E4) is created.
  ctx.clock.now = new Date(t0.getTime() + 10 * DAY);
  await relog();
  const admin = cast.tokens.administrator;
  const matrix = await ctx.app.inject({
    method: "POST",
    url: "/api/filter/admin/trainingsmatrix",
    headers: bearer(admin),
    payload: { user_id: e3.id, topics: [{ topic_id: ids.topic, trainings: [{ training_id: ids.haende }] }] },
  });
  expect(matrix.statusCode, matrix.body).toBe(200);
  const created = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/admin/users",
    headers: bearer(admin),
    payload: { name: "Neu", surname: "Vier", login: "evidence.vier", password: "Neu-Pass-1!", roles: ["employee"] },
  });
  expect(created.statusCode, created.body).toBe(200);
  e4 = created.json().id;
  // Day 20: E2 leaves (archived).
  ctx.clock.now = new Date(t0.getTime() + 20 * DAY);
  await relog();
  const gone = await ctx.app.inject({
    method: "DELETE",
    url: `/api/auth/admin/users/${e2.id}`,
    headers: bearer(cast.tokens.administrator),
  });
  expect(gone.statusCode, gone.body).toBe(200);
  ctx.clock.now = new Date(t0.getTime() + 30 * DAY);
  await relog();
});
afterAll(() => ctx?.close());

describe("GET /api/evidence: the table at three dates", () => {
  it("before the changes (day 5): E1's first certificate, E2's revoked one missing, E3's expired", async () => {
    const res = await get(cast.tokens.administrator, `date=${day(5)}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as EvidenceReport;
    expect(report.facility).toEqual({ id: cast.facilityA.id, name: cast.facilityA.name });
    expect(report.date).toBe(day(5));
    expect(report.exact_from).toBe(day(0));
    expect(report.projected).toBe(false);
    expect(table(report)).toEqual({
      Händehygiene: { rate: [1, 3], people: { Eins: codes.c1, Zwei: "missing", Drei: "missing" } },
      Reanimationskurs: { rate: [1, 3], people: { Eins: "missing", Zwei: codes.c4, Drei: "missing" } },
    });
    const haende = report.trainings.find((t) => t.id === ids.haende);
    expect(haende?.rate).toBeCloseTo(1 / 3);
    // E2 was a member then and has left since.
    expect(haende?.people.find((p) => p.id === e2.id)?.former).toBe(true);
  });

  it("between (day 15): the renewal, E3's new certificate, E3 no longer required for the course, E4 required", async () => {
    const report = (await get(cast.tokens.administrator, `date=${day(15)}`)).json() as EvidenceReport;
    expect(table(report)).toEqual({
      Händehygiene: { rate: [2, 4], people: { Eins: codes.c2, Zwei: "missing", Drei: codes.c5, Vier: "missing" } },
      Reanimationskurs: { rate: [1, 3], people: { Eins: "missing", Zwei: codes.c4, Vier: "missing" } },
    });
  });

  it("after (day 25): E2 archived is no longer required", async () => {
    const report = (await get(cast.tokens.supervisor, `date=${day(25)}`)).json() as EvidenceReport;
    expect(table(report)).toEqual({
      Händehygiene: { rate: [2, 3], people: { Eins: codes.c2, Drei: codes.c5, Vier: "missing" } },
      Reanimationskurs: { rate: [0, 2], people: { Eins: "missing", Vier: "missing" } },
    });
    expect(report.trainings.find((t) => t.id === ids.kurs)?.rate).toBe(0);
  });

  it("before the history starts: projected, and nobody created later is required", async () => {
    const report = (await get(cast.tokens.administrator, `date=${day(-3)}`)).json() as EvidenceReport;
    expect(report.projected).toBe(true);
    expect(report.trainings.map((t) => [t.required, t.rate])).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it("filters by training and topic; the date defaults to today", async () => {
    const one = (await get(cast.tokens.administrator, `trainings=${ids.kurs}`)).json() as EvidenceReport;
    expect(one.date).toBe(day(30));
    expect(one.trainings.map((t) => t.id)).toEqual([ids.kurs]);
    const topic = (await get(cast.tokens.superchris, `facility=${cast.facilityA.id}&topics=${ids.topic}`)).json();
    expect(topic.trainings.map((t: { id: number }) => t.id).sort()).toEqual([ids.haende, ids.kurs].sort());
  });

  it("writes the matrix history: E3's periods, E2's closed at the archiving, E4's from their creation", async () => {
    const db = ctx.deps.database.db;
    const of = (id: number) =>
      db
        .select()
        .from(trainingMatrixHistory)
        .where(eq(trainingMatrixHistory.userId, id))
        .orderBy(trainingMatrixHistory.id);
    const e3Rows = await of(e3.id);
    expect(e3Rows.map((r) => [r.trainings, r.validTo?.getTime() ?? null])).toEqual([
      [null, t0.getTime() + 10 * DAY],
      [[ids.haende], null],
    ]);
    expect((await of(e2.id)).map((r) => r.validTo?.getTime())).toEqual([t0.getTime() + 20 * DAY]);
    expect((await of(e4)).map((r) => [r.validFrom.getTime(), r.facilityId])).toEqual([
      [t0.getTime() + 10 * DAY, cast.facilityA.id],
    ]);
  });
});

describe("GET /api/evidence: refusals", () => {
  it.each([
    ["employee", "", 403, ErrorCode.notAllowedToSeeEmployees],
    ["administratorB", `facility=${0}`, 404, ErrorCode.facilityNotFound],
    ["administrator", "date=2026-02-30", 400, ErrorCode.validation],
    ["administrator", "date=01.03.2026", 400, ErrorCode.validation],
    ["administrator", "date=2999-01-01", 400, ErrorCode.validation],
    ["administrator", "trainings=abc", 400, ErrorCode.validation],
    ["administrator", "trainings=999999", 404, ErrorCode.trainingNotFound],
    ["superchris", "", 400, ErrorCode.validation],
  ] as const)("%s ?%s → %i", async (who, query, status, code) => {
    const q = who === "administratorB" ? `facility=${cast.facilityA.id}` : query;
    const res = await get(cast.tokens[who], q);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error_code).toBe(code);
  });

  it("a download without a token is refused; another facility's file is unknown", async () => {
    const none = await ctx.app.inject({ method: "GET", url: "/api/evidence?format=pdf" });
    expect(none.statusCode).toBe(401);
    const other = await ctx.app.inject({
      method: "GET",
      url: `/api/evidence?format=xlsx&facility=${cast.facilityA.id}&token=${cast.tokens.administratorB}`,
    });
    expect(other.statusCode).toBe(404);
  });
});

describe("GET /api/evidence?format=pdf|xlsx", () => {
  it("the PDF reads back with pdftotext: installation, facility, day, codes, missing, rates, exact-from", async () => {
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/evidence?format=pdf&date=${day(15)}&token=${cast.tokens.administrator}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toContain(`${day(15)}.pdf`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-evidence-")), "e.pdf");
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    const dayDe = day(15).split("-").reverse().join(".");
    expect(text).toContain("CareCampus");
    expect(text).toContain(`Schulungsnachweis zum Stichtag ${dayDe}`);
    expect(text).toContain(cast.facilityA.name);
    expect(text).toContain(`Genau ab ${day(0).split("-").reverse().join(".")}`);
    expect(text).toMatch(/Verpflichtet: 4\s+Nachgewiesen: 2\s+Quote: 50 %/);
    expect(text).toMatch(/Verpflichtet: 3\s+Nachgewiesen: 1\s+Quote: 33\.3 %/);
    expect(text).toMatch(new RegExp(`Eins, Test\\s+${codes.c2}`));
    expect(text).toMatch(/Zwei, Test \(ausgeschieden\)\s+fehlt/);
    expect(text).not.toContain(codes.c3);
    expect(text).toMatch(/Erstellt am:\s+\d\d\.\d\d\.\d{4} \d\d:\d\d/);
  });

  it("the workbook reads back with exceljs: one row per person and training, the rates", async () => {
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/evidence?format=xlsx&date=${day(25)}&token=${cast.tokens.administrator}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    const values: unknown[][] = [];
    sheet.eachRow((row) => {
      values.push((row.values as unknown[]).slice(1));
    });
    expect(values[0]).toEqual(["Installation", "CareCampus"]);
    expect(values[1]).toEqual(["Einrichtung", cast.facilityA.name]);
    expect(values[2]).toEqual(["Stichtag", day(25).split("-").reverse().join(".")]);
    const rows = values.slice(values.findIndex((r) => r[0] === "Themenbereich") + 1);
    const people = rows.filter((r) => typeof r[2] === "string" && !(r[2] as string).startsWith("Verpflichtet"));
    expect(people.map((r) => [r[1], r[2], r[3]])).toEqual([
      ["Händehygiene", "Drei, Test", codes.c5],
      ["Händehygiene", "Eins, Test", codes.c2],
      ["Händehygiene", "Vier, Neu", "fehlt"],
      ["Reanimationskurs", "Eins, Test", "fehlt"],
      ["Reanimationskurs", "Vier, Neu", "fehlt"],
    ]);
    const rates = rows.filter((r) => typeof r[2] === "string" && (r[2] as string).startsWith("Verpflichtet"));
    expect(rates.map((r) => [r[1], r[2], r[3], r[5]])).toEqual([
      ["Händehygiene", "Verpflichtet: 3", "Nachgewiesen: 2", 2 / 3],
      ["Reanimationskurs", "Verpflichtet: 2", "Nachgewiesen: 0", 0],
    ]);
  });
});
