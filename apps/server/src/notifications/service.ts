import type { Db, Tx } from "../db/client";
import { notifications } from "../db/schema";

export type NotificationType = "CERTIFICATE_EXPIRES" | "CALENDAR_EVENT_REMINDER" | "PASSWORD_RESET_REQUEST";

/**
 * CustomMessage is translatable JSON: a message key plus its values, so every reader sees
 * it in their own language.
 */
export interface CustomMessage {
  key: string;
  values: Record<string, string>;
}

export async function createNotifications(
  db: Db | Tx,
  userIds: readonly number[],
  type: NotificationType,
  message: CustomMessage,
  expiresAt: Date | null = null,
): Promise<void> {
  if (userIds.length === 0) return;
  await db.insert(notifications).values(userIds.map((userId) => ({ userId, type, customMessage: message, expiresAt })));
}
