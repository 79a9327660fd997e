import crypto from "node:crypto";
import net from "node:net";
import { calendarDay, ErrorCode, type Notification, zonedTime } from "@carecampus/contract";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import {
  bearer,
  createFacility,
  createTestApp,
  createUser,
  login,
  onPostgres,
  type TestContext,
  type TestUser,
} from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import {
  certificateNotices,
  certificates,
  mailOutbox,
  notifications,
  preferences,
  trainingMatrices,
  trainingMatrixEntries,
  trainings,
} from "../db/schema";
import { JOB_LOCKS, JOB_NAMES } from "../jobs/catalogue";
import { startJobRunner } from "../jobs/runner";
import { createMailer } from "../mail/mailer";
import { sendDueMails } from "../mail/outbox";
import { CERTIFICATE_KEY, dueStage, runExpiryJob, SUMMARY_KEY } from "./expiry-job";

/** For the tests that start an app of their own (a fresh database with migrations and content). */
const OWN_APP_TIMEOUT = 90_000;

let ctx: TestContext;
let training: { id: number; topicId: number; name: string };
let passive: { id: number; topicId: number; name: string };

async function trainingByKey(c: TestContext, key: string) {
  const [row] = await c.deps.database.db.select().from(trainings).where(eq(trainings.key, key));
  if (!row) throw new Error(`training ${key} missing`);
  return { id: row.id, topicId: row.topicId, name: row.name };
}

beforeAll(async () => {
  ctx = await createTestApp();
  await importPackage(ctx.deps.database.db, loadPackage(writeFixture()));
  training = await trainingByKey(ctx, "haende");
  passive = await trainingByKey(ctx, "kurs");
});
afterAll(() => ctx.close());

/**
 * A wall-clock time in the configured zone (Europe/Berlin): the job counts its calendar days,
 * whatever the process's TZ (this file also runs under far-apart TZs, scripts/test-time-zones.mjs).
 */
const ZONE = "Europe/Berlin";
const local = (year: number, month: number, day: number, hour = 6) => zonedTime(ZONE, year, month, day, hour);
/** `days` calendar days before `date`, at `hour` (in the configured zone). */
const before = (date: Date, days: number, hour = 6) => {
  const d = calendarDay(date, ZONE);
  return zonedTime(ZONE, d.year, d.month, d.day - days, hour);
};

/** Sets the app's clock and runs the job at that moment. */
async function runAt(c: TestContext, now: Date) {
  c.clock.now = now;
  return runExpiryJob(c.deps, now);
}

/** A facility of its own with an administrator, a supervisor and an employee. */
async function createScene(c: TestContext = ctx, emails = false) {
  const facility = await createFacility(c);
  const mail = (who: string) => (emails ? { email: `${who}.${facility.id}@example.org` } : {});
  return {
    facility,
    admin: await createUser(c, ["administrator"], facility.id, mail("admin")),
    supervisor: await createUser(c, ["supervisor"], facility.id),
    employee: await createUser(c, ["employee"], facility.id, mail("employee")),
  };
}

async function insertCertificate(
  c: TestContext,
  user: TestUser,
  expiresAt: Date,
  trainingId = training.id,
  acquiredAt = before(expiresAt, 365, 12),
) {
  const [row] = await c.deps.database.db
    .insert(certificates)
    .values({
      userId: user.id,
      trainingId,
      acquiredAt,
      expiresAt,
      points: 10,
      verificationCode: crypto.randomBytes(6).toString("hex").toUpperCase(),
    })
    .returning({ id: certificates.id });
  return (row as { id: number }).id;
}

interface Message {
  key: string;
  values: Record<string, string>;
}

/** Every notification of a user, read or not, oldest first. */
async function notificationsOf(c: TestContext, user: TestUser) {
  const rows = await c.deps.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, user.id))
    .orderBy(notifications.id);
  return rows.map((r) => ({ ...r, message: r.customMessage as Message }));
}

