import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { type MailAttachment, mailOutbox } from "../db/schema";
import type { Mailer } from "./mailer";

export type { MailAttachment };

/** A mail to queue: usually one recipient, so each gets it in their own language. */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  /** Files sent with it, e.g. an event's .ics (text, stored in the outbox row). */
  attachments?: MailAttachment[];
}

/** Attempts before a mail is given up (status failed, logged, never retried). */
export const MAX_MAIL_ATTEMPTS = 5;
/** Wait before the second attempt; doubled for each further one (1, 2, 4, 8 minutes). */
export const MAIL_RETRY_BASE_MS = 60_000;
/**
 * How long a claimed mail belongs to its sender. A sender that died meanwhile leaves it
 * `sending`; after the claim it is due again (that attempt counted). Far longer than a send
 * can take with the mailer's SMTP timeouts.
 */
export const MAIL_CLAIM_MS = 15 * 60_000;
/** Mails claimed at once; a run goes on claiming until none is due. */
const CLAIM_BATCH = 10;

const queuedListeners = new Set<() => void>();

/**
 * Queues mails in the caller's transaction: they exist exactly when what caused them was
 * committed. Call `mailQueued()` after the commit so the sender goes at once.
 */
export async function enqueueMail(tx: Db | Tx, mails: OutgoingMail[], now: Date): Promise<number> {
  const rows = mails.filter((m) => m.to.length > 0);
  for (let i = 0; i < rows.length; i += 1_000) {
    await tx.insert(mailOutbox).values(outboxRows(rows.slice(i, i + 1_000), now));
  }
  return rows.length;
}

/**
 * `enqueueMail` for a few mails without attachments, always in one statement (none, too: the
 * same work whatever the recipients): the ids of their outbox rows.
 */
export async function enqueueMailIds(tx: Db | Tx, mails: OutgoingMail[], now: Date): Promise<number[]> {
  const rows = mails
    .filter((m) => m.to.length > 0)
    .map((m) => ({ recipients: m.to, subject: m.subject, text: m.text }));
  const result = await tx.execute<{ id: number }>(sql`
    insert into mail_outbox (recipients, subject, text, next_attempt_at)
    select r.recipients, r.subject, r.text, ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(recipients text[], subject text, text text)
    returning id`);
  return result.rows.map((r) => Number(r.id));
}

function outboxRows(mails: OutgoingMail[], now: Date) {
  return mails.map((m) => ({
    recipients: m.to,
    subject: m.subject,
    text: m.text,
    attachments: m.attachments?.length ? m.attachments : null,
    nextAttemptAt: now,
  }));
}

/** Tells the job runner of this process that mails wait (after the transaction committed). */
export function mailQueued(): void {
  for (const listener of queuedListeners) listener();
}

/** The job runner listens here; the return value stops listening. */
export function onMailQueued(listener: () => void): () => void {
  queuedListeners.add(listener);
  return () => queuedListeners.delete(listener);
}

export interface SendOptions {
  maxAttempts?: number;
  /** The wait after the given failed attempt (1-based). */
  retryDelayMs?: (attempt: number) => number;
  claimMs?: number;
}

export interface SendResult {
  /** Accepted by the SMTP server and marked sent. */
  sent: number;
  /** Failed this time, due again later. */
  retried: number;
  /** Failed for the last time: status failed. */
  failed: number;
  /** Not sent because no SMTP server is configured (status skipped). */
  skipped: number;
  /** The errors of this run's failed attempts, for the log. */
  errors: { id: number; attempt: number; error: string }[];
}

const backoff = (attempt: number) => MAIL_RETRY_BASE_MS * 2 ** (attempt - 1);

type Claimed = {
  id: number;
  recipients: string[];
  subject: string;
  text: string;
  attachments: MailAttachment[] | null;
  attempts: number;
};

/**
 * Claims due mails atomically: the row locks of FOR UPDATE SKIP LOCKED keep two senders (two
 * servers) off the same rows, and the claim (status sending, due again only after the claim
 * time) keeps them off once committed. The attempt is counted here, before the send.
 */
async function claim(db: Db, now: Date, claimMs: number): Promise<Claimed[]> {
  const until = new Date(now.getTime() + claimMs);
  const result = await db.execute<Claimed>(sql`
    update ${mailOutbox}
    set status = 'sending', attempts = ${mailOutbox.attempts} + 1, next_attempt_at = ${until.toISOString()}
    where ${mailOutbox.id} in (
      select id from ${mailOutbox}
      where status in ('pending', 'sending') and next_attempt_at <= ${now.toISOString()}
      order by id
      limit ${CLAIM_BATCH}
      for update skip locked
    )
    returning id, recipients, subject, text, attachments, attempts`);
  return result.rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

/**
 * The sender job: hands every due mail to the SMTP server, one at a time, and marks it sent
 * once the server accepted it; a failure waits (1, 2, 4, 8 minutes) and after the last
 * attempt the mail is failed. Without SMTP_URL queued mails are marked skipped: mails are an
 * extra to the in-app notifications, and a server that gets SMTP later does not send old ones.
 */
export async function sendDueMails(
  deps: { database: { db: Db }; mailer: Mailer },
  now: Date,
  options: SendOptions = {},
): Promise<SendResult> {
  const { db } = deps.database;
  const result: SendResult = { sent: 0, retried: 0, failed: 0, skipped: 0, errors: [] };
  if (!deps.mailer.configured) {
    const skipped = await db
      .update(mailOutbox)
      .set({ status: "skipped" })
      .where(inArray(mailOutbox.status, ["pending"]))
      .returning({ id: mailOutbox.id });
    result.skipped = skipped.length;
    return result;
  }
  const maxAttempts = options.maxAttempts ?? MAX_MAIL_ATTEMPTS;
  const retryDelay = options.retryDelayMs ?? backoff;
  for (;;) {
    const batch = await claim(db, now, options.claimMs ?? MAIL_CLAIM_MS);
    if (batch.length === 0) return result;
    for (const mail of batch) {
      const mine = and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, "sending"));
      try {
        await deps.mailer.deliver(mail.recipients, mail.subject, mail.text, mail.attachments ?? []);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        result.errors.push({ id: mail.id, attempt: mail.attempts, error });
        const last = mail.attempts >= maxAttempts;
        await db
          .update(mailOutbox)
          .set(
            last
              ? { status: "failed", lastError: error }
              : {
                  status: "pending",
                  lastError: error,
                  nextAttemptAt: new Date(now.getTime() + retryDelay(mail.attempts)),
                },
          )
          .where(mine);
        if (last) result.failed += 1;
        else result.retried += 1;
        continue;
      }
      await db.update(mailOutbox).set({ status: "sent", sentAt: now, lastError: null }).where(mine);
      result.sent += 1;
    }
  }
}
