import crypto from "node:crypto";
import {
  type AuthoringQuestionInput,
  type AuthoringQuestionnaire,
  type AuthoringTree,
  CONTENT_LIMITS,
  type ContentOrigin,
  ErrorCode,
  type QuestionnaireCreate,
  type QuestionnairePatch,
  type QuestionnaireStatus,
  type QuestionSaved,
  questionProblems,
  type TopicWrite,
  type TrainingWrite,
} from "@carecampus/contract";
import { and, asc, eq, gt, inArray, isNull, max, sql } from "drizzle-orm";
import { type Actor, assertMay, assertMayEditContent, decide, mayEditQuestionnaire, ownedBy } from "../access/policy";
import { currentMember } from "../access/scope";
import { changedValues } from "../audit/changes";
import { recordAudit } from "../audit/record";
import { sanitizeExplanation } from "../content/service";
import { saveQuestion } from "../content/versions";
import { validCertificate } from "../db/certificates";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import {
  answers,
  certificates,
  media,
  questionnaires,
  questions,
  quizAttempts,
  topics,
  trainings,
  users,
} from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock } from "../deps";
import { AppError } from "../errors";

/*
 * Authoring (issue 16, rules and versions in the contract's schemas/authoring.ts): staff see
 * the questionnaires of their scope; administrators write their facility's own, Super-Admins
 * and superchris common content. Every write gives the content a new generation as it commits,
 * so every server's quiz sees it with the very next request (learning/content-cache.ts). The
 * writes run in db/transaction.ts: a deadlock with a content import running at the same time is
 * tried once more, then answered 409.
 */

type QuestionnaireRow = typeof questionnaires.$inferSelect & {
  topicId: number;
  trainingName: string;
  passive: boolean;
};

const notFound = () => new AppError(ErrorCode.questionnaireNotFound, "Questionnaire not found");

/**
 * May the actor see the questionnaire in authoring? (404 for another facility's, 403 for
 * learners) Facility questionnaires are their facility's; common and package ones everyone's.
 */
function assertRead(actor: Actor, q: { facilityId: number | null }): void {
  assertMay(actor, "authoring.read", ownedBy(q.facilityId));
}

export function assertEdit(actor: Actor, q: { facilityId: number | null }): void {
  assertRead(actor, q);
  assertMayEditContent(actor, "questionnaire", q.facilityId);
}

