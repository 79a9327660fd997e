// The data export, erasure requests and the retention job (issue 28, GDPR Art. 15, 17, 20), on
// PGlite and (TEST_DB=pg) PostgreSQL.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ErasureAnswer, ErrorCode, EXPORT_CATEGORIES, zonedTime } from "@carecampus/contract";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import {
  bearer,
  createCast,
  createFacility,
  createTestApp,
  createUser,
  login,
  type TestContext,
} from "../../test/helpers";
import { actorRole, recordAudit, verifyAuditChain } from "../audit/record";
import { issueCertificate } from "../certificates/service";
import { loadConfig } from "../config";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import {
  auditLog,
  calendarEvents,
  calendarFeeds,
  calendarInvitees,
  certificates,
  helpReplies,
  helpRequests,
  mailOutbox,
  notifications,
  preferences,
  questionnaires,
  questions,
  quizAttempts,
  rateLimits,
  trainingMatrices,
  trainingMatrixEntries,
  trainings,
  users,
  wikiConfirmations,
  wikiPages,
  wikiTopics,
} from "../db/schema";
import { JOB_NAMES } from "../jobs/catalogue";
import { startJobRunner } from "../jobs/runner";
import { retentionPeriod } from "./retention";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let content: { training: number; topic: number; questionnaire: number; question: number };
const ZONE = "Europe/Berlin";
const db = () => ctx.deps.database.db;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  await importPackage(db(), loadPackage(writeFixture()));
  const [training] = await db().select().from(trainings).where(eq(trainings.passive, false)).limit(1);
  const [questionnaire] = await db()
    .select()
    .from(questionnaires)
    .where(eq(questionnaires.trainingId, training?.id ?? 0))
    .limit(1);
  const [question] = await db()
    .select()
    .from(questions)
    .where(eq(questions.questionnaireId, questionnaire?.id ?? 0))
    .limit(1);
  content = {
    training: training?.id ?? 0,
    topic: training?.topicId ?? 0,
    questionnaire: questionnaire?.id ?? 0,
    question: question?.id ?? 0,
  };
});
afterAll(() => ctx?.close());

interface Person {
  id: number;
  login: string;
  name: string;
  surname: string;
  email: string;
  token: string;
}

/** A user with a name, login and e-mail no one else has, logged in. */
async function person(
  roles: ("employee" | "supervisor" | "administrator")[],
  facilityId: number,
  name: string,
  surname: string,
): Promise<Person> {
  const loginName = `${name}.${surname}`.toLowerCase();
  const email = `${loginName}@example.org`;
  const u = await createUser(ctx, roles, facilityId, { login: loginName, email });
  await db().update(users).set({ name, surname }).where(eq(users.id, u.id));
  return { id: u.id, login: loginName, name, surname, email, token: await login(ctx, loginName) };
}

const actorOf = (p: Person, facilityId: number, roles: ("employee" | "supervisor" | "administrator")[]) => ({
  id: p.id,
  login: p.login,
  name: p.name,
  surname: p.surname,
  roles,
  facilityId,
  language: "de" as const,
});

/**
 * Data of `p` in every export category; `other` replies to p's help request, organises the
 * training date p is invited to and edits p (an audit entry), so p's rows meet another person.
 */
