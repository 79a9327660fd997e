import type { Preferences, PreferencesPatch } from "@carecampus/contract";
import { Avatar, Language, Theme } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import type { Db } from "../db/client";
import { preferences } from "../db/schema";

export async function getPreferences(db: Db, userId: number): Promise<Preferences | undefined> {
  const rows = await db.select().from(preferences).where(eq(preferences.userId, userId)).limit(1);
  const row = rows[0];
  if (!row) return undefined;
  return {
    avatar: Avatar.catch("female").parse(row.avatar),
    language: Language.catch("de").parse(row.language),
    theme: Theme.catch("carely").parse(row.theme),
  };
}

export async function updatePreferences(db: Db, userId: number, patch: PreferencesPatch): Promise<void> {
  await db
    .insert(preferences)
    .values({ userId, [patch.property]: patch.value })
    .onConflictDoUpdate({ target: preferences.userId, set: { [patch.property]: patch.value } });
}

/** GET /preferences/{id}: only the user themselves (or a superuser); else 1002. */
export async function getOwnPreferences(db: Db, actor: Actor, userId: number): Promise<Preferences> {
  assertMay(actor, "user.account", { id: userId });
  const prefs = await getPreferences(db, userId);
  if (!prefs) throw notFound("user.account");
  return prefs;
}

/** PATCH /preferences/{id}: one property; the answer is the whole set after the change. */
export async function changeOwnPreferences(
  db: Db,
  actor: Actor,
  userId: number,
  patch: PreferencesPatch,
): Promise<Preferences> {
  const before = await getOwnPreferences(db, actor, userId);
  await updatePreferences(db, userId, patch);
  return { ...before, [patch.property]: patch.value };
}
