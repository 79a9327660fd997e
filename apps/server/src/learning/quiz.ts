import crypto from "node:crypto";
import {
  type AnswerResult,
  ErrorCode,
  endpoints,
  endpointUrl,
  type Finished,
  type NextQuestion,
  QuizFinishedKey,
  QuizFinishedLinkKey,
  SOURCE_LANGUAGE,
} from "@carecampus/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { issueCertificate } from "../certificates/service";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { certificates, quizAttempts } from "../db/schema";
import { AppError } from "../errors";
import type { SessionCheck } from "../security/session-cache";
import { answerRequestHash, keepAnswer, replayedAnswer } from "./answer-keys";
import { type CachedQuestion, type ContentView, contentView, liveVersion } from "./content-cache";
import {
  type AttemptRow,
  askableQuestion,
  loadSnapshot,
  type QuestionnaireState,
  reloadProgress,
  type Snapshot,
  type TopicState,
  type TrainingState,
  toQuestionnaires,
  toTopic,
  withAttempt,
} from "./progress";

export interface QuizPath {
  topicId: number;
  trainingId: number;
  questionnaireId: number;
}

interface Located {
  snapshot: Snapshot;
  topic: TopicState;
  training: TrainingState;
  questionnaire: QuestionnaireState;
}

/** Finds topic → training in the user's snapshot; 1005 when it is not theirs to learn. */
export function locateTraining(snapshot: Snapshot, topicId: number, trainingId: number) {
  const topic = snapshot.topics.find((t) => t.id === topicId);
  const training = topic?.trainings.find((t) => t.id === trainingId);
  if (!topic || !training) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
  return { topic, training };
}

function locate(snapshot: Snapshot, path: QuizPath): Located {
  const { topic, training } = locateTraining(snapshot, path.topicId, path.trainingId);
  const questionnaire = training.questionnaires.find((q) => q.id === path.questionnaireId);
  if (!questionnaire) throw new AppError(ErrorCode.questionnaireNotFound, "Questionnaire not found");
  return { snapshot, topic, training, questionnaire };
}

/** A stable pseudo-random order: the same within a round, different between rounds. */
function order(...parts: number[]): string {
  return crypto.createHash("sha1").update(parts.join(":")).digest("hex");
}

interface RoundState {
  round: number;
  /** Open questions of the current round not yet asked in it, in the round's order. */
  pending: number[];
  /** Question ids answered correctly in this cycle. */
  correct: Set<number>;
  all: number[];
}

/**
 * Practice of a finished questionnaire (allow-make-questionnaires-again) runs in a cycle of
 * its own, below zero, so it never touches counts or certificates.
 */
function practiceCycle(training: TrainingState): number {
  return -(training.cycle + 1);
}

function roundState(
  userId: number,
  cycle: number,
  questionnaireId: number,
  view: ContentView,
  /** The user's attempts at the questionnaire (any cycle). */
  attemptRows: readonly AttemptRow[],
): RoundState {
  const attempts = attemptRows.filter((a) => a.cycle === cycle);
  const all = view.questionIds.get(questionnaireId) ?? [];
  // An attempt at an earlier version of a question stands for the question's live version
  // (content/versions.ts); attempts at questions no longer live drop out.
  const live = attempts.flatMap((a) => {
    const id = liveVersion(view, a.questionId);
    return id === undefined ? [] : [{ ...a, questionId: id }];
  });
  const round = attempts.reduce((m, a) => Math.max(m, a.round), 1);
  const correctBefore = new Set(live.filter((a) => a.correct && a.round < round).map((a) => a.questionId));
  const askedNow = new Set(live.filter((a) => a.round === round).map((a) => a.questionId));
  const correct = new Set(live.filter((a) => a.correct).map((a) => a.questionId));
  const roundQuestions = all.filter((id) => !correctBefore.has(id));
  let pending = roundQuestions.filter((id) => !askedNow.has(id));
  let current = round;
  if (pending.length === 0) {
    // The round is over: the next one asks every question still open.
    current = round + 1;
    pending = all.filter((id) => !correct.has(id));
  }
  const keys = new Map(pending.map((id) => [id, order(userId, questionnaireId, cycle, current, id)]));
  pending.sort((a, b) => (keys.get(a) as string).localeCompare(keys.get(b) as string));
  return { round: current, pending, correct, all };
}

