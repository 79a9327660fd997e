import { and, eq, sql } from "drizzle-orm";
import { nameHash, type QuestionInLanguage, sourceHash, usableTranslation } from "../content/translations";
import { ChangeCache, type ChangeFeed } from "../db/changes";
import { changeFeedOf, type Db, isTransaction, type Tx } from "../db/client";
import {
  answers,
  media,
  nameTranslations,
  questionnaires,
  questions,
  questionTranslations,
  topics,
  trainings,
} from "../db/schema";
import { CONTENT_WRITTEN } from "../db/transaction";

/*
 * The learning content (topics, trainings, questionnaires, questions, answers) changes only when
 * content is imported or written in the app (authoring), yet the quiz read it again on every
 * request. It is kept in memory per content generation: a random value in app_meta that every
 * transaction writing the content sets anew as it commits (triggers, migration 0016), which also
 * notifies every server at commit (db/changes.ts). The generation is transactional: a snapshot
 * holds a generation exactly when it holds the content written with it, so a view read with its
 * generation in one snapshot may be kept under that generation for good.
 * While this process hears those notifications, the content comes from memory without a query;
 * otherwise (a transaction's handle, the listening connection lost) each request reads the
 * generation (one indexed row) and loads the content again when it is not the one in memory.
 * This server's own writes are out of memory before they resolve (db/transaction.ts announces
 * them); another process's import or authoring save arrives with its notification, a moment
 * after its commit.
 */

export const CONTENT_GENERATION = "content_generation";

export interface CachedQuestion {
  id: number;
  questionnaireId: number;
  /** Shared by the versions of one question (content/versions.ts). */
  key: string;
  text: string;
  type: string;
  explanation: string;
  hint: string | null;
  mediaId: number | null;
  mediaKind: string | null;
  retired: boolean;
  /** Live answers in their stored order. */
  answers: { id: number; text: string; correct: boolean }[];
  /**
   * The translations a learner may be shown, by language (content/translations.ts): published,
   * written for the German as it is now, covering every answer.
   */
  translations: Map<string, QuestionInLanguage>;
}

export interface CachedTraining {
  id: number;
  key: string;
  topicId: number;
  name: string;
  icon: string;
  description: string | null;
  validityMonths: number;
  points: number;
  passive: boolean;
  wikiLink: string | null;
  legalBasis: string | null;
}

export interface ContentView {
  /**
   * The generation whose content this is; "" before any content was written, and for a view no
   * generation names (a transaction's own uncommitted content, or reads a commit came between).
   */
  generation: string;
  /** Live topics in their order. */
  topics: (typeof topics.$inferSelect)[];
  /** Live trainings of live topics. */
  trainings: CachedTraining[];
  /**
   * Live questionnaires, drafts too: facility questionnaires carry their facility, and a learner's
   * snapshot keeps only the published ones of the learner's facility (progress.ts).
   */
  questionnaires: CachedQuestionnaire[];
  /** Every question version, superseded and retired ones too (past attempts name them). */
  questions: Map<number, CachedQuestion>;
  /** Live question ids of a questionnaire in their order. */
  questionIds: Map<number, number[]>;
  /** The live version of a question, by `${questionnaireId}:${key}`. */
  liveByKey: Map<string, number>;
  /**
   * The translated names a learner may be shown (issue 31), by `${kind}:${id}` and language:
   * published and written for the German name as it is now.
   */
  names: Map<string, Map<string, string>>;
}

/** A topic's, training's or questionnaire's name in `lang` when a learner may be shown it; else null (German). */
export function translatedName(
  view: ContentView,
  kind: "topic" | "training" | "questionnaire",
  id: number,
  lang: string,
): string | null {
  return view.names.get(`${kind}:${id}`)?.get(lang) ?? null;
}

export interface CachedQuestionnaire {
  id: number;
  trainingId: number;
  key: string;
  name: string;
  position: number;
  total: number;
  origin: string;
  facilityId: number | null;
  published: boolean;
}

/** The live version of the question an attempt (or a request) names, if the question is still live. */
export function liveVersion(view: ContentView, questionId: number): number | undefined {
  const q = view.questions.get(questionId);
  return q ? view.liveByKey.get(`${q.questionnaireId}:${q.key}`) : undefined;
}