async function seedEverything(p: Person, other: Person, facilityId: number, now: Date) {
  const d = db();
  await d.update(preferences).set({ language: "en", theme: "dark" }).where(eq(preferences.userId, p.id));
  await d.insert(trainingMatrices).values({ userId: p.id, updatedBy: other.id });
  await d.insert(trainingMatrixEntries).values({ userId: p.id, trainingId: content.training });
  await d.insert(quizAttempts).values({
    userId: p.id,
    questionnaireId: content.questionnaire,
    questionId: content.question,
    cycle: 1,
    round: 1,
    correct: true,
    answerIds: [1],
  });
  await d.transaction((tx) =>
    issueCertificate(tx, p.id, { id: content.training, validityMonths: 12, points: 5, newest: null }, now, ZONE),
  );
  const [reply] = await d
    .insert(helpReplies)
    .values({
      questionId: content.question,
      authorId: other.id,
      authorName: `${other.name} ${other.surname}`,
      text: `30 Sekunden, Fall ${p.id}`,
    })
    .returning();
  await d.insert(helpRequests).values({
    userId: p.id,
    questionId: content.question,
    facilityId,
    handledAt: now,
    handledBy: other.id,
    replyId: reply?.id ?? null,
  });
  const [topic] = await d
    .insert(wikiTopics)
    .values({ key: `t-${p.id}`, title: "Hygiene", facilityId })
    .returning();
  const [page] = await d
    .insert(wikiPages)
    .values({ topicId: topic?.id ?? 0, slug: `page-${p.id}`, facilityId, releasedRevision: 1, latestRevision: 1 })
    .returning();
  await d.insert(wikiConfirmations).values({ pageId: page?.id ?? 0, userId: p.id, revision: 1, confirmedAt: now });
  const [event] = await d
    .insert(calendarEvents)
    .values({
      facilityId,
      topicId: content.topic,
      trainingId: content.training,
      label: `Hygienetag ${p.id}`,
      color: "#0f766e",
      allDay: true,
      startsAt: now,
      endsAt: new Date(now.getTime() + 86_400_000),
      organiserId: other.id,
    })
    .returning();
  await d.insert(calendarInvitees).values({ eventId: event?.id ?? 0, userId: p.id, attended: true });
  await d.insert(notifications).values({
    userId: p.id,
    type: "CERTIFICATE_EXPIRES",
    customMessage: { key: "expires", values: { training: "Händehygiene" } },
  });
  await d.transaction((tx) =>
    recordAudit(
      tx,
      {
        kind: "user.updated",
        actor: actorOf(other, facilityId, ["supervisor"]),
        facilityId,
        subjectId: p.id,
        data: { fields: ["surname"] },
        personal: { subject: `${p.name} ${p.surname}` },
      },
      now,
    ),
  );
}

