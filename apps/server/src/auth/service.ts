import { ErrorCode, type Language, type LoginResponse, NotificationMessageKey } from "@carecampus/contract";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { currentMember } from "../access/scope";
import { mailOutbox, notifications, preferences, userRoles, users } from "../db/schema";
import type { LoginDeps, NotifyDeps, SessionDeps } from "../deps";
import { AppError } from "../errors";
import { enqueueMailIds, mailQueued } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { beginAttempt, passwordKey } from "../security/limits";
import { verifyPassword } from "../security/passwords";
import { loadSessionUser } from "../security/session-cache";
import { findUserByLogin, getUser } from "../users/service";

/**
 * Login: unknown login and wrong password give the same answer (1000) in the same time, and
 * count alike against the account's and the IP's failure limits (security/limits.ts); a blocked
 * account or IP answers 429 before any password is checked.
 */
export async function login(deps: LoginDeps, loginName: string, password: string, ip: string): Promise<LoginResponse> {
  const found = await findUserByLogin(deps.db, loginName);
  const attempt = await beginAttempt(deps, passwordKey(found?.id, loginName), ip);
  const ok = await verifyPassword(found?.passwordHash, password);
  if (!found || !ok) throw new AppError(ErrorCode.invalidCredentials, "Invalid username or password");
  await attempt.succeeded();
  const session = await beginSession(deps, found.id);
  if (!session) throw new AppError(ErrorCode.invalidCredentials, "Invalid username or password");
  return session;
}

/**
 * A new session of a current member (the password login, single sign-on): its first token, from
 * now on, in the user's language, and the user; undefined when the account is no longer there.
 */
export async function beginSession(deps: LoginDeps, userId: number): Promise<LoginResponse | undefined> {
  const user = await getUser(deps.db, userId, deps.installationTheme);
  const session = await loadSessionUser(deps.db, userId);
  if (!user || !session) return undefined;
  const authTime = Math.floor(deps.now().getTime() / 1000);
  return { token: await deps.tokens.sign({ ...session, language: user.language, authTime }), user };
}

/** A new token of the same session: its login time travels on, so the absolute lifetime holds. */
export async function refresh(
  deps: SessionDeps,
  userId: number,
  language: Language,
  authTime: number,
): Promise<string> {
  const session = await loadSessionUser(deps.db, userId);
  if (!session) throw new AppError(ErrorCode.sessionExpired, "Session expired");
  return deps.tokens.sign({ ...session, language, authTime });
}

/** Who a forgot-password request reached: nobody is 'unknown' (no such login) or 'nobody' (spec §8 1016). */
export type ForgotPasswordOutcome = "informed" | "unknown" | "nobody";

/**
 * Forgot password (ARCHITECTURE decision 8): informs the administrators of the user's
 * facility, or the superusers when the facility has none (or the user has no facility).
 * Runs after the answer is sent (auth/routes.ts), so neither the answer nor its timing tells
 * whether the login exists or has anyone to inform.
 *
 * Nor does the database work (issue 27): PGlite runs one statement at a time, so the next
 * request's wait would tell a login that writes notices and mails from one that writes
 * nothing. Every request runs the same statements: the lookups (by an id naming nobody for an
 * unknown login), then one transaction that writes the notices and the queued mails and deletes
 * what it wrote when nobody is to be informed. An unknown login, and the request nobody can
 * answer, write the notices and mails a login without a facility would cause (to the
 * superusers) and delete them again before the commit: no notice is seen, no mail is sent,
 * nothing stays.
 *
 * Spec §8's 1016 'admin does not exist' would tell a stranger that the login exists and is
 * the sole administrator or superuser, so the public call never answers it: a facility
 * without an administrator falls back to the superusers, and where nobody at all can be
 * informed (the sole superuser asking) the outcome is 'nobody', which the route logs with
 * error code 1016 for the operator (README: `npm run admin:reset-password`).
 */
export async function forgotPassword(deps: NotifyDeps, loginName: string): Promise<ForgotPasswordOutcome> {
  const { db } = deps;
  const found = await findUserByLogin(db, loginName);
  // Only the facility and the language matter here: any theme serves. Ids start at 1: 0 is nobody.
  const user = await getUser(db, found?.id ?? 0, "carely");
  const staff = await db
    .select({ id: users.id, role: userRoles.role })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(
      and(
        // A former administrator is informed of nothing (issue 28).
        currentMember,
        or(
          eq(userRoles.role, "superchris"),
          and(eq(userRoles.role, "administrator"), eq(users.facilityId, user?.facility?.id ?? 0)),
        ),
      ),
    )
    .orderBy(users.id);
  const superusers = staff.filter((s) => s.role === "superchris").map((s) => s.id);
  const others = (ids: number[]) => ids.filter((id) => id !== user?.id);
  let recipients = others(staff.filter((s) => s.role === "administrator").map((s) => s.id));
  if (recipients.length === 0) recipients = others(superusers);
  const outcome: ForgotPasswordOutcome = !user ? "unknown" : recipients.length === 0 ? "nobody" : "informed";
  const discard = outcome !== "informed";
  const targets = discard ? superusers : recipients;
  if (targets.length === 0) return outcome;
  const message = user
    ? { login: user.login, name: user.name, surname: user.surname }
    : { login: loginName.slice(0, 100), name: "", surname: "" };
  // The notices and the mails to the administrators with an address, in one transaction.
  const mailIds = await db.transaction(async (tx) => {
    const noticeIds = await tx
      .insert(notifications)
      .values(
        targets.map((userId) => ({
          userId,
          type: "PASSWORD_RESET_REQUEST" as const,
          customMessage: { key: NotificationMessageKey.passwordReset, values: message },
          expiresAt: null,
        })),
      )
      .returning({ id: notifications.id });
    const admins = await tx
      .select({ email: users.email, language: preferences.language })
      .from(users)
      .leftJoin(preferences, eq(preferences.userId, users.id))
      .where(and(inArray(users.id, targets), isNotNull(users.email)));
    const mails = admins.flatMap((a) => {
      if (!a.email) return [];
      const language = mailLanguage(a.language);
      const texts = mailTexts(language).passwordReset;
      return [
        { to: [a.email], subject: fill(texts.subject, message), text: mailBody(language, [fill(texts.text, message)]) },
      ];
    });
    const ids = await enqueueMailIds(tx, mails, deps.now());
    // The same statements whether they delete what was written (discard) or nothing.
    const written = sql`${discard}::boolean`;
    await tx.delete(notifications).where(
      and(
        inArray(
          notifications.id,
          noticeIds.map((n) => n.id),
        ),
        written,
      ),
    );
    await tx.delete(mailOutbox).where(and(inArray(mailOutbox.id, ids), written));
    return ids;
  });
  // The sender wakes alike (and finds nothing due after a discarded request).
  if (mailIds.length > 0) mailQueued();
  return outcome;
}