/** The quiz cycle to use: the training's, or its practice cycle for a finished, editable one. */
function quizCycle(loc: Located, allowAgain: boolean, practice: boolean): number {
  const list = toQuestionnaires(loc.training, allowAgain, loc.topic.id);
  const q = list.find((x) => x.id === loc.questionnaire.id);
  if (q?.disabled) throw new AppError(ErrorCode.forbidden, "Finish the previous questionnaire first");
  if (!practice) return loc.training.cycle;
  if (!q?.editable) throw new AppError(ErrorCode.forbidden, "This questionnaire cannot be repeated");
  return practiceCycle(loc.training);
}

/**
 * The question in the content language asked for: its published, current translation of the whole
 * question (content/translations.ts), else the German original — never a mix.
 */
function inLanguage(q: CachedQuestion, lang: string) {
  const t = lang === SOURCE_LANGUAGE ? undefined : q.translations.get(lang);
  return {
    lang: t ? lang : SOURCE_LANGUAGE,
    text: t?.text ?? q.text,
    answer: (a: { id: number; text: string }) => t?.answers.get(a.id) ?? a.text,
    explanation: t?.explanation ?? q.explanation,
    hint: t ? t.hint : q.hint,
  };
}

/** The next open question of the current round, with nothing that reveals the right answers. */
export async function nextQuestion(
  db: Db,
  userId: number,
  path: QuizPath,
  now: Date,
  zone: string,
  allowAgain: boolean,
  practice = false,
  /** The content language wanted (QuizQuery.lang). */
  lang: string = SOURCE_LANGUAGE,
  /** The session to confirm with the progress (security/session-cache.ts SessionCheck). */
  session?: SessionCheck,
): Promise<NextQuestion> {
  const snapshot = await loadSnapshot(db, userId, now, zone, { attemptsOf: path.questionnaireId, session });
  const { view } = snapshot.content;
  const loc = locate(snapshot, path);
  const cycle = quizCycle(loc, allowAgain, practice);
  const { total } = loc.questionnaire;
  if (!practice && (loc.training.done || loc.questionnaire.count >= total)) {
    return { question: null, count: loc.questionnaire.count, total };
  }
  let state = roundState(userId, cycle, loc.questionnaire.id, view, snapshot.attempts);
  if (practice && state.pending.length === 0) {
    // A practice run that was completed starts over: practice answers prove nothing.
    await db
      .delete(quizAttempts)
      .where(
        and(
          eq(quizAttempts.userId, userId),
          eq(quizAttempts.questionnaireId, loc.questionnaire.id),
          eq(quizAttempts.cycle, cycle),
        ),
      );
    state = roundState(
      userId,
      cycle,
      loc.questionnaire.id,
      view,
      snapshot.attempts.filter((a) => a.cycle !== cycle),
    );
  }
  const count = practice ? state.correct.size : loc.questionnaire.count;
  const questionId = state.pending[0];
  if (questionId === undefined) return { question: null, count, total };
  const q = view.questions.get(questionId);
  if (!q) return { question: null, count, total };
  const shown = inLanguage(q, lang);
  const answerRows = q.answers.map((a) => ({
    id: a.id,
    text: shown.answer(a),
    key: order(userId, questionId, state.round, a.id),
  }));
  answerRows.sort((a, b) => a.key.localeCompare(b.key));
  return {
    question: {
      id: q.id,
      text: shown.text,
      lang: shown.lang,
      type: q.type === "multiple" ? "multiple" : "single",
      answers: answerRows.map(({ id, text }) => ({ id, text })),
      media: null,
      explanation: null,
      hint: null,
      round: state.round,
      count,
      total,
    },
    count,
    total,
  };
}

