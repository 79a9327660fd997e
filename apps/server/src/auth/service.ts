import { ErrorCode, type Language, type LoginResponse, NotificationMessageKey } from "@carecampus/contract";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { preferences, users } from "../db/schema";
import type { NotifyDeps, SessionDeps } from "../deps";
import { AppError } from "../errors";
import { enqueueMail, mailQueued } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { createNotifications } from "../notifications/service";
import { findUserByLogin, getUser, loadSessionUser, usersWithRole } from "../users/service";
import { verifyPassword } from "./passwords";

/** Login: unknown login and wrong password give the same answer (1000) in the same time. */
export async function login(deps: SessionDeps, loginName: string, password: string): Promise<LoginResponse> {
  const found = await findUserByLogin(deps.db, loginName);
  const ok = await verifyPassword(found?.passwordHash, password);
  if (!found || !ok) throw new AppError(ErrorCode.invalidCredentials, "Invalid username or password");
  const user = await getUser(deps.db, found.id);
  const session = await loadSessionUser(deps.db, found.id);
  if (!user || !session) throw new AppError(ErrorCode.invalidCredentials, "Invalid username or password");
  const token = await deps.tokens.sign({ ...session, language: user.language });
  return { token, user };
}

export async function refresh(deps: SessionDeps, userId: number, language: Language): Promise<string> {
  const session = await loadSessionUser(deps.db, userId);
  if (!session) throw new AppError(ErrorCode.sessionExpired, "Session expired");
  return deps.tokens.sign({ ...session, language });
}

/**
 * Forgot password (ARCHITECTURE decision 8): informs the administrators of the user's
 * facility — superusers for users without one. An unknown login gets the same answer as a
 * known one, so the call reveals nothing about which logins exist.
 */
export async function forgotPassword(deps: NotifyDeps, loginName: string): Promise<void> {
  const { db } = deps;
  const found = await findUserByLogin(db, loginName);
  if (!found) return;
  const user = await getUser(db, found.id);
  if (!user) return;
  const adminIds =
    user.facility === null
      ? await usersWithRole(db, "superchris", null)
      : await usersWithRole(db, "administrator", user.facility.id);
  const recipients = adminIds.filter((id) => id !== user.id);
  if (recipients.length === 0) throw new AppError(ErrorCode.adminDoesNotExist, "No administrator to inform");
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
}
