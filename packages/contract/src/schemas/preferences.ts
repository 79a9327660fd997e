import { z } from "zod";
import { CONTENT_LANGUAGE_PATTERN } from "../rules/translations";
import { Avatar, Language, Theme } from "../settings";

/**
 * The language one takes trainings in (issue 31): a content language of the installation or "de"
 * (the original); null: the interface language.
 */
export const ContentLanguagePreference = z.string().nullable();

export const Preferences = z
  .object({ theme: Theme, avatar: Avatar, language: Language, content_language: ContentLanguagePreference })
  .meta({ id: "Preferences" });
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesPatch = z
  .discriminatedUnion("property", [
    z.object({ property: z.literal("avatar"), value: Avatar }).strict(),
    z.object({ property: z.literal("language"), value: Language }).strict(),
    z.object({ property: z.literal("theme"), value: Theme }).strict(),
    // "": follow the interface language again.
    z
      .object({
        property: z.literal("content_language"),
        value: z.union([z.literal(""), z.string().regex(CONTENT_LANGUAGE_PATTERN, "a language code such as tr")]),
      })
      .strict(),
  ])
  .meta({ id: "PreferencesPatch" });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

/** GET /content-languages: the languages trainings may be taken in, German (the binding original) first. */
export const ContentLanguages = z
  .object({
    source: z.string(),
    languages: z.array(z.string()),
    /** Whether a machine translation service makes suggestions (MACHINE_TRANSLATION_URL). */
    machine_suggestions: z.boolean(),
  })
  .meta({ id: "ContentLanguages" });
export type ContentLanguages = z.infer<typeof ContentLanguages>;