/** The ZIP of an export answer, its entries and each text entry's content. */
function readZip(body: Buffer): { names: string[]; text: (name: string) => string; file: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-export-")), "export.zip");
  fs.writeFileSync(file, body);
  const list = spawnSync("unzip", ["-Z1", file], { encoding: "utf8" });
  expect(list.status, list.stderr).toBe(0);
  const names = list.stdout.split("\n").filter(Boolean);
  const text = (name: string) => {
    const out = spawnSync("unzip", ["-p", file, name], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(out.status, out.stderr).toBe(0);
    return out.stdout;
  };
  return { names, text, file };
}

describe("the data export", () => {
  let anna: Person;
  let bruno: Person;
  beforeAll(async () => {
    const facility = cast.facilityA.id;
    ctx.clock.now = zonedTime(ZONE, 2026, 3, 10, 9);
    anna = await person(["employee"], facility, "Annegret", "Quellwasser");
    bruno = await person(["supervisor"], facility, "Bruno", "Zaunkönig");
    await seedEverything(anna, bruno, facility, ctx.clock.now);
    await seedEverything(bruno, anna, facility, ctx.clock.now);
  });

  it("holds every category with the person's rows, the summary and the certificate PDFs, and nothing of another person", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/account/export", headers: bearer(anna.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toContain(`CareCampus-${anna.login}-2026-03-10.zip`);
    const zip = readZip(res.rawPayload);
    for (const c of EXPORT_CATEGORIES) expect(zip.names).toContain(`data/${c}.json`);
    expect(zip.names).toContain("summary.html");
    const pdfs = zip.names.filter((n) => n.startsWith("certificates/") && n.endsWith(".pdf"));
    expect(pdfs).toHaveLength(1);

    const data = Object.fromEntries(
      EXPORT_CATEGORIES.map((c) => [c, JSON.parse(zip.text(`data/${c}.json`)) as Record<string, unknown[]>]),
    );
    // Every category has rows of Anna.
    for (const c of EXPORT_CATEGORIES) {
      const rows = Object.values(data[c] ?? {}).flat();
      expect(rows.length, `${c} has rows`).toBeGreaterThan(0);
    }
    expect(data.profile?.users).toEqual([expect.objectContaining({ login: anna.login, email: anna.email })]);
    expect(data.preferences?.preferences).toEqual([expect.objectContaining({ language: "en", theme: "dark" })]);
    expect(data.help?.["help_replies (received)"]).toEqual([
      {
        id: expect.any(Number),
        question_id: content.question,
        text: `30 Sekunden, Fall ${anna.id}`,
        created_at: expect.any(String),
      },
    ]);
    expect(data.audit?.audit_log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject_id: anna.id, personal: { subject: "Annegret Quellwasser" } }),
      ]),
    );

    // Nothing of Bruno: not his name, login, e-mail or id as the one who acted; no secrets.
    const texts = zip.names.filter((n) => !n.endsWith(".pdf")).map((n) => zip.text(n));
    const all = texts.join("\n");
    for (const needle of [bruno.name, bruno.surname, bruno.login, bruno.email]) expect(all).not.toContain(needle);
    expect(all).not.toContain("password_hash");
    expect(all).not.toContain("verification_code");
    expect(JSON.stringify(data.help)).not.toContain(`"handled_by"`);
    expect(JSON.stringify(data.progress)).not.toContain(`"updated_by"`);

    // The summary speaks Anna's language (her preference: English) and lists her certificate.
    const summary = zip.text("summary.html");
    expect(summary).toContain('<html lang="en">');
    expect(summary).toContain("Your data in CareCampus");
    expect(summary).toContain("Annegret Quellwasser");
    expect(summary).toContain(pdfs[0]);
    // The certificate PDF is the real one, with her name.
    const pdfText = spawnSync("sh", ["-c", `unzip -p "${zip.file}" "${pdfs[0]}" | pdftotext - -`], {
      encoding: "utf8",
    });
    expect(pdfText.stdout).toContain("Annegret Quellwasser");
  });

  it("gives the actor's side of the rows a person acted on: their reply and their own name, not whom it was about", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/account/export", headers: bearer(bruno.token) });
    expect(res.statusCode).toBe(200);
    const zip = readZip(res.rawPayload);
    const help = JSON.parse(zip.text("data/help.json")) as Record<string, Record<string, unknown>[]>;
    expect(help.help_replies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ author_name: "Bruno Zaunkönig", text: `30 Sekunden, Fall ${anna.id}` }),
      ]),
    );
    const audit = JSON.parse(zip.text("data/audit.json")) as Record<string, Record<string, unknown>[]>;
    const byBruno = audit.audit_log?.filter((e) => e.actor_id === bruno.id && e.kind === "user.updated") ?? [];
    expect(byBruno.length).toBeGreaterThan(0);
    for (const e of byBruno) {
      expect(e.personal).toEqual({ actor: "Bruno Zaunkönig" });
      expect(e).not.toHaveProperty("subject_id");
    }
  });

  it("lets staff export a person in their scope, also after they left, and records it", async () => {
    await db().update(users).set({ archivedAt: ctx.clock.now }).where(eq(users.id, anna.id));
    try {
      const res = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/admin/users/${anna.id}/export?token=${cast.tokens.administrator}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(readZip(res.rawPayload).names).toContain("data/certificates.json");
      const [entry] = await db()
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.kind, "user.exported"),
            eq(auditLog.subjectId, anna.id),
            eq(auditLog.actorId, cast.users.administrator.id),
          ),
        );
      expect(entry?.data).toEqual({ by: "staff" });
    } finally {
      await db().update(users).set({ archivedAt: null }).where(eq(users.id, anna.id));
    }
  });

  it("refuses staff without the right and people outside the scope", async () => {
    const as = (token: string, id: number) =>
      ctx.app.inject({ method: "GET", url: `/api/auth/admin/users/${id}/export`, headers: bearer(token) });
    const employee = await as(cast.tokens.employee, anna.id);
    expect(employee.statusCode).toBe(403);
    expect(employee.json().error_code).toBe(ErrorCode.forbidden);
    const otherFacility = await as(cast.tokens.administratorB, anna.id);
    expect(otherFacility.statusCode).toBe(404);
    expect(otherFacility.json().error_code).toBe(ErrorCode.userNotFound);
    expect((await as(cast.tokens.administrator, 999_999)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: "GET", url: "/api/account/export" })).statusCode).toBe(401);
  });
});

