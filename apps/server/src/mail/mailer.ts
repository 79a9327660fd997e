import type { Transporter } from "nodemailer";
import type { MailAttachment } from "../db/schema";

/** The SMTP transport behind the outbox; only the sender job (mail/outbox.ts) uses it. */
export interface Mailer {
  /** False without SMTP_URL: queued mails are then marked skipped, never sent. */
  readonly configured: boolean;
  /**
   * Hands one mail to the SMTP server. Resolves when the server accepted it for every
   * recipient, rejects with the server's (or the connection's) error otherwise.
   */
  deliver(to: string[], subject: string, text: string, attachments?: readonly MailAttachment[]): Promise<void>;
}

/** Timeouts well inside the sender's claim on a mail (nodemailer waits up to 10 minutes). */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function createMailer(smtpUrl: string | undefined, from: string, log: (err: unknown) => void): Mailer {
  if (!smtpUrl) {
    return {
      configured: false,
      deliver: async () => {
        throw new Error("SMTP_URL is not set");
      },
    };
  }
  // nodemailer loads with the first mail: most installations never send one.
  let transport: Promise<Transporter> | undefined;
  return {
    configured: true,
    async deliver(to, subject, text, attachments = []) {
      try {
        transport ??= import("nodemailer").then(({ default: nodemailer }) =>
          nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }),
        );
        const info = await (await transport).sendMail({
          from,
          to,
          subject,
          text,
          // Only the fields we stored: nodemailer would also read paths and URLs from an attachment.
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        });
        const rejected = info.rejected ?? [];
        if (rejected.length > 0) throw new Error(`rejected by the SMTP server: ${rejected.join(", ")}`);
      } catch (err) {
        log(err);
        throw err;
      }
    },
  };
}
