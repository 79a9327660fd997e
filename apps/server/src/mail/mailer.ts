import type { Transporter } from "nodemailer";

export interface Mailer {
  /** Sends when SMTP is configured; resolves false when it is not. Never throws. */
  send(to: string[], subject: string, text: string): Promise<boolean>;
}

export function createMailer(smtpUrl: string | undefined, from: string, log: (err: unknown) => void): Mailer {
  if (!smtpUrl) return { send: async () => false };
  // nodemailer loads with the first mail: most installations never send one.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(to, subject, text) {
      if (to.length === 0) return false;
      try {
        transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
        await (await transport).sendMail({ from, to, subject, text });
        return true;
      } catch (err) {
        log(err);
        return false;
      }
    },
  };
}
