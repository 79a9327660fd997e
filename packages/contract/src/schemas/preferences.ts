import { z } from "zod";
import { Avatar, Language, Theme } from "../settings";

export const Preferences = z.object({ theme: Theme, avatar: Avatar, language: Language }).meta({ id: "Preferences" });
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesPatch = z
  .discriminatedUnion("property", [
    z.object({ property: z.literal("avatar"), value: Avatar }).strict(),
    z.object({ property: z.literal("language"), value: Language }).strict(),
    z.object({ property: z.literal("theme"), value: Theme }).strict(),
  ])
  .meta({ id: "PreferencesPatch" });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;
