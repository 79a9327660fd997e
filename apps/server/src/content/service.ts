import { EXPLANATION_TAGS, LINK_ATTRIBUTES } from "@carecampus/contract";
import { and, eq, notInArray, sql } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { Db, Tx } from "../db/client";
import { answers, appMeta, media, questionnaires, questions, topics, trainings, tutorialPages } from "../db/schema";
import { bumpContentGeneration } from "../learning/content-cache";
import { importWiki } from "../wiki/import";
import { ContentError, type ContentPackage, compareVersions } from "./package";

const VERSION_KEY = "content_version";

/** Explanations are HTML: only simple formatting and safe links survive (stored sanitised). */
export function sanitizeExplanation(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...EXPLANATION_TAGS],
    allowedAttributes: { a: [...LINK_ATTRIBUTES] },
    allowedSchemes: ["http", "https", "mailto"],
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
  }).trim();
}

export async function currentContentVersion(db: Db | Tx): Promise<string | null> {
  const rows = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, VERSION_KEY));
  return rows[0]?.value ?? null;
}

export interface ImportResult {
  status: "imported" | "unchanged";
  version: string;
  previous: string | null;
  topics: number;
  trainings: number;
  questions: number;
  media: number;
  tutorialPages: number;
  /** Package pages of the wiki, and the revisions this import added to them. */
  wikiPages: number;
  wikiRevisions: number;
}

const ANSWER_KEYS = "abcdefghijklmnopqrstuvwxyz";

/**
 * Imports a validated package in one transaction. Items are matched by key, so a newer
 * version updates content in place and everyone's progress and certificates stay; items the
 * new version lacks are retired (hidden), never deleted.
 */
