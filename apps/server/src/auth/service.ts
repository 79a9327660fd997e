import { ErrorCode, type Language, type LoginResponse, NotificationMessageKey } from "@carecampus/contract";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { preferences, users } from "../db/schema";
import type { LoginDeps, NotifyDeps, SessionDeps } from "../deps";
import { AppError } from "../errors";
import { enqueueMail, mailQueued } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { createNotifications } from "../notifications/service";
import { beginAttempt, passwordKey } from "../security/limits";
import { verifyPassword } from "../security/passwords";
import { loadSessionUser } from "../security/session-cache";
import { findUserByLogin, getUser, usersWithRole } from "../users/service";

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
  const user = await getUser(deps.db, found.id, deps.installationTheme);
  const session = await loadSessionUser(deps.db, found.id);
  if (!user || !session) throw new AppError(ErrorCode.invalidCredentials, "Invalid username or password");
  const authTime = Math.floor(deps.now().getTime() / 1000);
  const token = await deps.tokens.sign({ ...session, language: user.language, authTime });
  return { token, user };
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
 * Spec §8's 1016 'admin does not exist' would tell a stranger that the login exists and is
 * the sole administrator or superuser, so the public call never answers it: a facility
 * without an administrator falls back to the superusers, and where nobody at all can be
 * informed (the sole superuser asking) the outcome is 'nobody', which the route logs with
 * error code 1016 for the operator (README: `npm run admin:reset-password`).
 */
export async function forgotPassword(deps: NotifyDeps, loginName: string): Promise<ForgotPasswordOutcome> {
  const { db } = deps;
  const found = await findUserByLogin(db, loginName);
  if (!found) return "unknown";
  // Only the facility and the language matter here: any theme serves.
  const user = await getUser(db, found.id, "carely");
  if (!user) return "unknown";
  const others = (ids: number[]) => ids.filter((id) => id !== user.id);
  let recipients = user.facility === null ? [] : others(await usersWithRole(db, "administrator", user.facility.id));
  if (recipients.length === 0) recipients = others(await usersWithRole(db, "superchris", null));
  if (recipients.length === 0) return "nobody";
  const message = { login: user.login, name: user.name, surname: user.surname };
  // The notices and the mails to the administrators with an address, in one transaction.
  const queued = await db.transaction(async (tx) => {
    await createNotifications(tx, recipients, "PASSWORD_RESET_REQUEST", {
      key: NotificationMessageKey.passwordReset,
      values: message,
    });
    const admins = await tx
      .select({ email: users.email, language: preferences.language })
      .from(users)
      .leftJoin(preferences, eq(preferences.userId, users.id))
      .where(and(inArray(users.id, recipients), isNotNull(users.email)));
    const mails = admins.flatMap((a) => {
      if (!a.email) return [];
      const language = mailLanguage(a.language);
      const texts = mailTexts(language).passwordReset;
      return [
        { to: [a.email], subject: fill(texts.subject, message), text: mailBody(language, [fill(texts.text, message)]) },
      ];
    });
    return enqueueMail(tx, mails, deps.now());
  });
  if (queued > 0) mailQueued();
  return "informed";
}
