import net from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCast, createTestApp, type TestContext } from "../../test/helpers";
import { secondServerDatabase } from "../../test/second-server";
import { mailOutbox, preferences, users } from "../db/schema";
import { createMailer, type Mailer } from "./mailer";
import { enqueueMail, MAX_MAIL_ATTEMPTS, sendDueMails } from "./outbox";

/**
 * A real SMTP server that answers the first `rejectFirst` deliveries of each subject with a
 * temporary error (451) and accepts the ones after; `accepted` is what it took.
 */
class FlakySmtp {
  server: SMTPServer;
  port = 0;
  rejectFirst = 0;
  accepted: { to: string[]; subject: string }[] = [];
  rejected = new Map<string, number>();
  /** The raw message of each accepted subject, as it arrived. */
  raw = new Map<string, string>();

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? "";
          const seen = this.rejected.get(subject) ?? 0;
          if (seen < this.rejectFirst) {
            this.rejected.set(subject, seen + 1);
            const err = new Error("Try again later") as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
            return;
          }
          this.accepted.push({ to: session.envelope.rcptTo.map((r) => r.address), subject });
          this.raw.set(subject, raw);
          callback();
        });
      },
    });
  }

  async start() {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    this.port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let smtp: FlakySmtp;
let ctx: TestContext;
let mailer: Mailer;
const MINUTE = 60_000;

beforeAll(async () => {
  smtp = new FlakySmtp();
  await smtp.start();
  mailer = createMailer(smtp.url, "CareCampus <no-reply@carecampus.local>", () => {});
  ctx = await createTestApp({ env: { SMTP_URL: smtp.url }, mailer });
});
afterAll(async () => {
  await ctx.close();
  await smtp.stop();
});
beforeEach(async () => {
  smtp.accepted = [];
  smtp.rejected.clear();
  smtp.raw.clear();
  smtp.rejectFirst = 0;
  await ctx.deps.database.db.delete(mailOutbox);
});

const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * MINUTE);
const rowOf = async (id: number) =>
  (await ctx.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];

async function queue(subject: string, to = ["someone@example.org"]) {
  const now = new Date("2031-05-04T08:00:00Z");
  await enqueueMail(ctx.deps.database.db, [{ to, subject, text: "Hallo" }], now);
  const [row] = await ctx.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));
  if (!row) throw new Error("not queued");
  return { id: row.id, now };
}