/** What recording an answer found and did: the result is built from it. */
interface Recorded {
  /** The learner's progress as the transaction read it, before this answer. */
  snapshot: Snapshot;
  /** The attempt recorded, or null for a repeat (or a training already done). */
  change: { attempt: AttemptRow; alreadyRight: boolean } | null;
  /** The round's end, when this answer ended it. */
  finished: Finished | null;
  /** A certificate was issued: the progress is read again. */
  certified: boolean;
}

/**
 * Records an answer (body: the chosen answer ids). Correctness is decided here only. A
 * repeated or parallel post of the same question in the same round is recorded once.
 */
export async function submitAnswer(
  db: Db,
  learner: Pick<Actor, "id" | "facilityId">,
  path: QuizPath & { questionId: number },
  answerIds: number[],
  now: Date,
  zone: string,
  allowAgain: boolean,
  practice = false,
  /** The request's Idempotency-Key (answer-keys.ts), when it sent one. */
  idempotencyKey?: string,
  /** The content language of the explanation and hint (QuizQuery.lang). */
  lang: string = SOURCE_LANGUAGE,
  /** The session to confirm with the progress, under the lock (security/session-cache.ts SessionCheck). */
  session?: SessionCheck,
): Promise<AnswerResult> {
  const userId = learner.id;
  const view = await contentView(db);
  // A question the learner cannot be asked is unknown to them, whatever else the request says.
  const question = askableQuestion(view, learner.facilityId, path.questionId);
  if (!question || question.questionnaireId !== path.questionnaireId) {
    throw new AppError(ErrorCode.questionNotFound, "Question not found");
  }
  const answerRows = question.answers;
  const chosen = [...new Set(answerIds)];
  const own = new Set(answerRows.map((a) => a.id));
  if (chosen.some((id) => !own.has(id))) {
    throw new AppError(ErrorCode.answerNotOfQuestion, "The selected answer does not belong to this question");
  }
  const rightIds = answerRows
    .filter((a) => a.correct)
    .map((a) => a.id)
    .sort((a, b) => a - b);
  const isCorrect = chosen.length === rightIds.length && chosen.every((id) => rightIds.includes(id));

  const request = idempotencyKey === undefined ? "" : answerRequestHash(path, practice, chosen);
  /** Records the answer, when it is one to record; returns what the answer's result is built from. */
  const record = async (tx: Tx, snapshot: Snapshot): Promise<Recorded> => {
    const out: Recorded = { snapshot, change: null, finished: null, certified: false };
    const loc = locate(snapshot, path);
    const cycle = quizCycle(loc, allowAgain, practice);
    if (!practice && loc.training.done) return out;
    const state = roundState(userId, cycle, loc.questionnaire.id, view, snapshot.attempts);
    // Only a question still pending in this round is recorded; anything else is a repeat.
    if (!state.pending.includes(question.id)) return out;
    await tx
      .insert(quizAttempts)
      .values({
        userId,
        questionnaireId: loc.questionnaire.id,
        questionId: question.id,
        cycle,
        round: state.round,
        correct: isCorrect,
        answerIds: chosen,
      })
      .onConflictDoNothing();
    out.change = {
      attempt: { questionId: question.id, round: state.round, correct: isCorrect, cycle },
      alreadyRight: state.correct.has(question.id),
    };
    if (state.pending.length > 1) return out;
    // That was the round's last question.
    const correctNow = new Set(state.correct);
    if (isCorrect) correctNow.add(question.id);
    const open = state.all.filter((id) => !correctNow.has(id)).length;
    if (open > 0) {
      out.finished = { success: false, message: QuizFinishedKey.open, values: { open }, link: null };
      return out;
    }
    if (practice) {
      out.finished = { success: true, message: QuizFinishedKey.practice, values: {}, link: null };
      return out;
    }
    const others = loc.training.questionnaires.filter((q) => q.id !== loc.questionnaire.id);
    const trainingComplete = others.every((q) => q.count >= q.total);
    if (!trainingComplete) {
      out.finished = {
        success: true,
        message: QuizFinishedKey.questionnaire,
        values: {},
        link: { href: `/topic/${path.topicId}/training/${path.trainingId}`, text: QuizFinishedLinkKey.toTraining },
      };
      return out;
    }
    // Guard against a second certificate in the same cycle (two tabs finishing at once).
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(certificates)
      .where(and(eq(certificates.userId, userId), eq(certificates.trainingId, loc.training.id)));
    if (n !== loc.training.cycle) return out;
    const certId = await issueCertificate(tx, userId, loc.training, now, zone);
    out.certified = true;
    out.finished = {
      success: true,
      message: QuizFinishedKey.certificate,
      values: { training: loc.training.name },
      link: {
        href: endpointUrl(endpoints.certificatePdf, { query: { id: certId } }),
        text: QuizFinishedLinkKey.download,
      },
    };
    return out;
  };

  /** The answer's result: the progress as it is now, in the transaction that recorded it. */
  const result = async (tx: Tx, { snapshot: before, change, finished, certified }: Recorded): Promise<AnswerResult> => {
    // Content and assignments are those the transaction read: the answer just recorded is added
    // in memory; only a new certificate makes it read again.
    const current = !change
      ? before
      : certified
        ? await reloadProgress(tx, before, now, zone)
        : withAttempt(before, path.questionnaireId, change.attempt, change.alreadyRight, now, zone);
    const after = locate(current, path);
    // Practice (never certified) counts its own cycle's right answers, the one just given too.
    const practiceCount = practice
      ? roundState(userId, practiceCycle(after.training), after.questionnaire.id, view, current.attempts).correct.size
      : undefined;
    const shown = inLanguage(question, lang);
    return {
      answers_correct: rightIds,
      is_correct: isCorrect,
      explanation: shown.explanation,
      hint: shown.hint,
      lang: shown.lang,
      media:
        question.mediaId && (question.mediaKind === "image" || question.mediaKind === "video")
          ? { type: question.mediaKind, id: question.mediaId }
          : null,
      topic: toTopic(after.topic, now, zone),
      help: before.help ?? { open: false, replies: [] },
      finished,
      count: practiceCount ?? after.questionnaire.count,
      total: after.questionnaire.total,
    };
  };

  return db.transaction(async (tx) => {
    // Serialise this learner's answers: the round bookkeeping stays exact. Per learner, not per
    // questionnaire: the last answers of two questionnaires of one training, given at once (two
    // tabs, the offline outbox), would each read the other questionnaire as unfinished and neither
    // would issue the certificate. A learner answers one question at a time, so nothing is lost by
    // waiting, and the key is the user id itself: no hash of two ids, so no two learners ever wait
    // on each other.
    await lockForTransaction(tx, "quiz", userId);
    // With the progress, in the one statement the transaction reads: whether the learner asked
    // for help with this question (the answer does not change it), and the answer kept for the
    // same Idempotency-Key (a resend, on any server; its first request committed, holding this lock).
    const snapshot = await loadSnapshot(tx, userId, now, zone, {
      view,
      attemptsOf: path.questionnaireId,
      helpOf: question.id,
      ...(idempotencyKey !== undefined && { answerKey: idempotencyKey }),
      session,
    });
    if (snapshot.kept) return replayedAnswer(snapshot.kept, request);
    const answer = await result(tx, await record(tx, snapshot));
    if (idempotencyKey !== undefined) await keepAnswer(tx, userId, idempotencyKey, request, answer);
    return answer;
  });
}