describe("erasure requests", () => {
  const request = (token: string, id?: number) =>
    ctx.app.inject({
      method: "POST",
      url: id === undefined ? "/api/account/erasure-request" : `/api/auth/admin/users/${id}/erasure`,
      headers: bearer(token),
    });

  it("of a current employee erases what proves nothing at once and keeps the training record while they work there", async () => {
    ctx.clock.now = zonedTime(ZONE, 2026, 5, 4, 10);
    const carla = await person(["employee"], cast.facilityA.id, "Carla", "Wendehals");
    await seedEverything(
      carla,
      await person(["supervisor"], cast.facilityA.id, "Dora", "Nebelhorn"),
      cast.facilityA.id,
      ctx.clock.now,
    );
    await db()
      .insert(calendarFeeds)
      .values({ userId: carla.id, secretHash: `hash-${carla.id}` });
    await db()
      .insert(rateLimits)
      .values({ key: `rename:${carla.id}`, hits: 1, windowStart: ctx.clock.now });
    await db()
      .insert(mailOutbox)
      .values({ recipients: [carla.email], subject: "x", text: "y" });

    const res = await request(carla.token);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as ErasureAnswer;
    expect(answer).toEqual({
      user_id: carla.id,
      outcome: "partial",
      erased: expect.arrayContaining(["preferences", "notifications", "calendar-feed", "security-counters", "mails"]),
      kept: expect.arrayContaining(["profile", "certificates", "answers", "confirmations", "calendar", "audit"]),
      grounds: ["training-record", "employment"],
      kept_until: null,
      retention_years: 5,
    });
    expect(answer.kept).not.toContain("preferences");
    // Her settings are back at the defaults (English and dark before), and she can still change them.
    expect(await db().select().from(preferences).where(eq(preferences.userId, carla.id))).toEqual([
      { userId: carla.id, avatar: "female", language: "de", theme: null, contentLanguage: null },
    ]);
    const prefs = await ctx.app.inject({
      method: "GET",
      url: `/api/preferences/${carla.id}`,
      headers: bearer(carla.token),
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    expect(await db().select().from(notifications).where(eq(notifications.userId, carla.id))).toEqual([]);
    expect(await db().select().from(calendarFeeds).where(eq(calendarFeeds.userId, carla.id))).toEqual([]);
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `rename:${carla.id}`)),
    ).toEqual([]);
    expect(await db().select().from(mailOutbox).where(sql`${carla.email} = any(${mailOutbox.recipients})`)).toEqual([]);
    // The record stays, with her name.
    expect(await db().select().from(certificates).where(eq(certificates.userId, carla.id))).toHaveLength(1);
    const [row] = await db().select().from(users).where(eq(users.id, carla.id));
    expect(row).toMatchObject({ name: "Carla", login: carla.login, erasedAt: null });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "user.erasure_requested"), eq(auditLog.subjectId, carla.id)));
    expect(entry).toMatchObject({
      actorId: carla.id,
      data: expect.objectContaining({ by: "self", outcome: "partial" }),
    });
  });

  it("for a former employee with a training record says until when it is kept", async () => {
    ctx.clock.now = zonedTime(ZONE, 2026, 6, 1, 10);
    const emil = await person(["employee"], cast.facilityA.id, "Emil", "Tannhäuser");
    await db().transaction((tx) =>
      issueCertificate(
        tx,
        emil.id,
        { id: content.training, validityMonths: 12, points: 5, newest: null },
        ctx.clock.now,
        ZONE,
      ),
    );
    await db()
      .update(users)
      .set({ archivedAt: zonedTime(ZONE, 2026, 7, 15) })
      .where(eq(users.id, emil.id));
    ctx.clock.now = zonedTime(ZONE, 2026, 8, 1, 10);
    const res = await request(cast.tokens.administrator, emil.id);
    expect(res.statusCode, res.body).toBe(200);
    // Left in 2026, the certificate expires on 01.06.2027: kept until the end of 2027 + 5 years.
    expect(res.json()).toMatchObject({ outcome: "partial", grounds: ["training-record"], kept_until: "2032-12-31" });
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, "user.erasure_requested"), eq(auditLog.subjectId, emil.id)));
    expect(entry).toMatchObject({
      actorId: cast.users.administrator.id,
      data: expect.objectContaining({ by: "staff" }),
    });
  });

  it("for a former employee with nothing to keep erases them at once", async () => {
    const fritz = await person(["employee"], cast.facilityA.id, "Fritz", "Rübezahl");
    await db().update(users).set({ archivedAt: ctx.clock.now }).where(eq(users.id, fritz.id));
    const res = await request(cast.tokens.administrator, fritz.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ outcome: "erased", kept: [], kept_until: null });
    const [row] = await db().select().from(users).where(eq(users.id, fritz.id));
    expect(row).toMatchObject({ name: "", surname: "", email: null, login: `erased-${fritz.id}` });
    expect(row?.erasedAt).not.toBeNull();
    const entries = await db().select().from(auditLog).where(eq(auditLog.subjectId, fritz.id));
    expect(entries.map((e) => e.kind)).toEqual(["user.erasure_requested", "user.erased"]);
    for (const e of entries) expect(JSON.stringify(e.personal)).not.toContain("Fritz");
    expect(await verifyAuditChain(db())).toMatchObject({ intact: true });

    // Erased is erased: a second request and an export are refused, changing nothing.
    const again = await request(cast.tokens.administrator, fritz.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error_code).toBe(ErrorCode.conflict);
    const exported = await ctx.app.inject({
      method: "GET",
      url: `/api/auth/admin/users/${fritz.id}/export`,
      headers: bearer(cast.tokens.administrator),
    });
    expect(exported.statusCode).toBe(409);
  });

  it("refuses a role without the right, another facility's person and a superuser's", async () => {
    const target = cast.users.employee.id;
    const before = await db().select().from(auditLog);
    expect((await request(cast.tokens.supervisor, target)).statusCode).toBe(403);
    expect((await request(cast.tokens.employeeB, target)).statusCode).toBe(403);
    const other = await request(cast.tokens.administratorB, target);
    expect(other.statusCode).toBe(404);
    expect(other.json().error_code).toBe(ErrorCode.userNotFound);
    expect((await request(cast.tokens.administrator, cast.users.superchris.id)).statusCode).toBeGreaterThanOrEqual(403);
    expect((await request(cast.tokens.administrator, 999_999)).statusCode).toBe(404);
    expect(await db().select().from(auditLog)).toHaveLength(before.length);
    expect(await db().select().from(preferences).where(eq(preferences.userId, target))).toHaveLength(1);
  });
});