describe("the mail outbox", () => {
  it("retries a mail the SMTP server refused, with growing waits, and delivers it exactly once", async () => {
    smtp.rejectFirst = 2;
    const { id, now } = await queue("retry me");

    expect(await sendDueMails(ctx.deps, now)).toMatchObject({ sent: 0, retried: 1, failed: 0 });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: at(now, 1) });
    expect((await rowOf(id))?.lastError).toContain("Try again later");
    // Not due yet: nothing happens.
    expect(await sendDueMails(ctx.deps, at(now, 0.5))).toMatchObject({ sent: 0, retried: 0 });
    expect((await rowOf(id))?.attempts).toBe(1);

    expect(await sendDueMails(ctx.deps, at(now, 1))).toMatchObject({ sent: 0, retried: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 2, nextAttemptAt: at(now, 3) });

    expect(await sendDueMails(ctx.deps, at(now, 3))).toMatchObject({ sent: 1, retried: 0 });
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null, sentAt: at(now, 3) });
    expect(smtp.accepted).toEqual([{ to: ["someone@example.org"], subject: "retry me" }]);

    // Sent is sent: later runs leave it alone.
    expect(await sendDueMails(ctx.deps, at(now, 60))).toMatchObject({ sent: 0, retried: 0 });
    expect(smtp.accepted).toHaveLength(1);
  });

  it("gives a mail up after the last attempt and never retries it", async () => {
    smtp.rejectFirst = 100;
    const { id, now } = await queue("never accepted");
    // Attempts at 0, 1, 3, 7 and 15 minutes (waits of 1, 2, 4 and 8).
    let minute = 0;
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      const result = await sendDueMails(ctx.deps, at(now, minute));
      expect(result.retried + result.failed).toBe(1);
      expect((await rowOf(id))?.attempts).toBe(attempt);
      minute += 2 ** (attempt - 1);
    }
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS, sentAt: null });
    expect(smtp.rejected.get("never accepted")).toBe(MAX_MAIL_ATTEMPTS);

    expect(await sendDueMails(ctx.deps, at(now, 24 * 60))).toMatchObject({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.rejected.get("never accepted")).toBe(MAX_MAIL_ATTEMPTS);
    expect(smtp.accepted).toEqual([]);
  });

  it("delivers each mail once when two servers send at the same time", async () => {
    smtp.rejectFirst = 1;
    const second = await secondServerDatabase(ctx);
    try {
      const now = new Date("2031-05-04T08:00:00Z");
      const subjects = Array.from({ length: 25 }, (_, i) => `mail ${i + 1}`);
      await enqueueMail(
        ctx.deps.database.db,
        subjects.map((subject) => ({ to: ["team@example.org"], subject, text: "Hallo" })),
        now,
      );
      const other = { database: second.database, mailer };
      for (const minute of [0, 1]) {
        const [a, b] = await Promise.all([
          sendDueMails(ctx.deps, at(now, minute)),
          sendDueMails(other, at(now, minute)),
        ]);
        if (minute === 0) expect(a.retried + b.retried).toBe(25);
        else expect(a.sent + b.sent).toBe(25);
      }
      expect(smtp.accepted.map((m) => m.subject).sort()).toEqual([...subjects].sort());
      const rows = await ctx.deps.database.db.select().from(mailOutbox);
      expect(rows.every((r) => r.status === "sent" && r.attempts === 2)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("takes a mail whose sender died back after the claim ran out", async () => {
    const { id, now } = await queue("orphaned");
    // A sender claimed it and was never heard of again.
    await ctx.deps.database.db
      .update(mailOutbox)
      .set({ status: "sending", attempts: 1, nextAttemptAt: at(now, 15) })
      .where(eq(mailOutbox.id, id));
    expect(await sendDueMails(ctx.deps, at(now, 5))).toMatchObject({ sent: 0 });
    expect(await sendDueMails(ctx.deps, at(now, 15))).toMatchObject({ sent: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 2 });
    expect(smtp.accepted).toHaveLength(1);
  });

  it("sends a mail's attachment as a MIME part with its name and type", async () => {
    const now = new Date("2031-05-04T08:00:00Z");
    const ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nSUMMARY:Übung\r\nEND:VCALENDAR\r\n";
    await enqueueMail(
      ctx.deps.database.db,
      [
        {
          to: ["someone@example.org"],
          subject: "with file",
          text: "Hallo",
          attachments: [{ filename: "event-7.ics", contentType: "text/calendar; charset=utf-8", content: ics }],
        },
      ],
      now,
    );
    const [row] = await ctx.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, "with file"));
    expect(row?.attachments).toEqual([
      { filename: "event-7.ics", contentType: "text/calendar; charset=utf-8", content: ics },
    ]);
    expect(await sendDueMails(ctx.deps, now)).toMatchObject({ sent: 1 });
    const raw = smtp.raw.get("with file") ?? "";
    expect(raw).toMatch(/^Content-Type: multipart\/mixed/im);
    const part = raw.split(/\r?\n--/).find((p) => /Content-Type: text\/calendar/i.test(p)) ?? "";
    expect(part).toMatch(/filename=("?)event-7\.ics\1/);
    expect(part).toMatch(/Content-Transfer-Encoding: base64/i);
    const body = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("")
      .replace(/\s/g, "");
    expect(Buffer.from(body, "base64").toString("utf8")).toBe(ics);
    // A mail without attachments stays a plain text mail.
    await queue("no file");
    await sendDueMails(ctx.deps, now);
    expect(smtp.raw.get("no file")).toMatch(/^Content-Type: text\/plain/im);
  });

  it("marks mails skipped when no SMTP server is configured", async () => {
    const { id, now } = await queue("nowhere to go");
    const none = createMailer(undefined, "x", () => {});
    expect(await sendDueMails({ database: ctx.deps.database, mailer: none }, now)).toMatchObject({ skipped: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "skipped", attempts: 0, sentAt: null });
    expect(await sendDueMails(ctx.deps, now)).toMatchObject({ sent: 0 });
    expect(smtp.accepted).toEqual([]);
  });

  it("queues the forgot-password mail with the notice, in each administrator's language", async () => {
    const cast = await createCast(ctx);
    const { db } = ctx.deps.database;
    await db.update(users).set({ email: "chef@example.org" }).where(eq(users.id, cast.users.administrator.id));
    await db.update(preferences).set({ language: "fr" }).where(eq(preferences.userId, cast.users.administrator.id));
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/forgotpassword",
      payload: { user_login: cast.users.employee.login },
    });
    expect(res.statusCode).toBe(200);
    // The administrators are informed after the answer.
    await ctx.app.background.idle();
    const [mail] = await db.select().from(mailOutbox);
    expect(mail).toMatchObject({ recipients: ["chef@example.org"], status: "pending" });
    expect(mail?.subject).toBe(`CareCampus\u00a0: ${cast.users.employee.login} a oublié son mot de passe`);
    expect(mail?.text).toContain("a oublié son mot de passe et en demande un nouveau");
    expect(mail?.text).toContain("Ce message a été envoyé automatiquement par CareCampus.");
  });
});