/** Views of the last few generations (tests open many databases in one process; each has its own). */
const views = new Map<string, Promise<ContentView>>();
const KEEP = 8;

function keep(generation: string, view: Promise<ContentView>): void {
  views.set(generation, view);
  while (views.size > KEEP) views.delete(views.keys().next().value as string);
}

/** The content as `db` sees it, labelled `generation` by the caller, who knows what the reads saw. */
async function read(db: Db | Tx, generation: string): Promise<ContentView> {
  const topicRows = await db.select().from(topics).where(eq(topics.retired, false)).orderBy(topics.position);
  const trainingRows = await db
    .select({
      id: trainings.id,
      key: trainings.key,
      topicId: trainings.topicId,
      name: trainings.name,
      icon: trainings.icon,
      description: trainings.description,
      validityMonths: trainings.validityMonths,
      points: trainings.points,
      passive: trainings.passive,
      wikiLink: trainings.wikiLink,
      legalBasis: trainings.legalBasis,
    })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.retired, false), eq(topics.retired, false)))
    .orderBy(trainings.id);
  const questionnaireRows = await db
    .select({
      id: questionnaires.id,
      trainingId: questionnaires.trainingId,
      key: questionnaires.key,
      name: questionnaires.name,
      position: questionnaires.position,
      origin: questionnaires.origin,
      facilityId: questionnaires.facilityId,
      published: sql<boolean>`${questionnaires.status} = 'published'`,
      total: sql<number>`(select count(*)::int from "questions" q where q."questionnaire_id" = "questionnaires"."id" and not q."retired")`,
    })
    .from(questionnaires)
    .where(eq(questionnaires.retired, false));
  const questionRows = await db
    .select({
      id: questions.id,
      questionnaireId: questions.questionnaireId,
      key: questions.key,
      text: questions.text,
      type: questions.type,
      explanation: questions.explanation,
      hint: questions.hint,
      mediaId: questions.mediaId,
      mediaKind: media.kind,
      retired: questions.retired,
      position: questions.position,
    })
    .from(questions)
    .leftJoin(media, eq(media.id, questions.mediaId))
    .orderBy(questions.position, questions.id);
  const answerRows = await db
    .select({ id: answers.id, questionId: answers.questionId, text: answers.text, correct: answers.correct })
    .from(answers)
    .where(eq(answers.retired, false))
    .orderBy(answers.id);
  const byQuestion = new Map<number, CachedQuestion["answers"]>();
  for (const a of answerRows) {
    const list = byQuestion.get(a.questionId) ?? [];
    list.push({ id: a.id, text: a.text, correct: a.correct });
    byQuestion.set(a.questionId, list);
  }
  const translationRows = await db
    .select()
    .from(questionTranslations)
    .where(eq(questionTranslations.status, "published"));
  const translationsOf = new Map<number, (typeof translationRows)[number][]>();
  for (const t of translationRows) {
    const list = translationsOf.get(t.questionId) ?? [];
    list.push(t);
    translationsOf.set(t.questionId, list);
  }
  const questionMap = new Map<number, CachedQuestion>();
  const questionIds = new Map<number, number[]>();
  const liveByKey = new Map<string, number>();
  for (const { position: _position, ...q } of questionRows) {
    const german = { ...q, answers: byQuestion.get(q.id) ?? [] };
    const translations = new Map<string, QuestionInLanguage>();
    const written = translationsOf.get(q.id);
    if (written) {
      const hash = sourceHash(german);
      for (const t of written) {
        const usable = usableTranslation(german, hash, t);
        if (usable) translations.set(t.lang, usable);
      }
    }
    questionMap.set(q.id, { ...german, translations });
    if (q.retired) continue;
    liveByKey.set(`${q.questionnaireId}:${q.key}`, q.id);
    const list = questionIds.get(q.questionnaireId) ?? [];
    list.push(q.id);
    questionIds.set(q.questionnaireId, list);
  }
  const german = new Map<string, string>([
    ...topicRows.map((t) => [`topic:${t.id}`, t.name] as const),
    ...trainingRows.map((t) => [`training:${t.id}`, t.name] as const),
    ...questionnaireRows.map((q) => [`questionnaire:${q.id}`, q.name] as const),
  ]);
  const names = new Map<string, Map<string, string>>();
  for (const n of await db.select().from(nameTranslations).where(eq(nameTranslations.status, "published"))) {
    const key = `${n.kind}:${n.itemId}`;
    const source = german.get(key);
    if (source === undefined || n.sourceHash !== nameHash(source)) continue;
    const byLang = names.get(key) ?? new Map<string, string>();
    byLang.set(n.lang, n.name);
    names.set(key, byLang);
  }
  return {
    generation,
    names,
    topics: topicRows,
    trainings: trainingRows,
    questionnaires: questionnaireRows,
    questions: questionMap,
    questionIds,
    liveByKey,
  };
}

