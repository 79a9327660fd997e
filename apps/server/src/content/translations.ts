import crypto from "node:crypto";
import type { NameTranslationKind, TranslationStatus } from "@carecampus/contract";
import { isNull } from "drizzle-orm";
import type { Tx } from "../db/client";
import { nameTranslations } from "../db/schema";

/*
 * Which German text a translation translates (issue 31): a hash of the question's German fields —
 * its text, each live answer's id and text, the explanation and the hint. A translation keeps the
 * hash of the German it was written for; when the German changes (an edit in place, an answer
 * added or removed), the hashes differ and the translation is outdated. A new version of a
 * question (content/versions.ts) is a new question id, which has no translations yet.
 */

export interface GermanQuestion {
  text: string;
  answers: readonly { id: number; text: string }[];
  explanation: string;
  hint: string | null;
}

export function sourceHash(q: GermanQuestion): string {
  const answers = [...q.answers].sort((a, b) => a.id - b.id).map((a) => [a.id, a.text]);
  return crypto
    .createHash("sha256")
    .update(JSON.stringify([q.text, answers, q.explanation, q.hint ?? ""]))
    .digest("base64url");
}

/** A question in one content language, as a learner may be shown it. */
export interface QuestionInLanguage {
  text: string;
  /** Every live answer's text by its id. */
  answers: Map<number, string>;
  explanation: string;
  hint: string | null;
}

/**
 * The translation a learner may be shown: published, written for the German as it is now, and
 * with a text for every live answer — else null, and the learner gets the whole question in
 * German (never a mix).
 */
export function usableTranslation(
  german: GermanQuestion,
  germanHash: string,
  t: {
    status: string;
    sourceHash: string;
    text: string;
    answers: { id: number; text: string }[];
    explanation: string;
    hint: string | null;
  },
): QuestionInLanguage | null {
  if (t.status !== "published" || t.sourceHash !== germanHash) return null;
  const texts = new Map(t.answers.map((a) => [a.id, a.text]));
  if (!german.answers.every((a) => (texts.get(a.id) ?? "").trim() !== "")) return null;
  return { text: t.text, answers: texts, explanation: t.explanation, hint: t.hint };
}

/** Which German name a name's translation translates (topics, trainings, questionnaires). */
export function nameHash(name: string): string {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify(["name", name]))
    .digest("base64url");
}

/**
 * Writes a name's translation into `lang` for the German name as it is now, a new one or over the
 * one there is — with `keepAppWritten` (a package import) not over one a person wrote in the app.
 */
export async function storeNameTranslation(
  tx: Tx,
  item: { kind: NameTranslationKind; id: number; name: string },
  lang: string,
  values: { name: string; status: TranslationStatus; updatedAt: Date; updatedBy: number | null },
  keepAppWritten = false,
): Promise<void> {
  const set = { ...values, sourceHash: nameHash(item.name) };
  await tx
    .insert(nameTranslations)
    .values({ kind: item.kind, itemId: item.id, lang, ...set })
    .onConflictDoUpdate({
      target: [nameTranslations.kind, nameTranslations.itemId, nameTranslations.lang],
      set,
      ...(keepAppWritten && { setWhere: isNull(nameTranslations.updatedBy) }),
    });
}