export async function importPackage(db: Db | Tx, pkg: ContentPackage, now = new Date()): Promise<ImportResult> {
  return db.transaction(async (tx) => {
    // One importer at a time, also across processes sharing a PostgreSQL.
    await tx.execute(sql`select pg_advisory_xact_lock(42001)`);
    const previous = await currentContentVersion(tx);
    const counts = {
      topics: pkg.topics.length,
      trainings: pkg.trainings.length,
      questions: 0,
      media: pkg.media.length,
      tutorialPages: pkg.tutorial.length,
      wikiPages: pkg.wiki.reduce((n, t) => n + t.pages.length, 0),
      wikiRevisions: 0,
    };
    if (previous !== null) {
      const cmp = compareVersions(pkg.version, previous);
      if (cmp === 0) return { status: "unchanged", version: previous, previous, ...counts };
      if (cmp < 0) {
        throw new ContentError([
          `package.yaml: version: ${pkg.version} is older than the imported version ${previous}`,
        ]);
      }
    }

    const mediaIds = new Map<string, number>();
    for (const m of pkg.media) {
      const [row] = await tx
        .insert(media)
        .values({ kind: m.kind, name: m.name, mime: m.mime, size: m.data.length, sha256: m.sha256, data: m.data })
        .onConflictDoUpdate({
          target: [media.kind, media.name],
          set: { mime: m.mime, size: m.data.length, sha256: m.sha256, data: m.data },
          setWhere: sql`${media.sha256} <> ${m.sha256}`,
        })
        .returning({ id: media.id });
      const id =
        row?.id ??
        (
          await tx
            .select({ id: media.id })
            .from(media)
            .where(and(eq(media.kind, m.kind), eq(media.name, m.name)))
        )[0]?.id;
      if (id !== undefined) mediaIds.set(`${m.kind}:${m.name}`, id);
    }

    const topicIds = new Map<string, number>();
    for (const [position, t] of pkg.topics.entries()) {
      const [row] = await tx
        .insert(topics)
        .values({ key: t.key, name: t.name, icon: t.icon, color: t.color, position })
        .onConflictDoUpdate({
          target: topics.key,
          set: { name: t.name, icon: t.icon, color: t.color, position, retired: false },
        })
        .returning({ id: topics.id });
      topicIds.set(t.key, (row as { id: number }).id);
    }
    await tx
      .update(topics)
      .set({ retired: true })
      .where(notInArray(topics.key, [...topicIds.keys()]));

    const trainingKeys: string[] = [];
    for (const t of pkg.trainings) {
      trainingKeys.push(t.key);
      const values = {
        topicId: topicIds.get(t.topic) as number,
        name: t.name,
        icon: t.icon,
        description: t.description ?? null,
        validityMonths: t.validity_months,
        points: t.points,
        passive: t.passive,
        wikiLink: t.wiki_link ?? null,
        retired: false,
      };
      const [row] = await tx
        .insert(trainings)
        .values({ key: t.key, ...values })
        .onConflictDoUpdate({ target: trainings.key, set: values })
        .returning({ id: trainings.id });
      const trainingId = (row as { id: number }).id;

      const questionnaireIds: number[] = [];
      for (const [qPos, qn] of t.questionnaires.entries()) {
        const [qnRow] = await tx
          .insert(questionnaires)
          .values({ trainingId, key: qn.key, name: qn.name, position: qPos })
          .onConflictDoUpdate({
            target: [questionnaires.trainingId, questionnaires.key],
            set: { name: qn.name, position: qPos, retired: false },
          })
          .returning({ id: questionnaires.id });
        const questionnaireId = (qnRow as { id: number }).id;
        questionnaireIds.push(questionnaireId);

        const questionIds: number[] = [];
        for (const [pos, q] of qn.questions.entries()) {
          counts.questions += 1;
          const mediaKey = q.media ? ("image" in q.media ? `image:${q.media.image}` : `video:${q.media.video}`) : null;
          const qValues = {
            type: q.type,
            text: q.text,
            explanation: sanitizeExplanation(q.explanation),
            hint: q.hint ?? null,
            mediaId: mediaKey ? (mediaIds.get(mediaKey) ?? null) : null,
            position: pos,
            retired: false,
          };
          const [qRow] = await tx
            .insert(questions)
            .values({ questionnaireId, key: q.key, ...qValues })
            .onConflictDoUpdate({ target: [questions.questionnaireId, questions.key], set: qValues })
            .returning({ id: questions.id });
          const questionId = (qRow as { id: number }).id;
          questionIds.push(questionId);
          const answerKeys: string[] = [];
          for (const [aPos, a] of q.answers.entries()) {
            const key = ANSWER_KEYS.charAt(aPos);
            answerKeys.push(key);
            const aValues = { text: a.text, correct: a.correct ?? false, position: aPos, retired: false };
            await tx
              .insert(answers)
              .values({ questionId, key, ...aValues })
              .onConflictDoUpdate({ target: [answers.questionId, answers.key], set: aValues });
          }
          await tx
            .update(answers)
            .set({ retired: true })
            .where(and(eq(answers.questionId, questionId), notInArray(answers.key, answerKeys)));
        }
        await tx
          .update(questions)
          .set({ retired: true })
          .where(
            and(
              eq(questions.questionnaireId, questionnaireId),
              notInArray(questions.id, questionIds.length ? questionIds : [0]),
            ),
          );
      }
      await tx
        .update(questionnaires)
        .set({ retired: true })
        .where(
          and(
            eq(questionnaires.trainingId, trainingId),
            notInArray(questionnaires.id, questionnaireIds.length ? questionnaireIds : [0]),
          ),
        );
    }
    await tx.update(trainings).set({ retired: true }).where(notInArray(trainings.key, trainingKeys));

    // The tutorial is package content only: a new version replaces it as a whole.
    await tx.delete(tutorialPages);
    for (let i = 0; i < pkg.tutorial.length; i += 500) {
      await tx.insert(tutorialPages).values(pkg.tutorial.slice(i, i + 500));
    }

    const wiki = await importWiki(tx, pkg.wiki, pkg.version, now);
    // Servers keep the quiz content in memory per generation: this import makes a new one.
    await bumpContentGeneration(tx);
    counts.wikiRevisions = wiki.revisions;

    await tx
      .insert(appMeta)
      .values({ key: VERSION_KEY, value: pkg.version })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: pkg.version } });
    return { status: "imported", version: pkg.version, previous, ...counts };
  });
}
