import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, type OverviewUser, type UserProgress, zonedTime } from "@carecampus/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, callAs, createCast, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { auditLog, certificates, mailOutbox, notifications, trainings, users } from "../db/schema";
import { runExpiryJob } from "../notifications/expiry-job";

/*
 * Revocation (issue 29): POST /certificates/{id}/revoke marks a certificate revoked in one
 * transaction with the holder's notice, their mail and the audit entry; the certificate then
 * counts nowhere (progress, overview, expiry notices) but stays in the history, marked.
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let training: { id: number; topicId: number; name: string };
const DAY = 86_400_000;
type Who = keyof Awaited<ReturnType<typeof createCast>>["tokens"];

beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.now = zonedTime(ctx.deps.config.timeZone, 2026, 11, 22, 12);
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  training = { id: t?.id ?? 0, topicId: t?.topicId ?? 0, name: t?.name ?? "" };
});
afterAll(() => ctx.close());

/** A certificate of `training` for `userId`, acquired `ago` days ago, expiring in `left` days. */
async function certify(userId: number, left = 300, ago = 60): Promise<number> {
  const now = ctx.clock.now.getTime();
  const [row] = await ctx.deps.database.db
    .insert(certificates)
    .values({
      userId,
      trainingId: training.id,
      acquiredAt: new Date(now - ago * DAY),
      expiresAt: new Date(now + left * DAY),
      points: 10,
      verificationCode: crypto.randomUUID(),
    })
    .returning({ id: certificates.id });
  return (row as { id: number }).id;
}

const revoke = (who: Who | string, id: number | string, body: unknown) =>
  callAs(ctx, who in cast.tokens ? cast.tokens[who as Who] : who, "POST", `/certificates/${id}/revoke`, body);

/** What a revocation writes: the certificate's state, notices, mails and audit entries. */
async function written(certificateId: number, userId: number) {
  const db = ctx.deps.database.db;
  const [cert] = await db.select().from(certificates).where(eq(certificates.id, certificateId));
  const notices = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "CERTIFICATE_REVOKED")));
  const audit = (await db.select().from(auditLog).where(eq(auditLog.kind, "certificate.revoked"))).filter(
    (e) => e.data.certificate === certificateId,
  );
  const mails = await db.select().from(mailOutbox);
  return { cert, notices, audit, mails };
}

const progressOf = async (userId: number): Promise<UserProgress> =>
  (await callAs(ctx, cast.tokens.administrator, "GET", `/progress/admin/users/${userId}`)).json();

