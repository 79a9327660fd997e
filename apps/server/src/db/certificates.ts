import { isNull, type SQL, sql } from "drizzle-orm";
import { certificates } from "./schema";

/*
 * Which certificates count (issue 29). A revoked certificate stays in the history, marked, but
 * proves nothing: it leaves progress and colours, the overview and its export, expiry notices,
 * the "certificates held" counts and the renewal's start. Every query that asks for the
 * certificates that count says so with this one condition, never with its own spelling.
 */

/** A certificate that counts: not revoked. One condition on `certificates`. */
export const validCertificate: SQL = isNull(certificates.revokedAt);

/** The same in a hand-written statement whose `certificates` go by `alias` (e.g. `c`). */
export function validCertificateAs(alias: string): SQL {
  return sql`${sql.identifier(alias)}."revoked_at" is null`;
}