/** GET /notifications as the user, with a token issued at the clock's time. */
async function listed(c: TestContext, user: TestUser): Promise<(Notification & { message: Message })[]> {
  const res = await c.app.inject({
    method: "GET",
    url: "/api/notifications",
    headers: bearer(await login(c, user.login)),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as Notification[]).map((n) => ({ ...n, message: JSON.parse(n.CustomMessage) as Message }));
}

async function noticeStages(c: TestContext, certificateId: number) {
  const rows = await c.deps.database.db
    .select({ stage: certificateNotices.stage, notified: certificateNotices.notified })
    .from(certificateNotices)
    .where(eq(certificateNotices.certificateId, certificateId))
    .orderBy(certificateNotices.stage);
  return rows;
}

describe("dueStage", () => {
  it("names the most urgent stage due, and none beyond 30 days or a week after expiry", () => {
    expect([31, 30, 8, 7, 1, 0, -7, -8].map(dueStage)).toEqual([null, 30, 30, 7, 7, 0, 0, null]);
  });
});

describe("the certificate-expiry job", () => {
  it("notifies exactly 30 and 7 days before and on the expiry day, not on the days before those", async () => {
    const scene = await createScene();
    const expiry = local(2031, 3, 15, 12);
    await insertCertificate(ctx, scene.employee, expiry);

    const stagesSeen: string[] = [];
    for (const [days, expectNew] of [
      [31, false],
      [30, true],
      [8, false],
      [7, true],
      [1, false],
      [0, true],
    ] as const) {
      const beforeRun = (await notificationsOf(ctx, scene.employee)).length;
      await runAt(ctx, before(expiry, days));
      const all = await notificationsOf(ctx, scene.employee);
      expect(all.length - beforeRun, `${days} days before expiry`).toBe(expectNew ? 1 : 0);
      if (expectNew) stagesSeen.push((all.at(-1) as { message: Message }).message.values.stage ?? "");
    }
    expect(stagesSeen).toEqual(["30", "7", "0"]);

    // The employee's own notices, through the API, newest first.
    const mine = await listed(ctx, scene.employee);
    expect(mine.map((n) => n.message.values.days)).toEqual(["0", "7", "30"]);
    for (const n of mine) {
      expect(n.Type).toBe("CERTIFICATE_EXPIRES");
      expect(n.ExpiresAt).toBe(expiry.toISOString());
      expect(n.message).toMatchObject({
        key: CERTIFICATE_KEY,
        values: {
          training: "Händehygiene",
          facility: scene.facility.name,
          date: "2031-03-15",
          topicId: String(training.topicId),
          trainingId: String(training.id),
        },
      });
    }
    // The facility's administrator and supervisor: one summary per stage.
    for (const staff of [scene.admin, scene.supervisor]) {
      const summaries = await listed(ctx, staff);
      expect(summaries.map((n) => [n.message.key, n.message.values.stage, n.message.values.count])).toEqual([
        [SUMMARY_KEY, "0", "1"],
        [SUMMARY_KEY, "7", "1"],
        [SUMMARY_KEY, "30", "1"],
      ]);
      expect(summaries[0]?.message.values).toMatchObject({ facility: scene.facility.name, date: "2031-03-15" });
    }
  });

  it("creates nothing twice when it runs again", async () => {
    const scene = await createScene();
    const expiry = local(2031, 5, 20, 9);
    const certificateId = await insertCertificate(ctx, scene.employee, expiry);
    const now = before(expiry, 7, 6);
    const db = ctx.deps.database.db;
    const first = await runAt(ctx, now);
    expect(first.notices).toBe(1);
    const rows = await db.select().from(notifications).orderBy(notifications.id);
    const notices = await db.select().from(certificateNotices);

    const again = await runAt(ctx, now);
    expect(again).toEqual({ notices: 0, summaries: 0, mails: 0 });
    const later = await runAt(ctx, before(expiry, 7, 20));
    expect(later.notices).toBe(0);
    expect(await db.select().from(notifications).orderBy(notifications.id)).toEqual(rows);
    expect(await db.select().from(certificateNotices)).toHaveLength(notices.length);
    expect((await notificationsOf(ctx, scene.employee)).map((n) => n.message.values.stage)).toEqual(["7"]);
    expect(await noticeStages(ctx, certificateId)).toEqual([
      { stage: 7, notified: true },
      { stage: 30, notified: false },
    ]);
  });

  it("catches up after downtime with the most urgent due stage only, once", async () => {
    const scene = await createScene();
    const expiry = local(2031, 7, 10, 15);
    const certificateId = await insertCertificate(ctx, scene.employee, expiry);
    await runAt(ctx, before(expiry, 15)); // the 30-day day passed unseen: sent now
    await runAt(ctx, before(expiry, 14));
    // Ten days down: the 7-day day (and the 8th to 6th) passed without a run.
    await runAt(ctx, before(expiry, 4));
    await runAt(ctx, before(expiry, 3));
    expect((await notificationsOf(ctx, scene.employee)).map((n) => n.message.values.days)).toEqual(["15", "4"]);

    // A certificate first seen three days after expiry: only the expiry notice, earlier stages done.
    const late = await createUser(ctx, ["employee"], scene.facility.id);
    const lateExpiry = local(2031, 7, 1, 15);
    const lateId = await insertCertificate(ctx, late, lateExpiry);
    const now = local(2031, 7, 4, 6);
    await runAt(ctx, now);
    await runAt(ctx, now);
    const lateNotices = await notificationsOf(ctx, late);
    expect(lateNotices.map((n) => [n.message.values.stage, n.message.values.days])).toEqual([["0", "-3"]]);
    expect(await noticeStages(ctx, lateId)).toEqual([
      { stage: 0, notified: true },
      { stage: 7, notified: false },
      { stage: 30, notified: false },
    ]);
    expect(await noticeStages(ctx, certificateId)).toEqual([
      { stage: 7, notified: true },
      { stage: 30, notified: true },
    ]);
  });

  it("leaves out certificates expired more than a week ago, renewed ones, and unassigned or retired trainings", async () => {
    const scene = await createScene();
    const now = local(2031, 9, 1, 6);
    const db = ctx.deps.database.db;

    // Expired eight days ago: too old. Seven days ago: still told.
    const old = await createUser(ctx, ["employee"], scene.facility.id);
    await insertCertificate(ctx, old, before(now, 8, 12));
    const week = await createUser(ctx, ["employee"], scene.facility.id);
    await insertCertificate(ctx, week, before(now, 7, 12));

    // Renewed: the old certificate expires in 5 days, the newer one in a year.
    const renewed = await createUser(ctx, ["employee"], scene.facility.id);
    const oldCert = await insertCertificate(ctx, renewed, before(now, -5, 12));
    await insertCertificate(ctx, renewed, before(now, -365, 12), training.id, before(now, 2, 12));

    // A matrix without the training; and one with it.
    const unassigned = await createUser(ctx, ["employee"], scene.facility.id);
    await db.insert(trainingMatrices).values({ userId: unassigned.id });
    await db.insert(trainingMatrixEntries).values({ userId: unassigned.id, trainingId: passive.id });
    await insertCertificate(ctx, unassigned, before(now, -5, 12));
    const assigned = await createUser(ctx, ["employee"], scene.facility.id);
    await db.insert(trainingMatrices).values({ userId: assigned.id });
    await db.insert(trainingMatrixEntries).values({ userId: assigned.id, trainingId: training.id });
    await insertCertificate(ctx, assigned, before(now, -5, 12));

    // A user who is no longer an employee is not reminded.
    const promoted = await createUser(ctx, ["supervisor"], scene.facility.id);
    await insertCertificate(ctx, promoted, before(now, -5, 12));

    await runAt(ctx, now);
    expect(await notificationsOf(ctx, old)).toEqual([]);
    expect((await notificationsOf(ctx, week)).map((n) => n.message.values.days)).toEqual(["-7"]);
    expect(await notificationsOf(ctx, renewed)).toEqual([]);
    expect(await noticeStages(ctx, oldCert)).toEqual([]);
    expect(await notificationsOf(ctx, unassigned)).toEqual([]);
    expect((await notificationsOf(ctx, assigned)).map((n) => n.message.values.stage)).toEqual(["7"]);
    expect((await notificationsOf(ctx, promoted)).filter((n) => n.message.key === CERTIFICATE_KEY)).toEqual([]);

    // A retired training is no longer learnt: no notice either.
    const [retired] = await db
      .insert(trainings)
      .values({
        key: `alt-${crypto.randomUUID()}`,
        topicId: training.topicId,
        name: "Alt",
        icon: "haende",
        retired: true,
      })
      .returning({ id: trainings.id });
    const retiredOwner = await createUser(ctx, ["employee"], scene.facility.id);
    await insertCertificate(ctx, retiredOwner, before(now, -5, 12), retired?.id);
    await runAt(ctx, now);
    expect(await notificationsOf(ctx, retiredOwner)).toEqual([]);
  });

  it("summarises per facility for its administrators and supervisors only, once a day, extended by a later run", async () => {
    const a = await createScene();
    const b = await createScene();
    const otherAdmin = b.admin;
    const now = local(2031, 11, 3, 6);
    const expiry = before(now, -7, 12);
    const second = await createUser(ctx, ["employee"], a.facility.id);
    await insertCertificate(ctx, a.employee, expiry);
    await insertCertificate(ctx, second, before(now, -6, 12));
    await runAt(ctx, now);

    for (const staff of [a.admin, a.supervisor]) {
      const list = await listed(ctx, staff);
      expect(list).toHaveLength(1);
      expect(list[0]?.message).toEqual({
        key: SUMMARY_KEY,
        values: {
          facility: a.facility.name,
          facilityId: String(a.facility.id),
          stage: "7",
          count: "2",
          date: "2031-11-09",
          day: "2031-11-03",
        },
      });
      expect(list[0]?.ExpiresAt).toBe(before(now, -6, 12).toISOString());
    }
    // Facility B's staff and employees see nothing of facility A.
    for (const user of [otherAdmin, b.supervisor, b.employee]) {
      expect(await listed(ctx, user)).toEqual([]);
    }
    // Employees get no summary.
    expect((await listed(ctx, a.employee)).map((n) => n.message.key)).toEqual([CERTIFICATE_KEY]);

    // The administrator reads it; a certificate due later the same day extends that summary.
    const adminToken = await login(ctx, a.admin.login);
    const [summary] = await listed(ctx, a.admin);
    const read = await ctx.app.inject({
      method: "DELETE",
      url: `/api/notifications/${summary?.ID}`,
      headers: bearer(adminToken),
    });
    expect(read.statusCode).toBe(200);
    const third = await createUser(ctx, ["employee"], a.facility.id);
    await insertCertificate(ctx, third, before(now, -2, 12));
    const evening = before(now, 0, 18);
    const result = await runAt(ctx, evening);
    expect(result.summaries).toBe(1);
    for (const staff of [a.admin, a.supervisor]) {
      const all = (await notificationsOf(ctx, staff)).filter((n) => n.message.key === SUMMARY_KEY);
      expect(all).toHaveLength(1);
      expect(all[0]?.message.values).toMatchObject({ count: "3", date: "2031-11-05", stage: "7" });
      expect(all[0]?.readAt).toBeNull();
    }
    expect(await listed(ctx, otherAdmin)).toEqual([]);
  });

  it("refuses to mark another user's notice read, and changes nothing", async () => {
    const scene = await createScene();
    const other = await createScene();
    const expiry = local(2032, 2, 10, 12);
    await insertCertificate(ctx, scene.employee, expiry);
    await runAt(ctx, before(expiry, 30));
    const [notice] = await listed(ctx, scene.employee);
    expect(notice).toBeDefined();
    for (const intruder of [other.employee, other.admin, scene.admin, scene.supervisor]) {
      const res = await ctx.app.inject({
        method: "DELETE",
        url: `/api/notifications/${notice?.ID}`,
        headers: bearer(await login(ctx, intruder.login)),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.notFound);
    }
    const rows = await ctx.deps.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.id, notice?.ID ?? 0), isNull(notifications.readAt)));
    expect(rows).toHaveLength(1);
    expect((await listed(ctx, scene.employee)).map((n) => n.ID)).toEqual([notice?.ID]);
  });

  it("counts calendar days in the configured zone around Berlin's midnight and the change to summer time", async () => {
    const scene = await createScene();
    // Expires 00:30 on 28 March 2027 in Berlin, the day the clocks go forward at 02:00: still
    // the 27th in UTC and in the Americas, the 28th in Kiritimati. 30 days before is 26 February.
    const expiry = local(2027, 3, 28, 0);
    await insertCertificate(ctx, scene.employee, new Date(expiry.getTime() + 30 * 60_000));
    // 23:59 on 25 February in Berlin: 31 days before, nothing yet.
    await runAt(ctx, new Date(local(2027, 2, 26, 0).getTime() - 60_000));
    expect(await notificationsOf(ctx, scene.employee)).toEqual([]);
    // A minute later it is the 26th in Berlin: the 30-day notice, dated by Berlin's calendar.
    await runAt(ctx, local(2027, 2, 26, 0));
    const [notice] = await notificationsOf(ctx, scene.employee);
    expect(notice?.message.values).toMatchObject({ stage: "30", days: "30", date: "2027-03-28" });
    // 23:59 on 20 March in Berlin: 8 days before, no 7-day notice yet; at midnight it comes.
    await runAt(ctx, new Date(local(2027, 3, 21, 0).getTime() - 60_000));
    expect(await notificationsOf(ctx, scene.employee)).toHaveLength(1);
    await runAt(ctx, local(2027, 3, 21, 0));
    expect((await notificationsOf(ctx, scene.employee)).map((n) => n.message.values.days)).toEqual(["30", "7"]);
    // On the day itself (a 23-hour day), just after Berlin's midnight: the expiry notice.
    await runAt(ctx, local(2027, 3, 28, 0));
    expect((await notificationsOf(ctx, scene.employee)).map((n) => n.message.values.days)).toEqual(["30", "7", "0"]);
  });

  it.skipIf(!onPostgres)("runs in one server at a time: another holder of the lock makes it skip", async () => {
    const scene = await createScene();
    const expiry = local(2032, 4, 20, 12);
    await insertCertificate(ctx, scene.employee, expiry);
    const databaseName = (await ctx.deps.database.db.execute<{ name: string }>(sql`select current_database() as name`))
      .rows[0]?.name;
    const url = new URL(process.env.DATABASE_URL ?? "");
    url.pathname = `/${databaseName}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    ctx.clock.now = before(expiry, 7);
    const runner = startJobRunner(
      ctx.deps,
      { info: () => {}, error: () => {} },
      { schedule: false, startDelayMs: 3_600_000 },
    );
    try {
      await other.query("select pg_advisory_lock($1, $2)", [
        JOB_LOCKS.certificateExpiry.namespace,
        JOB_LOCKS.certificateExpiry.id,
      ]);
      expect(await runner.run(JOB_NAMES.certificateExpiry)).toEqual({ ran: false });
      expect(await notificationsOf(ctx, scene.employee)).toEqual([]);
      await other.query("select pg_advisory_unlock($1, $2)", [
        JOB_LOCKS.certificateExpiry.namespace,
        JOB_LOCKS.certificateExpiry.id,
      ]);
      expect((await runner.run(JOB_NAMES.certificateExpiry)).ran).toBe(true);
      expect(await notificationsOf(ctx, scene.employee)).toHaveLength(1);
    } finally {
      await runner.stop();
      await other.end();
    }
  });

  it(
    "is run by the job runner once after start, and the runner stops",
    async () => {
      const c = await createTestApp();
      try {
        await importPackage(c.deps.database.db, loadPackage(writeFixture()));
        const scene = await createScene(c);
        await insertCertificate(c, scene.employee, before(c.clock.now, -7, 12), (await trainingByKey(c, "haende")).id);
        const errors: unknown[] = [];
        const runner = startJobRunner(
          c.deps,
          { info: () => {}, error: (obj) => errors.push(obj) },
          { startDelayMs: 0 },
        );
        await vi.waitFor(async () => expect(await notificationsOf(c, scene.employee)).toHaveLength(1), {
          timeout: 20_000,
          interval: 50,
        });
        await runner.stop();
        expect(errors).toEqual([]);
      } finally {
        await c.close();
      }
    },
    OWN_APP_TIMEOUT,
  );
});

/** Decodes RFC 2047 encoded words, as mail clients show a subject. */
function decodeHeader(value: string): string {
  return value
    .replace(/\r?\n[ \t]+/g, " ")
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9a-f]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

interface Received {
  to: string[];
  subject: string;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("e-mail", () => {
  let smtp: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
          const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1] ?? "";
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: decodeHeader(subject) });
          callback();
        });
      },
    });
    port = await freePort();
    await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it(
    "queues the employee's notice and the staff summary, in each one's language, and the sender delivers them",
    async () => {
      const smtpUrl = `smtp://127.0.0.1:${port}`;
      const c = await createTestApp({
        env: { SMTP_URL: smtpUrl },
        mailer: createMailer(smtpUrl, "CareCampus <no-reply@carecampus.local>", () => {}),
      });
      try {
        await importPackage(c.deps.database.db, loadPackage(writeFixture()));
        const haende = await trainingByKey(c, "haende");
        const scene = await createScene(c, true);
        await c.deps.database.db
          .update(preferences)
          .set({ language: "en" })
          .where(eq(preferences.userId, scene.admin.id));
        const expiry = local(2032, 6, 30, 12);
        await insertCertificate(c, scene.employee, expiry, haende.id);
        received.length = 0;
        const now = before(expiry, 30);
        const result = await runAt(c, now);
        expect(result).toEqual({ notices: 1, summaries: 1, mails: 2 });
        // Queued in the job's transaction, delivered by the sender.
        expect(received).toHaveLength(0);
        const queued = await c.deps.database.db.select().from(mailOutbox);
        expect(queued.map((m) => m.status)).toEqual(["pending", "pending"]);
        expect(await sendDueMails(c.deps, now)).toMatchObject({ sent: 2, retried: 0, failed: 0 });
        const employeeMail = received.find((m) => m.to.includes(`employee.${scene.facility.id}@example.org`));
        expect(employeeMail?.subject).toBe("CareCampus: Ihr Zertifikat „Händehygiene“ läuft am 30.06.2032 ab");
        const adminMail = received.find((m) => m.to.includes(`admin.${scene.facility.id}@example.org`));
        expect(adminMail?.subject).toBe(`CareCampus: ${scene.facility.name} – 1 certificate(s) expiring soon`);
        // The supervisor has no address; each mail has one recipient.
        expect(received).toHaveLength(2);
        expect(received.every((m) => m.to.length === 1)).toBe(true);
        const sent = await c.deps.database.db.select().from(mailOutbox);
        expect(sent.map((m) => [m.status, m.attempts])).toEqual([
          ["sent", 1],
          ["sent", 1],
        ]);
        expect(await sendDueMails(c.deps, now)).toMatchObject({ sent: 0 });
        expect(received).toHaveLength(2);
      } finally {
        await c.close();
      }
    },
    OWN_APP_TIMEOUT,
  );

  it(
    "records the notices and keeps the mails for a retry when the SMTP server cannot be reached",
    async () => {
      const closed = await freePort();
      const smtpUrl = `smtp://127.0.0.1:${closed}`;
      const c = await createTestApp({
        env: { SMTP_URL: smtpUrl },
        mailer: createMailer(smtpUrl, "CareCampus <no-reply@carecampus.local>", () => {}),
      });
      try {
        await importPackage(c.deps.database.db, loadPackage(writeFixture()));
        const haende = await trainingByKey(c, "haende");
        const scene = await createScene(c, true);
        const expiry = local(2032, 8, 1, 12);
        await insertCertificate(c, scene.employee, expiry, haende.id);
        const now = before(expiry, 0);
        expect(await runAt(c, now)).toEqual({ notices: 1, summaries: 1, mails: 2 });
        expect(await sendDueMails(c.deps, now)).toMatchObject({ sent: 0, retried: 2, failed: 0 });
        expect(await notificationsOf(c, scene.employee)).toHaveLength(1);
        const ids = [scene.admin.id, scene.supervisor.id];
        const staff = await c.deps.database.db.select().from(notifications).where(inArray(notifications.userId, ids));
        expect(staff).toHaveLength(2);
        const mails = await c.deps.database.db.select().from(mailOutbox);
        for (const m of mails) {
          expect(m).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
          expect(m.lastError).toBeTruthy();
          expect(m.nextAttemptAt.getTime()).toBe(now.getTime() + 60_000);
        }
      } finally {
        await c.close();
      }
    },
    OWN_APP_TIMEOUT,
  );
});
