import { EXPLANATION_TAGS, LINK_ATTRIBUTES } from "@carecampus/contract";
import { and, asc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { recordAudit } from "../audit/record";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import {
  answers,
  appMeta,
  media,
  questionnaires,
  questions,
  questionTranslations,
  topics,
  trainings,
  tutorialPages,
} from "../db/schema";
import { runTransaction } from "../db/transaction";
import { mediaStore } from "../storage/store";
import { importWiki } from "../wiki/import";
import {
  ContentError,
  type ContentPackage,
  compareVersions,
  type PackageNameTranslation,
  type PackageTranslation,
} from "./package";
import { sourceHash, storeNameTranslation } from "./translations";
import { readQuestionnaireQuestions, saveQuestion } from "./versions";

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
  /** Answered questions whose meaning changed: written as new versions. */
  newVersions: number;
  /** Questions' translations the package brings (translations/), written as published. */
  translations: number;
}

async function idByKey(tx: Tx, table: typeof topics | typeof trainings, key: string): Promise<number> {
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.key, key));
  return row?.id ?? 0;
}

/*
 * What an import never retires: package content that app content lives in. A package
 * questionnaire (training, topic) gone from the package stays while questions (questionnaires,
 * trainings) written in the app are live in it: an import never hides app content.
 */
const keepsNoAppQuestions = sql`not exists (select 1 from ${questions} q where q."questionnaire_id" = ${questionnaires.id} and q."origin" <> 'package' and not q."retired")`;
const keepsLiveQuestionnaires = sql`not exists (select 1 from ${questionnaires} qn where qn."training_id" = ${trainings.id} and not qn."retired")`;
const keepsLiveTrainings = sql`not exists (select 1 from ${trainings} t where t."topic_id" = ${topics.id} and not t."retired")`;

/**
 * Imports a validated package in one transaction. Items are matched by key, so a newer
 * version updates content in place and everyone's progress and certificates stay; items the
 * new version lacks are retired (hidden), never deleted. Authoring saves and wiki uploads go on
 * meanwhile (migration 0016 holds no row for the whole import); a deadlock with one of them runs
 * the import once more (db/transaction.ts).
 */
/**
 * A package question's translations (translations/), published for its German as just saved:
 * the answers by the German's order. A translation written in the app (it has an author) is app
 * content and stays as it is.
 */
async function savePackageTranslations(
  tx: Tx,
  questionId: number,
  list: PackageTranslation[],
  now: Date,
): Promise<number> {
  if (list.length === 0) return 0;
  const [q] = await tx
    .select({ text: questions.text, explanation: questions.explanation, hint: questions.hint })
    .from(questions)
    .where(eq(questions.id, questionId));
  if (!q) return 0;
  const live = await tx
    .select({ id: answers.id, text: answers.text })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.retired, false)))
    .orderBy(asc(answers.position), asc(answers.id));
  const hash = sourceHash({ ...q, answers: live });
  for (const t of list) {
    const values = {
      text: t.text,
      answers: live.map((a, i) => ({ id: a.id, text: t.answers[i] ?? "" })),
      explanation: sanitizeExplanation(t.explanation),
      hint: q.hint === null ? null : t.hint,
      status: "published",
      sourceHash: hash,
      updatedAt: now,
      updatedBy: null,
    };
    await tx
      .insert(questionTranslations)
      .values({ questionId, lang: t.lang, ...values })
      .onConflictDoUpdate({
        target: [questionTranslations.questionId, questionTranslations.lang],
        set: values,
        setWhere: isNull(questionTranslations.updatedBy),
      });
  }
  return list.length;
}

/**
 * The package's names in other languages (translations/): published, for the German name as it
 * stands now (a name edited in the app is translated from that name, and such a translation shows
 * once the German is the same again). One written in the app stays.
 */