export async function loadQuestionnaire(db: Db | Tx, id: number): Promise<QuestionnaireRow> {
  const [row] = await db
    .select({
      q: questionnaires,
      topicId: trainings.topicId,
      trainingName: trainings.name,
      passive: trainings.passive,
    })
    .from(questionnaires)
    .innerJoin(trainings, eq(trainings.id, questionnaires.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(
      and(
        eq(questionnaires.id, id),
        eq(questionnaires.retired, false),
        eq(trainings.retired, false),
        eq(topics.retired, false),
      ),
    );
  if (!row) throw notFound();
  return { ...row.q, topicId: row.topicId, trainingName: row.trainingName, passive: row.passive };
}

/** Learners of the questionnaire's scope holding a certificate of its training that is still valid. */
async function certificatesHeld(db: Db | Tx, q: QuestionnaireRow, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${certificates.userId})::int` })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .where(
      and(
        eq(certificates.trainingId, q.trainingId),
        gt(certificates.expiresAt, now),
        validCertificate,
        q.facilityId === null ? sql`true` : eq(users.facilityId, q.facilityId),
        currentMember,
      ),
    );
  return row?.n ?? 0;
}

async function present(db: Db | Tx, actor: Actor, q: QuestionnaireRow, now: Date): Promise<AuthoringQuestionnaire> {
  const rows = await db
    .select({
      id: questions.id,
      version: questions.version,
      origin: questions.origin,
      type: questions.type,
      text: questions.text,
      explanation: questions.explanation,
      hint: questions.hint,
      mediaId: questions.mediaId,
      mediaKind: media.kind,
      answered: sql<boolean>`exists (select 1 from ${quizAttempts} a where a."question_id" = ${questions.id})`,
    })
    .from(questions)
    .leftJoin(media, eq(media.id, questions.mediaId))
    .where(and(eq(questions.questionnaireId, q.id), eq(questions.retired, false)))
    .orderBy(asc(questions.position), asc(questions.id));
  const ids = rows.map((r) => r.id);
  const answerRows = ids.length
    ? await db
        .select({ id: answers.id, questionId: answers.questionId, text: answers.text, correct: answers.correct })
        .from(answers)
        .where(and(inArray(answers.questionId, ids), eq(answers.retired, false)))
        .orderBy(asc(answers.position), asc(answers.id))
    : [];
  return {
    id: q.id,
    topic_id: q.topicId,
    training_id: q.trainingId,
    training_name: q.trainingName,
    name: q.name,
    origin: q.origin as ContentOrigin,
    facility_id: q.facilityId,
    status: q.status as QuestionnaireStatus,
    editable: mayEditQuestionnaire(actor, q.facilityId),
    certificates_held: await certificatesHeld(db, q, now),
    questions: rows.map((r) => ({
      id: r.id,
      version: r.version,
      origin: r.origin as ContentOrigin,
      type: r.type === "multiple" ? "multiple" : "single",
      text: r.text,
      answers: answerRows
        .filter((a) => a.questionId === r.id)
        .map((a) => ({ id: a.id, text: a.text, correct: a.correct })),
      explanation: r.explanation,
      hint: r.hint,
      media:
        r.mediaId !== null && (r.mediaKind === "image" || r.mediaKind === "video")
          ? { type: r.mediaKind, id: r.mediaId }
          : null,
      answered: r.answered,
    })),
  };
}

/** The tree of the editor: live topics and trainings with the questionnaires the actor may see. */
export async function authoringTree(db: Db, actor: Actor): Promise<AuthoringTree> {
  assertMay(actor, "authoring.read");
  const topicRows = await db.select().from(topics).where(eq(topics.retired, false)).orderBy(asc(topics.position));
  const trainingRows = await db
    .select()
    .from(trainings)
    .where(eq(trainings.retired, false))
    .orderBy(asc(trainings.name));
  const qnRows = await db
    .select({
      id: questionnaires.id,
      trainingId: questionnaires.trainingId,
      name: questionnaires.name,
      origin: questionnaires.origin,
      facilityId: questionnaires.facilityId,
      status: questionnaires.status,
      position: questionnaires.position,
      questions: sql<number>`(select count(*)::int from ${questions} q where q."questionnaire_id" = ${questionnaires.id} and not q."retired")`,
    })
    .from(questionnaires)
    .where(eq(questionnaires.retired, false))
    .orderBy(asc(questionnaires.position), asc(questionnaires.id));
  // Super-Admins see every facility's questionnaires; others the common ones and their own.
  const visible = qnRows.filter((q) => decide(actor, "authoring.read", ownedBy(q.facilityId)) === "allow");
  return {
    edits_common: decide(actor, "authoring.editCommon") === "allow",
    facility_id: decide(actor, "authoring.editFacility") === "allow" ? actor.facilityId : null,
    topics: topicRows.map((t) => ({
      id: t.id,
      name: t.name,
      icon: t.icon,
      color: t.color,
      origin: t.origin as ContentOrigin,
      trainings: trainingRows
        .filter((tr) => tr.topicId === t.id)
        .map((tr) => ({
          id: tr.id,
          name: tr.name,
          icon: tr.icon,
          origin: tr.origin as ContentOrigin,
          passive: tr.passive,
          validity_months: tr.validityMonths,
          points: tr.points,
          wiki_link: tr.wikiLink,
          legal_basis: tr.legalBasis,
          questionnaires: visible
            .filter((q) => q.trainingId === tr.id)
            .map((q) => ({
              id: q.id,
              name: q.name,
              origin: q.origin as ContentOrigin,
              facility_id: q.facilityId,
              status: q.status as QuestionnaireStatus,
              questions: q.questions,
              editable: mayEditQuestionnaire(actor, q.facilityId),
            })),
        })),
    })),
  };
}

export async function getQuestionnaire(clock: DbClock, actor: Actor, id: number): Promise<AuthoringQuestionnaire> {
  const q = await loadQuestionnaire(clock.db, id);
  assertRead(actor, q);
  return present(clock.db, actor, q, clock.now());
}

/**
 * The lock on a training's row under which a questionnaire is added to it and it is made passive:
 * without it, both could pass their checks at once (neither sees the other's uncommitted row) and
 * leave a passive training with a questionnaire, or two questionnaires at one position. FOR NO
 * KEY UPDATE is the lock an UPDATE of the row takes: it serialises these writers with each other
 * and with a content import updating the training, yet lets others insert rows that merely refer
 * to the training (their foreign key check takes FOR KEY SHARE), which FOR UPDATE would block.
 */
const TRAINING_LOCK = "no key update";

/** A new draft: an administrator's for their facility, a Super-Admin's common. */
export async function createQuestionnaire(
  clock: DbClock,
  actor: Actor,
  body: QuestionnaireCreate,
): Promise<AuthoringQuestionnaire> {
  const id = await runTransaction(clock.db, (tx) => insertQuestionnaire(tx, clock, actor, body.training_id, body.name));
  return getQuestionnaire(clock, actor, id);
}

/**
 * A new draft questionnaire at the end of a training: the actor's own (common for Super-Admins,
 * else their facility's). The training's row is locked (TRAINING_LOCK): a save making it passive,
 * or another new questionnaire of it, waits for this one, so the passive check, the count and the
 * next position hold.
 */
async function insertQuestionnaire(
  tx: Tx,
  clock: DbClock,
  actor: Actor,
  trainingId: number,
  name: string,
): Promise<number> {
  assertMay(actor, "authoring.read");
  const common = decide(actor, "authoring.editCommon") === "allow";
  const facilityId = common ? null : actor.facilityId;
  if (common) assertMay(actor, "authoring.editCommon");
  else assertMay(actor, "authoring.editFacility", { facilityId });
  const [training] = await tx
    .select({ id: trainings.id, passive: trainings.passive })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.id, trainingId), eq(trainings.retired, false), eq(topics.retired, false)))
    .for(TRAINING_LOCK, { of: trainings });
  if (!training) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
  if (training.passive) {
    throw new AppError(ErrorCode.conflict, "A passive training has no questionnaires", 409);
  }
  const [last] = await tx
    .select({ position: max(questionnaires.position), n: sql<number>`count(*)::int` })
    .from(questionnaires)
    .where(and(eq(questionnaires.trainingId, training.id), eq(questionnaires.retired, false)));
  if ((last?.n ?? 0) >= CONTENT_LIMITS.questionnairesMax) {
    throw new AppError(
      ErrorCode.conflict,
      `A training has at most ${CONTENT_LIMITS.questionnairesMax} questionnaires`,
      409,
    );
  }
  const [row] = await tx
    .insert(questionnaires)
    .values({
      trainingId: training.id,
      key: `@${common ? "c" : `f${facilityId}`}-${crypto.randomBytes(6).toString("hex")}`,
      name,
      position: (last?.position ?? -1) + 1,
      origin: common ? "common" : "facility",
      facilityId,
      status: "draft",
    })
    .returning({ id: questionnaires.id });
  const created = (row as { id: number }).id;
  await recordAudit(
    tx,
    {
      kind: "content.created",
      actor,
      facilityId,
      data: { item: "questionnaire", id: created, training: training.id, name },
    },
    clock.now(),
  );
  return created;
}

/** What the audit trail records of an authoring save: its kind and data, or null when nothing changed. */
type AuthoringAudit<T> = (
  result: T,
  q: QuestionnaireRow,
) => { kind: "content.created" | "content.updated" | "content.deleted"; data: Record<string, unknown> } | null;

/**
 * Runs a write on a questionnaire the actor may edit, in one transaction with a new content
 * generation and its audit entry (decision 21), in the questionnaire's facility (null: common).
 * Its result only: for writes whose answer is not the questionnaire (a question's translation).
 */
export async function writeOn<T>(
  clock: DbClock,
  actor: Actor,
  id: number,
  fn: (tx: Tx, q: QuestionnaireRow) => Promise<T>,
  audit: AuthoringAudit<T>,
): Promise<T> {
  return runTransaction(clock.db, async (tx) => {
    // One writer per questionnaire at a time (positions, versions).
    await lockForTransaction(tx, "authoringQuestionnaire", id);
    const q = await loadQuestionnaire(tx, id);
    assertEdit(actor, q);
    const out = await fn(tx, q);
    const entry = audit(out, q);
    if (entry) await recordAudit(tx, { ...entry, actor, facilityId: q.facilityId }, clock.now());
    return out;
  });
}

/** writeOn, answered with the questionnaire as the editor shows it after the write. */
export async function write<T>(
  clock: DbClock,
  actor: Actor,
  id: number,
  fn: (tx: Tx, q: QuestionnaireRow) => Promise<T>,
  audit: AuthoringAudit<T>,
): Promise<{ result: T; questionnaire: AuthoringQuestionnaire }> {
  const result = await writeOn(clock, actor, id, fn, audit);
  return { result, questionnaire: await getQuestionnaire(clock, actor, id) };
}

export async function patchQuestionnaire(
  clock: DbClock,
  actor: Actor,
  id: number,
  body: QuestionnairePatch,
): Promise<AuthoringQuestionnaire> {
  const { questionnaire } = await write(
    clock,
    actor,
    id,
    async (tx, q) => {
      if (body.name !== undefined) {
        // A package questionnaire renamed in the app is app content since: an import leaves it.
        const origin = q.origin === "package" ? "common" : q.origin;
        await tx.update(questionnaires).set({ name: body.name, origin }).where(eq(questionnaires.id, q.id));
      }
      if (body.question_order !== undefined) {
        const live = await tx
          .select({ id: questions.id })
          .from(questions)
          .where(and(eq(questions.questionnaireId, q.id), eq(questions.retired, false)));
        const wanted = body.question_order;
        const same =
          wanted.length === live.length &&
          new Set(wanted).size === wanted.length &&
          live.every((r) => wanted.includes(r.id));
        if (!same) {
          throw new AppError(ErrorCode.validation, "question_order must name every question of the questionnaire once");
        }
        for (const [position, qid] of wanted.entries()) {
          await tx.update(questions).set({ position }).where(eq(questions.id, qid));
        }
      }
    },
    (_, q) => ({
      kind: "content.updated",
      data: {
        item: "questionnaire",
        id: q.id,
        fields: [
          ...(body.name !== undefined ? ["name"] : []),
          ...(body.question_order !== undefined ? ["question_order"] : []),
        ],
        ...(body.name !== undefined && body.name !== q.name
          ? { before: { name: q.name }, after: { name: body.name } }
          : {}),
      },
    }),
  );
  return questionnaire;
}

export async function publishQuestionnaire(clock: DbClock, actor: Actor, id: number): Promise<AuthoringQuestionnaire> {
  const { questionnaire } = await write(
    clock,
    actor,
    id,
    async (tx, q) => {
      if (q.status === "published") return false;
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(questions)
        .where(and(eq(questions.questionnaireId, q.id), eq(questions.retired, false)));
      if (n === 0)
        throw new AppError(ErrorCode.conflict, "A questionnaire needs at least one question to be published", 409);
      await tx
        .update(questionnaires)
        .set({ status: "published", publishedAt: clock.now() })
        .where(eq(questionnaires.id, q.id));
      return true;
    },
    (published, q) =>
      published
        ? {
            kind: "content.updated",
            data: { item: "questionnaire", id: q.id, before: { status: q.status }, after: { status: "published" } },
          }
        : null,
  );
  return questionnaire;
}

/** The media a question may show: an image or video of the content, or an upload within the questionnaire's scope. */
async function checkMedia(tx: Tx, q: QuestionnaireRow, ref: AuthoringQuestionInput["media"]): Promise<number | null> {
  if (!ref) return null;
  const [m] = await tx
    .select({ id: media.id, kind: media.kind, facilityId: media.facilityId })
    .from(media)
    .where(eq(media.id, ref.id));
  if (!m || m.kind !== ref.type || (m.facilityId !== null && m.facilityId !== q.facilityId)) {
    throw new AppError(ErrorCode.imageNotFound, "Image not found");
  }
  return m.id;
}

/** An explanation as it is stored (sanitised); refused when nothing of it is left. */
export function requiredExplanation(html: string): string {
  const explanation = sanitizeExplanation(html);
  if (explanation === "") {
    throw new AppError(ErrorCode.validation, "explanationRequired: nothing of the explanation is left once sanitised");
  }
  return explanation;
}

async function questionValues(tx: Tx, q: QuestionnaireRow, body: AuthoringQuestionInput, position: number) {
  const explanation = requiredExplanation(body.explanation);
  return {
    type: body.type,
    text: body.text,
    explanation,
    hint: body.hint && body.hint !== "" ? body.hint : null,
    mediaId: await checkMedia(tx, q, body.media),
    position,
    origin: (q.facilityId === null ? "common" : "facility") as ContentOrigin,
    answers: body.answers.map((a) => ({ text: a.text, correct: a.correct })),
  };
}

export async function createQuestion(
  clock: DbClock,
  actor: Actor,
  questionnaireId: number,
  body: AuthoringQuestionInput,
): Promise<QuestionSaved> {
  const { result, questionnaire } = await write(
    clock,
    actor,
    questionnaireId,
    (tx, q) => appendQuestions(tx, q, [body], clock.now()),
    (ids, q) => ({ kind: "content.created", data: { item: "question", ids, questionnaire: q.id } }),
  );
  return { questionnaire, question_id: result[0] ?? 0, versioned: false };
}

/**
 * A question bank by its categories, in one transaction: `own` at the end of the questionnaire,
 * and each category as a new draft questionnaire of the same training with its questions.
 */
export async function addQuestionsByCategory(
  clock: DbClock,
  actor: Actor,
  questionnaireId: number,
  own: AuthoringQuestionInput[],
  categories: { name: string; inputs: AuthoringQuestionInput[] }[],
): Promise<{ questionnaire: AuthoringQuestionnaire; created: { id: number; name: string; count: number }[] }> {
  /** Questions at the end of a questionnaire, with their audit entry. */
  const append = async (tx: Tx, q: QuestionnaireRow, inputs: AuthoringQuestionInput[]) => {
    const ids = await appendQuestions(tx, q, inputs, clock.now());
    const data = { item: "question", ids, questionnaire: q.id };
    await recordAudit(tx, { kind: "content.created", actor, facilityId: q.facilityId, data }, clock.now());
    return ids;
  };
  const created = await runTransaction(clock.db, async (tx) => {
    await lockForTransaction(tx, "authoringQuestionnaire", questionnaireId);
    const q = await loadQuestionnaire(tx, questionnaireId);
    assertEdit(actor, q);
    if (own.length > 0) await append(tx, q, own);
    const made: { id: number; name: string; count: number }[] = [];
    for (const category of categories) {
      const id = await insertQuestionnaire(tx, clock, actor, q.trainingId, category.name);
      const ids = await append(tx, await loadQuestionnaire(tx, id), category.inputs);
      made.push({ id, name: category.name, count: ids.length });
    }
    return made;
  });
  return { questionnaire: await getQuestionnaire(clock, actor, questionnaireId), created };
}

async function appendQuestions(
  tx: Tx,
  q: QuestionnaireRow,
  bodies: AuthoringQuestionInput[],
  now: Date,
): Promise<number[]> {
  const [last] = await tx
    .select({ position: max(questions.position), n: sql<number>`count(*)::int` })
    .from(questions)
    .where(and(eq(questions.questionnaireId, q.id), eq(questions.retired, false)));
  if ((last?.n ?? 0) + bodies.length > CONTENT_LIMITS.questionsMax) {
    throw new AppError(ErrorCode.conflict, `A questionnaire has at most ${CONTENT_LIMITS.questionsMax} questions`, 409);
  }
  const ids: number[] = [];
  let position = (last?.position ?? -1) + 1;
  for (const body of bodies) {
    // Rules checked here too: the importer's questions come from a file, not the request schema.
    const broken = questionProblems(body)[0];
    if (broken) throw new AppError(ErrorCode.validation, `${broken.code}: ${broken.message}`);
    const key = `@${crypto.randomBytes(6).toString("hex")}`;
    const saved = await saveQuestion(tx, q.id, key, await questionValues(tx, q, body, position), now);
    ids.push(saved.id);
    position += 1;
  }
  return ids;
}

export async function questionnaireOf(
  db: Db | Tx,
  questionId: number,
): Promise<{ questionnaireId: number; key: string }> {
  const [row] = await db
    .select({ questionnaireId: questions.questionnaireId, key: questions.key })
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.retired, false), isNull(questions.supersededAt)));
  if (!row) throw new AppError(ErrorCode.questionNotFound, "Question not found");
  return row;
}

/** Saves a question; a new version when learners answered it and its meaning changes (content/versions.ts). */
export async function saveExistingQuestion(
  clock: DbClock,
  actor: Actor,
  questionId: number,
  body: AuthoringQuestionInput,
): Promise<QuestionSaved> {
  const { questionnaireId, key } = await questionnaireOf(clock.db, questionId);
  const { result, questionnaire } = await write(
    clock,
    actor,
    questionnaireId,
    async (tx, q) => {
      const [current] = await tx
        .select({ id: questions.id, position: questions.position })
        .from(questions)
        .where(and(eq(questions.questionnaireId, q.id), eq(questions.key, key), isNull(questions.supersededAt)));
      // Changed by someone else meanwhile (a new version): the editor must load it again.
      if (!current || current.id !== questionId) {
        throw new AppError(ErrorCode.conflict, "The question changed meanwhile: open it again", 409);
      }
      return saveQuestion(tx, q.id, key, await questionValues(tx, q, body, current.position), clock.now());
    },
    (saved, q) => ({
      kind: "content.updated",
      data: { item: "question", id: saved.id, previous: questionId, versioned: saved.versioned, questionnaire: q.id },
    }),
  );
  return { questionnaire, question_id: result.id, versioned: result.versioned };
}

export async function deleteQuestion(
  clock: DbClock,
  actor: Actor,
  questionId: number,
): Promise<AuthoringQuestionnaire> {
  const { questionnaireId } = await questionnaireOf(clock.db, questionId);
  const { questionnaire } = await write(
    clock,
    actor,
    questionnaireId,
    async (tx, q) => {
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(questions)
        .where(and(eq(questions.questionnaireId, q.id), eq(questions.retired, false)));
      if (q.status === "published" && n <= 1) {
        throw new AppError(ErrorCode.conflict, "A published questionnaire keeps at least one question", 409);
      }
      await tx.update(questions).set({ retired: true }).where(eq(questions.id, questionId));
    },
    (_, q) => ({ kind: "content.deleted", data: { item: "question", id: questionId, questionnaire: q.id } }),
  );
  return questionnaire;
}

/* ---------- common topics and trainings (Super-Admins) ---------- */

export async function saveTopic(
  clock: DbClock,
  actor: Actor,
  id: number | null,
  body: TopicWrite,
): Promise<{ id: number }> {
  assertMay(actor, "authoring.editCommon");
  return runTransaction(clock.db, async (tx) => {
    let topicId = id;
    if (topicId === null) {
      const [last] = await tx.select({ position: max(topics.position) }).from(topics);
      const [row] = await tx
        .insert(topics)
        .values({
          key: `@c-${crypto.randomBytes(6).toString("hex")}`,
          ...body,
          position: (last?.position ?? -1) + 1,
          origin: "common",
        })
        .returning({ id: topics.id });
      topicId = (row as { id: number }).id;
      await recordAudit(
        tx,
        { kind: "content.created", actor, data: { item: "topic", id: topicId, after: { ...body } } },
        clock.now(),
      );
    } else {
      const [old] = await tx
        .select({ name: topics.name, icon: topics.icon, color: topics.color })
        .from(topics)
        .where(eq(topics.id, topicId));
      // A package topic edited in the app becomes app content: an import no longer changes it.
      const [row] = await tx
        .update(topics)
        .set({ ...body, origin: "common" })
        .where(and(eq(topics.id, topicId), eq(topics.retired, false)))
        .returning({ id: topics.id });
      if (!row) throw new AppError(ErrorCode.notFound, "Topic not found");
      await recordAudit(
        tx,
        {
          kind: "content.updated",
          actor,
          data: { item: "topic", id: topicId, ...changedValues({ ...old }, { ...body }) },
        },
        clock.now(),
      );
    }
    return { id: topicId };
  });
}

export async function saveTraining(
  clock: DbClock,
  actor: Actor,
  id: number | null,
  body: TrainingWrite,
): Promise<{ id: number }> {
  assertMay(actor, "authoring.editCommon");
  return runTransaction(clock.db, async (tx) => {
    const [topic] = await tx
      .select({ id: topics.id })
      .from(topics)
      .where(and(eq(topics.id, body.topic_id), eq(topics.retired, false)));
    if (!topic) throw new AppError(ErrorCode.notFound, "Topic not found");
    const values = {
      topicId: topic.id,
      name: body.name,
      icon: body.icon,
      validityMonths: body.validity_months,
      passive: body.passive,
      points: body.points,
      wikiLink: body.wiki_link && body.wiki_link !== "" ? body.wiki_link : null,
      legalBasis: body.legal_basis ?? null,
    };
    let trainingId = id;
    let before: Record<string, unknown> = {};
    if (trainingId === null) {
      const [row] = await tx
        .insert(trainings)
        .values({ key: `@c-${crypto.randomBytes(6).toString("hex")}`, ...values, origin: "common" })
        .returning({ id: trainings.id });
      trainingId = (row as { id: number }).id;
    } else {
      // Locked before the passive check below, as createQuestionnaire locks it (TRAINING_LOCK).
      const [locked] = await tx
        .select({ id: trainings.id })
        .from(trainings)
        .where(and(eq(trainings.id, trainingId), eq(trainings.retired, false)))
        .for(TRAINING_LOCK);
      if (!locked) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
      const [old] = await tx
        .select({
          topicId: trainings.topicId,
          name: trainings.name,
          icon: trainings.icon,
          validityMonths: trainings.validityMonths,
          passive: trainings.passive,
          points: trainings.points,
          wikiLink: trainings.wikiLink,
          legalBasis: trainings.legalBasis,
        })
        .from(trainings)
        .where(eq(trainings.id, trainingId));
      before = { ...old };
      const [row] = await tx
        .update(trainings)
        .set({ ...values, origin: "common" })
        .where(and(eq(trainings.id, trainingId), eq(trainings.retired, false)))
        .returning({ id: trainings.id });
      if (!row) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
    }
    if (body.passive) {
      const [live] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(questionnaires)
        .where(and(eq(questionnaires.trainingId, trainingId), eq(questionnaires.retired, false)));
      if ((live?.n ?? 0) > 0)
        throw new AppError(ErrorCode.conflict, "A training with questionnaires cannot be passive", 409);
    }
    await recordAudit(
      tx,
      {
        kind: id === null ? "content.created" : "content.updated",
        actor,
        data: { item: "training", id: trainingId, ...changedValues(before, values) },
      },
      clock.now(),
    );
    return { id: trainingId };
  });
}
