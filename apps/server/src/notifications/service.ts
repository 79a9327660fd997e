import type { Notification, NotificationMessageKey, NotificationType } from "@carecampus/contract";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { notifications } from "../db/schema";

/**
 * CustomMessage is translatable JSON: a message key plus its values, so every reader sees
 * it in their own language.
 */
export interface CustomMessage {
  key: NotificationMessageKey;
  values: Record<string, string>;
}

export interface NewNotification {
  userId: number;
  type: NotificationType;
  message: CustomMessage;
  expiresAt: Date | null;
}

/** Notifications with a message each (one insert per 1 000, far below PostgreSQL's parameter limit). */
export async function insertNotifications(db: Db | Tx, rows: readonly NewNotification[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1_000) {
    await db.insert(notifications).values(
      rows.slice(i, i + 1_000).map((r) => ({
        userId: r.userId,
        type: r.type,
        customMessage: r.message,
        expiresAt: r.expiresAt,
      })),
    );
  }
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

/** The unread notifications of one user, newest first. */
export async function listNotifications(db: Db, userId: number): Promise<Notification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(200);
  return rows.map((r) => ({
    ID: r.id,
    Type: r.type as Notification["Type"],
    CustomMessage: JSON.stringify(r.customMessage),
    ExpiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    CreatedAt: r.createdAt.toISOString(),
  }));
}

/** Marks a notification read; false when it is not the user's (or does not exist). */
export async function markRead(db: Db, userId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}
