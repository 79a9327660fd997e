import type { Preferences, PreferencesPatch } from "@carecampus/contract";
import { Avatar, ErrorCode, Language, SOURCE_LANGUAGE, Theme } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import type { Db } from "../db/client";
import { preferences } from "../db/schema";
import { AppError } from "../errors";

/** A user's theme: their own choice, or the installation's (`installationTheme`, THEME) until they make one. */
export function themeOf(stored: string | null, installationTheme: Theme): Theme {
  return stored === null ? installationTheme : Theme.catch(installationTheme).parse(stored);
}

/** A user who has not chosen a theme has the installation's (`installationTheme`, THEME). */
export async function getPreferences(
  db: Db,
  userId: number,
  installationTheme: Theme,
): Promise<Preferences | undefined> {
  const rows = await db.select().from(preferences).where(eq(preferences.userId, userId)).limit(1);
  const row = rows[0];
  if (!row) return undefined;
  return {
    avatar: Avatar.catch("female").parse(row.avatar),
    language: Language.catch("de").parse(row.language),
    theme: themeOf(row.theme, installationTheme),
    content_language: row.contentLanguage,
  };
}

/** A content-language choice as stored and answered: "" (follow the interface language) is null. */
const contentLanguageOf = (value: string) => (value === "" ? null : value);

/** The column and value a preference is stored as. */
function stored(patch: PreferencesPatch) {
  if (patch.property === "content_language") return { contentLanguage: contentLanguageOf(patch.value) };
  return { [patch.property]: patch.value };
}

export async function updatePreferences(db: Db, userId: number, patch: PreferencesPatch): Promise<void> {
  const set = stored(patch);
  await db
    .insert(preferences)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: preferences.userId, set });
}

/** GET /preferences/{id}: only the user themselves (or a superuser); else 1002. */
export async function getOwnPreferences(
  db: Db,
  actor: Actor,
  userId: number,
  installationTheme: Theme,
): Promise<Preferences> {
  assertMay(actor, "user.account", { id: userId });
  const prefs = await getPreferences(db, userId, installationTheme);
  if (!prefs) throw notFound("user.account");
  return prefs;
}

/** PATCH /preferences/{id}: one property; the answer is the whole set after the change. */
export async function changeOwnPreferences(
  db: Db,
  actor: Actor,
  userId: number,
  patch: PreferencesPatch,
  installationTheme: Theme,
  contentLanguages: readonly string[],
): Promise<Preferences> {
  const before = await getOwnPreferences(db, actor, userId, installationTheme);
  if (patch.property === "content_language" && patch.value !== "" && patch.value !== SOURCE_LANGUAGE) {
    if (!contentLanguages.includes(patch.value)) {
      throw new AppError(
        ErrorCode.validation,
        `"${patch.value}" is not a language trainings come in here (de, ${contentLanguages.join(", ") || "none other"})`,
      );
    }
  }
  await updatePreferences(db, userId, patch);
  if (patch.property === "content_language") return { ...before, content_language: contentLanguageOf(patch.value) };
  return { ...before, [patch.property]: patch.value };
}
