import type { Preferences, PreferencesPatch } from "@carecampus/contract";
import { Avatar, Language, Theme } from "@carecampus/contract";
import { eq } from "drizzle-orm";
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