/** The content in memory per database (its change feed), emptied by every content change. */
const live = new WeakMap<ChangeFeed, ChangeCache<"content", ContentView>>();

/**
 * The content as the database holds it now: from memory while this process hears every content
 * change; else by its generation (below).
 */
export async function contentView(db: Db | Tx): Promise<ContentView> {
  const feed = changeFeedOf(db);
  if (!feed) return contentByGeneration(db);
  let cache = live.get(feed);
  if (!cache) {
    cache = new ChangeCache<"content", ContentView>(feed, "cc_content", () => undefined, 1);
    live.set(feed, cache);
  }
  return (await cache.get("content", () => contentByGeneration(db))) as ContentView;
}

interface Generation {
  /** The content generation the statement saw; "" before any content was written. */
  value: string;
  /** The transaction wrote content of its own, not committed yet (migration 0016's flag). */
  written: boolean;
  /** The transaction reads one snapshot throughout (repeatable read or serializable). */
  stable: boolean;
}

async function readGeneration(db: Db | Tx): Promise<Generation> {
  const result = await db.execute<{ value: string | null; written: boolean; stable: boolean }>(
    sql`select (select "value" from "app_meta" where "key" = ${CONTENT_GENERATION}) as "value",
      ${CONTENT_WRITTEN} as "written",
      current_setting('transaction_isolation') <> 'read committed' as "stable"`,
  );
  const row = result.rows[0];
  return { value: row?.value ?? "", written: row?.written === true, stable: row?.stable === true };
}

/**
 * The generation and the five reads in one repeatable-read snapshot: read one after another on
 * PostgreSQL's default isolation, each would see the commits made meanwhile, and a view could mix
 * two versions of the content under the older generation, kept in memory for good. (PGlite runs
 * one query at a time, and no query of another request between those of a transaction; the code
 * is the same.)
 */
function readSnapshot(db: Db): Promise<ContentView> {
  return db.transaction(async (tx) => read(tx, (await readGeneration(tx)).value), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

/**
 * From memory when its generation is the database's, else read (once per generation, also when
 * many requests ask at once). Without a generation (no content imported yet) it is read every time.
 */
async function contentByGeneration(db: Db | Tx): Promise<ContentView> {
  if (isTransaction(db)) return contentInTransaction(db);
  const { value: generation } = await readGeneration(db);
  const known = generation ? views.get(generation) : undefined;
  if (known) return known;
  const loading = readSnapshot(db);
  // Requests that read the same generation meanwhile share this load. A commit may come between
  // that read and the snapshot: the view is kept under the generation its own snapshot saw.
  if (generation) keep(generation, loading);
  loading.then(
    (view) => {
      if (view.generation !== generation && views.get(generation) === loading) views.delete(generation);
      if (view.generation && !views.has(view.generation)) keep(view.generation, loading);
    },
    () => {
      if (views.get(generation) === loading) views.delete(generation);
    },
  );
  return loading;
}

/**
 * Inside the caller's transaction, which may have written content of its own (then the view is
 * its own, under no generation, and kept nowhere) and may read each statement in a new snapshot
 * (read committed: a view is kept only when the generation did not move during its reads).
 */
async function contentInTransaction(tx: Tx): Promise<ContentView> {
  const before = await readGeneration(tx);
  if (before.written) return read(tx, "");
  const known = before.value ? views.get(before.value) : undefined;
  if (known) return known;
  const view = await read(tx, before.value);
  if (!before.value) return view;
  if (!before.stable) {
    // Every content commit gives a new generation: the same one after the reads means none came between.
    const after = await readGeneration(tx);
    if (after.value !== before.value) return { ...view, generation: "" };
  }
  keep(before.value, Promise.resolve(view));
  return view;
}