async function savePackageNames(tx: Tx, list: PackageNameTranslation[], now: Date): Promise<number> {
  let saved = 0;
  for (const n of list) {
    const [item] =
      n.kind === "topic"
        ? await tx.select({ id: topics.id, name: topics.name }).from(topics).where(eq(topics.key, n.topic))
        : n.kind === "training"
          ? await tx
              .select({ id: trainings.id, name: trainings.name })
              .from(trainings)
              .where(eq(trainings.key, n.training))
          : await tx
              .select({ id: questionnaires.id, name: questionnaires.name })
              .from(questionnaires)
              .innerJoin(trainings, eq(trainings.id, questionnaires.trainingId))
              .where(and(eq(trainings.key, n.training), eq(questionnaires.key, n.questionnaire)));
    if (!item) continue;
    const values = { name: n.name, status: "published" as const, updatedAt: now, updatedBy: null };
    await storeNameTranslation(tx, { kind: n.kind, ...item }, n.lang, values, true);
    saved += 1;
  }
  return saved;
}

export async function importPackage(db: Db | Tx, pkg: ContentPackage, now = new Date()): Promise<ImportResult> {
  return runTransaction(db, async (tx) => {
    // One importer at a time, also across processes sharing a PostgreSQL.
    await lockForTransaction(tx, "contentImport");
    const previous = await currentContentVersion(tx);
    const counts = {
      topics: pkg.topics.length,
      trainings: pkg.trainings.length,
      questions: 0,
      media: pkg.media.length,
      tutorialPages: pkg.tutorial.length,
      wikiPages: pkg.wiki.reduce((n, t) => n + t.pages.length, 0),
      wikiRevisions: 0,
      newVersions: 0,
      translations: 0,
    };
    const translated = new Map<string, PackageTranslation[]>();
    for (const t of pkg.translations) {
      const key = `${t.training}/${t.questionnaire}/${t.question}`;
      translated.set(key, [...(translated.get(key) ?? []), t]);
    }
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
    // A file's bytes go into storage only when they are new or changed; its old bytes go with the
    // change (migration 0017's trigger). Stored in this transaction: an import stores all or nothing.
    const store = mediaStore(tx);
    for (const m of pkg.media) {
      const [known] = await tx
        .select({ id: media.id, sha256: media.sha256 })
        .from(media)
        .where(and(eq(media.kind, m.kind), eq(media.name, m.name)));
      if (known?.sha256 === m.sha256) {
        mediaIds.set(`${m.kind}:${m.name}`, known.id);
        continue;
      }
      const file = await store.put([m.data]);
      const values = { mime: m.mime, size: file.size, sha256: file.sha256, storageKey: file.key };
      const [row] = known
        ? await tx.update(media).set(values).where(eq(media.id, known.id)).returning({ id: media.id })
        : await tx
            .insert(media)
            .values({ kind: m.kind, name: m.name, ...values })
            .returning({ id: media.id });
      if (row) mediaIds.set(`${m.kind}:${m.name}`, row.id);
    }

    const topicIds = new Map<string, number>();
    for (const [position, t] of pkg.topics.entries()) {
      const [row] = await tx
        .insert(topics)
        .values({ key: t.key, name: t.name, icon: t.icon, color: t.color, position })
        .onConflictDoUpdate({
          target: topics.key,
          set: { name: t.name, icon: t.icon, color: t.color, position, retired: false },
          // A package topic edited in the app is app content since: the import leaves it.
          setWhere: eq(topics.origin, "package"),
        })
        .returning({ id: topics.id });
      topicIds.set(t.key, row?.id ?? (await idByKey(tx, topics, t.key)));
    }
    // Retired only after the trainings (below): a topic that holds app content stays.
    const topicKeys = [...topicIds.keys()];

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
        legalBasis: t.legal_basis ?? null,
        retired: false,
      };
      const [row] = await tx
        .insert(trainings)
        .values({ key: t.key, ...values })
        .onConflictDoUpdate({ target: trainings.key, set: values, setWhere: eq(trainings.origin, "package") })
        .returning({ id: trainings.id });
      const trainingId = row?.id ?? (await idByKey(tx, trainings, t.key));

      const questionnaireIds: number[] = [];
      for (const [qPos, qn] of t.questionnaires.entries()) {
        const [qnRow] = await tx
          .insert(questionnaires)
          .values({ trainingId, key: qn.key, name: qn.name, position: qPos })
          .onConflictDoUpdate({
            target: [questionnaires.trainingId, questionnaires.key],
            set: { name: qn.name, position: qPos, retired: false },
            setWhere: eq(questionnaires.origin, "package"),
          })
          .returning({ id: questionnaires.id });
        const questionnaireId =
          qnRow?.id ??
          (
            await tx
              .select({ id: questionnaires.id })
              .from(questionnaires)
              .where(and(eq(questionnaires.trainingId, trainingId), eq(questionnaires.key, qn.key)))
          )[0]?.id ??
          0;
        questionnaireIds.push(questionnaireId);

        const questionIds: number[] = [];
        const known = await readQuestionnaireQuestions(tx, questionnaireId);
        for (const [pos, q] of qn.questions.entries()) {
          counts.questions += 1;
          const inApp = known.current.get(q.key);
          if (inApp && inApp.origin !== "package") {
            // Fixed in the app (a content manager's edit): app content since, left as it is.
            questionIds.push(inApp.id);
            continue;
          }
          const mediaKey = q.media ? ("image" in q.media ? `image:${q.media.image}` : `video:${q.media.video}`) : null;
          // Answers of a package question have no keys of their own: a change of their texts,
          // flags or order to an answered question makes a new version (content/versions.ts).
          const saved = await saveQuestion(
            tx,
            questionnaireId,
            q.key,
            {
              type: q.type,
              text: q.text,
              explanation: sanitizeExplanation(q.explanation),
              hint: q.hint ?? null,
              mediaId: mediaKey ? (mediaIds.get(mediaKey) ?? null) : null,
              position: pos,
              origin: "package",
              answers: q.answers.map((a) => ({ text: a.text, correct: a.correct ?? false })),
            },
            now,
            known,
          );
          questionIds.push(saved.id);
          if (saved.versioned) counts.newVersions += 1;
          counts.translations += await savePackageTranslations(
            tx,
            saved.id,
            translated.get(`${t.key}/${qn.key}/${q.key}`) ?? [],
            now,
          );
        }
        // Gone from the package: retired. Questions written in the app stay (and superseded
        // versions are retired already).
        await tx
          .update(questions)
          .set({ retired: true })
          .where(
            and(
              eq(questions.questionnaireId, questionnaireId),
              eq(questions.origin, "package"),
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
            eq(questionnaires.origin, "package"),
            notInArray(questionnaires.id, questionnaireIds.length ? questionnaireIds : [0]),
            keepsNoAppQuestions,
          ),
        );
    }
    // Trainings gone from the package: their package questions and questionnaires retire, and
    // the training with them unless app content keeps something of it live.
    const gone = tx
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(eq(trainings.origin, "package"), notInArray(trainings.key, trainingKeys)));
    await tx
      .update(questions)
      .set({ retired: true })
      .where(
        and(
          eq(questions.origin, "package"),
          inArray(
            questions.questionnaireId,
            tx.select({ id: questionnaires.id }).from(questionnaires).where(inArray(questionnaires.trainingId, gone)),
          ),
        ),
      );
    await tx
      .update(questionnaires)
      .set({ retired: true })
      .where(and(eq(questionnaires.origin, "package"), inArray(questionnaires.trainingId, gone), keepsNoAppQuestions));
    await tx
      .update(trainings)
      .set({ retired: true })
      .where(and(eq(trainings.origin, "package"), notInArray(trainings.key, trainingKeys), keepsLiveQuestionnaires));

    await tx
      .update(topics)
      .set({ retired: true })
      .where(and(eq(topics.origin, "package"), notInArray(topics.key, topicKeys), keepsLiveTrainings));

    // The tutorial is package content only: a new version replaces it as a whole.
    await tx.delete(tutorialPages);
    for (let i = 0; i < pkg.tutorial.length; i += 500) {
      await tx.insert(tutorialPages).values(pkg.tutorial.slice(i, i + 500));
    }

    counts.translations += await savePackageNames(tx, pkg.names, now);

    const wiki = await importWiki(tx, pkg.wiki, pkg.version, now);
    counts.wikiRevisions = wiki.revisions;

    await tx
      .insert(appMeta)
      .values({ key: VERSION_KEY, value: pkg.version })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: pkg.version } });
    // Last, just before the commit: the audit lock is held for as short a time as it can be.
    await recordAudit(
      tx,
      { kind: "content.imported", actor: null, data: { version: pkg.version, previous, ...counts } },
      now,
    );
    return { status: "imported", version: pkg.version, previous, ...counts };
  });
}