describe("the retention job", () => {
  it("reads RETENTION_YEARS: 5 unless set, a whole number of years from 1", () => {
    expect(loadConfig({}).retentionYears).toBe(5);
    expect(loadConfig({ RETENTION_YEARS: "10" }).retentionYears).toBe(10);
    for (const bad of ["0", "2.5", "fünf", "-1"]) {
      expect(() => loadConfig({ RETENTION_YEARS: bad }), bad).toThrow(/RETENTION_YEARS/);
    }
  });

  it("computes the period from the end of the year of the later of leaving and the last expiry, in TIME_ZONE", () => {
    const left = zonedTime(ZONE, 2020, 6, 15);
    // 00:30 on 1 January 2021 in Berlin is still 2020 in UTC.
    const expiry = zonedTime(ZONE, 2021, 1, 1, 0, 30);
    expect(retentionPeriod(left, expiry, 5, ZONE)).toEqual({
      lastDay: "2026-12-31",
      ends: zonedTime(ZONE, 2027, 1, 1),
    });
    expect(retentionPeriod(left, null, 5, ZONE)).toEqual({ lastDay: "2025-12-31", ends: zonedTime(ZONE, 2026, 1, 1) });
    expect(retentionPeriod(left, zonedTime(ZONE, 2019, 3, 1), 10, ZONE).lastDay).toBe("2030-12-31");
  });

  it("erases exactly the former employees whose period ended, keeps the anonymous counts, and the chain verifies", async () => {
    const facility = await createFacility(ctx, "Haus Sonnenhof Retention");
    const admin = await person(["administrator"], facility.id, "Gerda", "Hollerbusch");
    const made = async (name: string, left: Date | null, expiry: Date | null) => {
      const p = await person(["employee"], facility.id, name, "Retention");
      if (expiry) {
        const acquired = new Date(expiry.getTime() - 365 * 86_400_000);
        await db()
          .insert(certificates)
          .values({
            userId: p.id,
            trainingId: content.training,
            acquiredAt: acquired,
            expiresAt: expiry,
            points: 1,
            verificationCode: `R${p.id}X`,
          });
      }
      await db().transaction((tx) =>
        recordAudit(
          tx,
          {
            kind: "user.archived",
            actor: actorOf(admin, facility.id, ["administrator"]),
            facilityId: facility.id,
            subjectId: p.id,
            personal: { subject: `${name} Retention` },
          },
          new Date(),
        ),
      );
      if (left) await db().update(users).set({ archivedAt: left }).where(eq(users.id, p.id));
      return p;
    };
    // Retention until 2026-12-31: the certificate expires on 1 January 2021 in Berlin (2020 in UTC).
    const p1 = await made("Ida", zonedTime(ZONE, 2020, 6, 15), zonedTime(ZONE, 2021, 1, 1, 0, 30));
    // Until 2025-12-31: no certificate.
    const p2 = await made("Jakob", zonedTime(ZONE, 2020, 11, 30), null);
    // Until 2026-12-31: left in 2021, the certificate expired before.
    const p3 = await made("Kurt", zonedTime(ZONE, 2021, 2, 1), zonedTime(ZONE, 2019, 5, 1));
    // Still employed, however old the certificate.
    const p4 = await made("Lena", null, zonedTime(ZONE, 2015, 1, 1));

    const runner = startJobRunner(
      ctx.deps,
      { info: () => {}, error: () => {} },
      { schedule: false, startDelayMs: 3_600_000 },
    );
    const erasedIds = async () =>
      (
        await db()
          .select({ id: users.id })
          .from(users)
          .where(and(isNotNull(users.erasedAt), eq(users.facilityId, facility.id)))
      )
        .map((r) => r.id)
        .sort((a, b) => a - b);
    try {
      ctx.clock.now = new Date(zonedTime(ZONE, 2026, 1, 1).getTime() - 1000);
      expect((await runner.run(JOB_NAMES.retention)).result).toEqual({ erased: 0 });
      ctx.clock.now = zonedTime(ZONE, 2026, 1, 1);
      expect((await runner.run(JOB_NAMES.retention)).result).toEqual({ erased: 1 });
      expect(await erasedIds()).toEqual([p2.id]);
      ctx.clock.now = new Date(zonedTime(ZONE, 2027, 1, 1).getTime() - 1000);
      expect((await runner.run(JOB_NAMES.retention)).result).toEqual({ erased: 0 });
      ctx.clock.now = zonedTime(ZONE, 2027, 1, 1, 3, 30);
      expect((await runner.run(JOB_NAMES.retention)).result).toEqual({ erased: 2 });
      expect(await erasedIds()).toEqual([p1.id, p2.id, p3.id].sort((a, b) => a - b));
    } finally {
      await runner.stop();
    }

    // Erased: no name, login or e-mail; Lena untouched.
    for (const p of [p1, p2, p3]) {
      const [row] = await db().select().from(users).where(eq(users.id, p.id));
      expect(row).toMatchObject({ name: "", surname: "", email: null, login: `erased-${p.id}`, salutation: "-" });
      expect(row?.passwordHash).toBe("!");
    }
    const [lena] = await db().select().from(users).where(eq(users.id, p4.id));
    expect(lena).toMatchObject({ name: "Lena", erasedAt: null });

    // The anonymous count stays: two former employees of the facility held the training, naming nobody.
    const held = await db()
      .select({ name: users.name, login: users.login, code: certificates.verificationCode })
      .from(certificates)
      .innerJoin(users, eq(users.id, certificates.userId))
      .where(
        and(
          eq(users.facilityId, facility.id),
          isNotNull(users.erasedAt),
          eq(certificates.trainingId, content.training),
        ),
      );
    expect(held).toHaveLength(2);
    for (const h of held) {
      expect(h.name).toBe("");
      expect(h.code).toMatch(/^erased-/);
    }

    // The audit trail forgot their names, recorded the erasure as the system's, and verifies.
    const about = await db().select().from(auditLog).where(eq(auditLog.subjectId, p1.id));
    expect(about.map((e) => e.kind)).toEqual(["user.archived", "user.erased"]);
    for (const e of about) expect(e.personal).toEqual({});
    expect(about[1]).toMatchObject({ actorId: null, actorRole: actorRole(null), data: { reason: "retention" } });
    const lenaEntry = await db().select().from(auditLog).where(eq(auditLog.subjectId, p4.id));
    expect(lenaEntry[0]?.personal).toMatchObject({ subject: "Lena Retention" });
    expect(await verifyAuditChain(db())).toMatchObject({ intact: true, firstBroken: null });
  });
});