describe("POST /api/certificates/{id}/revoke", () => {
  it("marks it revoked, notifies the holder in-app and by mail, and writes one audit entry", async () => {
    const db = ctx.deps.database.db;
    const holder = await createUser(ctx, ["employee"], cast.facilityA.id, { email: "holder@example.org" });
    const id = await certify(holder.id);
    const mailsBefore = (await written(id, holder.id)).mails.length;

    const res = await revoke("administrator", id, {
      reason: "obtained_improperly",
      note: "  Prüfung\u0301 abgeschrieben ",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id,
      revoked: { at: ctx.clock.now.toISOString(), reason: "obtained_improperly" },
    });

    const { cert, notices, audit, mails } = await written(id, holder.id);
    expect(cert).toMatchObject({
      revokedAt: ctx.clock.now,
      revokedBy: cast.users.administrator.id,
      revokeReason: "obtained_improperly",
      // Trimmed and NFC-normalised (the combining accent joins its letter).
      revokeNote: "Prüfunǵ abgeschrieben".normalize("NFC"),
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.customMessage).toEqual({
      key: "revoke.notification",
      values: {
        training: training.name,
        date: "2026-11-22",
        reason: "obtained_improperly",
        topicId: String(training.topicId),
        trainingId: String(training.id),
      },
    });
    expect(mails).toHaveLength(mailsBefore + 1);
    const mail = mails.at(-1);
    expect(mail?.recipients).toEqual(["holder@example.org"]);
    expect(mail?.subject).toContain(`„${training.name}“ wurde widerrufen`);
    expect(mail?.text).toContain("22.11.2026");
    expect(mail?.text).toContain("Unrechtmäßig erlangt");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: cast.users.administrator.id,
      subjectId: holder.id,
      facilityId: cast.facilityA.id,
      data: { certificate: id, training: training.id, reason: "obtained_improperly" },
    });
    // The note is free text: outside the hashed data, beside the names.
    expect(audit[0]?.data).not.toHaveProperty("note");
    expect(audit[0]?.personal).toMatchObject({ note: "Prüfunǵ abgeschrieben".normalize("NFC") });

    // Twice: 409 in the §8 format, and nothing more is written.
    const again = await revoke("superchris", id, { reason: "other" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error_code: ErrorCode.conflict, message: expect.any(String) });
    const after = await written(id, holder.id);
    expect(after.cert?.revokeReason).toBe("obtained_improperly");
    expect([after.notices.length, after.audit.length, after.mails.length]).toEqual([1, 1, mailsBefore + 1]);
    // Never deleted.
    expect(await db.select().from(certificates).where(eq(certificates.userId, holder.id))).toHaveLength(1);
  });

  it("answers each refusal in the §8 format and writes nothing", async () => {
    const holder = await createUser(ctx, ["employee"], cast.facilityA.id, { email: "refused@example.org" });
    const id = await certify(holder.id);
    const before = await written(id, holder.id);
    const cases: [Who, number | string, unknown, number, number][] = [
      ["supervisor", id, { reason: "other" }, 403, ErrorCode.forbidden],
      ["employee", id, { reason: "other" }, 403, ErrorCode.forbidden],
      // The holder cannot revoke their own either.
      ["administratorB", id, { reason: "other" }, 404, ErrorCode.certificateNotFound],
      ["administrator", 999_999, { reason: "other" }, 404, ErrorCode.certificateNotFound],
      ["administrator", id, { reason: "lost" }, 400, ErrorCode.validation],
      ["administrator", id, {}, 400, ErrorCode.validation],
      ["administrator", id, { reason: "other", note: "x".repeat(501) }, 400, ErrorCode.validation],
      ["administrator", id, { reason: "other", extra: 1 }, 400, ErrorCode.validation],
      ["administrator", "abc", { reason: "other" }, 400, ErrorCode.validation],
    ];
    for (const [who, target, body, status, code] of cases) {
      const res = await revoke(who, target, body);
      expect(res.statusCode, `${who} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json(), who).toMatchObject({ error_code: code, message: expect.any(String) });
    }
    const holderToken = await login(ctx, holder.login);
    const own = await revoke(holderToken, id, { reason: "other" });
    expect(own.statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "POST", url: `/api/certificates/${id}/revoke` })).statusCode).toBe(401);

    const after = await written(id, holder.id);
    expect(after.cert?.revokedAt).toBeNull();
    expect(after.notices).toHaveLength(0);
    expect(after.audit).toHaveLength(0);
    expect(after.mails).toHaveLength(before.mails.length);
  });

  it("reaches former employees' certificates too, for Super-Admins everywhere; no mail to a leaver", async () => {
    const leaver = await createUser(ctx, ["employee"], cast.facilityB.id, { email: "left@example.org" });
    const id = await certify(leaver.id);
    await ctx.deps.database.db
      .update(users)
      .set({ archivedAt: ctx.clock.now, archivedBy: cast.users.superchris.id })
      .where(eq(users.id, leaver.id));
    const mailsBefore = (await written(id, leaver.id)).mails.length;
    const res = await revoke("contentmanager", id, { reason: "issued_in_error" });
    expect(res.statusCode, res.body).toBe(200);
    const after = await written(id, leaver.id);
    expect(after.cert?.revokeReason).toBe("issued_in_error");
    expect(after.cert?.revokeNote).toBeNull();
    expect(after.notices).toHaveLength(1);
    expect(after.audit).toHaveLength(1);
    expect(after.audit[0]?.personal).not.toHaveProperty("note");
    expect(after.mails).toHaveLength(mailsBefore);
  });
});

describe("a revoked certificate counts nowhere", () => {
  it("leaves progress, the overview and the expiry notices, and stays in the history, marked", async () => {
    const db = ctx.deps.database.db;
    const holder = await createUser(ctx, ["employee"], cast.facilityA.id);
    // Expires in 7 days: the expiry job would notify its holder today.
    const id = await certify(holder.id, 7);

    const held = await progressOf(holder.id);
    const before = held.training_progress.find((t) => t.id === training.id);
    expect(before?.certificate?.id).toBe(id);
    const countBefore = held.certificate_count;
    const cell = async () => {
      const res = await callAs(ctx, cast.tokens.administrator, "GET", `/progress/admin/topics/${training.topicId}`);
      const row = (res.json().users as OverviewUser[]).find((u) => u.id === holder.id);
      return row?.cells.find((c) => c.training_id === training.id);
    };
    expect((await cell())?.expires_at).not.toBeNull();

    expect((await revoke("administrator", id, { reason: "issued_in_error" })).statusCode).toBe(200);

    const progress = await progressOf(holder.id);
    const now = progress.training_progress.find((t) => t.id === training.id);
    // Due again: no certificate, and the revoked one is in the history with its day and reason.
    expect(now?.certificate).toBeNull();
    expect(now?.earlier_certificates).toEqual([
      expect.objectContaining({
        id,
        active_working_cert: false,
        revoked: { at: ctx.clock.now.toISOString(), reason: "issued_in_error" },
      }),
    ]);
    expect(progress.certificate_count).toBe(countBefore - 1);
    expect(progress.points).toBe(held.points - 10);
    // The learner's own training page: not complete any more.
    const own = await login(ctx, holder.login);
    const topic = await callAs(ctx, own, "GET", `/progress/topics/${training.topicId}/trainings`);
    const listed = (topic.json().trainings as { id: number; certificate: unknown }[]).find((t) => t.id === training.id);
    expect(listed?.certificate).toBeNull();

    // The overview: no certificate in the cell (red, as never trained).
    expect(await cell()).toMatchObject({ acquired_at: null, expires_at: null, colour: "red" });

    // No expiry notice for a revoked certificate.
    await runExpiryJob(ctx.deps, ctx.clock.now);
    const expiring = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, holder.id), eq(notifications.type, "CERTIFICATE_EXPIRES")));
    expect(expiring).toHaveLength(0);
  });

  it("an earlier certificate still valid counts again; the PDF stays downloadable, stamped REVOKED", async () => {
    const holder = await createUser(ctx, ["employee"], cast.facilityA.id);
    const earlier = await certify(holder.id, 100, 265);
    const renewal = await certify(holder.id, 465, 1);
    expect((await revoke("superchris", renewal, { reason: "other" })).statusCode).toBe(200);
    const t = (await progressOf(holder.id)).training_progress.find((x) => x.id === training.id);
    expect(t?.certificate?.id).toBe(earlier);
    expect(t?.earlier_certificates.map((c) => [c.id, c.revoked?.reason])).toEqual([[renewal, "other"]]);

    const res = await ctx.app.inject({
      url: `/api/progress/export/certificate?id=${renewal}`,
      headers: bearer(cast.tokens.administrator),
    });
    expect(res.statusCode).toBe(200);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-revoked-")), "c.pdf");
    fs.writeFileSync(file, res.rawPayload);
    // The stamp is turned across the page: read in content order (-raw), not by layout.
    const text = execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
    expect(text).toContain("REVOKED");
    expect(text).toContain("22.11.2026");
    // The valid one carries no stamp.
    const valid = await ctx.app.inject({
      url: `/api/progress/export/certificate?id=${earlier}`,
      headers: bearer(cast.tokens.administrator),
    });
    fs.writeFileSync(file, valid.rawPayload);
    expect(execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" })).not.toContain("REVOKED");
  });
});
