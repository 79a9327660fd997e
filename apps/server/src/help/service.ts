import {
  type ContentFix,
  ErrorCode,
  type HelpRequestDetail,
  type HelpRequestSummary,
  helpBadgeColour,
  type MyHelpRequest,
  NotificationMessageKey,
  personName,
  truncate,
} from "@carecampus/contract";
import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import {
  type Actor,
  assertMay,
  decide,
  facilityScope,
  mayEditQuestionnaire,
  notFound,
  ownedBy,
} from "../access/policy";
import { isCurrentMember } from "../access/scope";
import { recordAudit } from "../audit/record";
import type { Db, Tx } from "../db/client";
import {
  answers,
  facilities,
  helpReplies,
  helpRequests,
  preferences,
  questionContentFlags,
  questionnaires,
  questions,
  topics,
  trainings,
  users,
} from "../db/schema";
import type { LimitDeps, NotifyDeps } from "../deps";
import { AppError } from "../errors";
import { contentView } from "../learning/content-cache";
import { askableQuestion } from "../learning/progress";
import { enqueueMail, mailQueued } from "../mail/outbox";
import { fill, mailBody, mailLanguage, mailTexts } from "../mail/templates";
import { insertNotifications } from "../notifications/service";
import { consume } from "../security/limits";

const HELP_NOT_FOUND = () => notFound("help.read");

const flagged = sql<boolean>`exists (select 1 from ${questionContentFlags} f where f."question_id" = ${questions.id})`;

/** A select (dynamic mode) with `questions` in it, joined on to where each question stands: its questionnaire, training and topic. */
function withPlace<T extends PgSelect>(query: T) {
  return query
    .innerJoin(questionnaires, eq(questionnaires.id, questions.questionnaireId))
    .innerJoin(trainings, eq(trainings.id, questionnaires.trainingId))
    .innerJoin(topics, eq(topics.id, trainings.topicId));
}

/** A question with where it stands in the content (topic › training › questionnaire), or undefined. */
async function questionContext(db: Db | Tx, questionId: number) {
  const query = db
    .select({
      id: questions.id,
      text: questions.text,
      type: questions.type,
      explanation: questions.explanation,
      hint: questions.hint,
      mediaId: questions.mediaId,
      mediaKind: sql<string | null>`(select m."kind" from "media" m where m."id" = ${questions.mediaId})`,
      icon: trainings.icon,
      topicId: topics.id,
      topic: topics.name,
      trainingId: trainings.id,
      training: trainings.name,
      questionnaireId: questionnaires.id,
      questionnaire: questionnaires.name,
      questionnaireFacilityId: questionnaires.facilityId,
      needsFix: flagged,
    })
    .from(questions)
    .$dynamic();
  const [row] = await withPlace(query).where(eq(questions.id, questionId));
  return row;
}

/**
 * May a staff member see a question's content (text, answer key, explanation, questionnaire)?
 * Common content is everyone's; a facility's own questionnaire only within the staff member's
 * facility scope, as in authoring. A request about a question outside it is answered like no
 * request (1004) and left out of the list: a learner's request never shows their staff what
 * their own role may not see.
 */
function seesQuestion(actor: Actor, questionnaireFacilityId: number | null): boolean {
  return decide(actor, "help.read", ownedBy(questionnaireFacilityId)) === "allow";
}

/**
 * An employee asks for help with a question; staff of the facility see it in /helprequests.
 * One open request per learner and question (decision 19): asking again answers with it.
 */
/** Help requests a learner may send in an hour: each notifies the facility's staff. */
export const HELP_REQUESTS_PER_HOUR = 30;

export async function createHelpRequest(deps: LimitDeps, actor: Actor, questionId: number): Promise<number> {
  assertMay(actor, "help.ask");
  await consume(deps, `help:${actor.id}`, HELP_REQUESTS_PER_HOUR, 60 * 60_000);
  const { db } = deps;
  // Only what the learner can be asked (the quiz's own rule): another facility's content or a
  // draft is an unknown question, so nobody files a request to read it through their staff.
  if (!askableQuestion(await contentView(db), actor.facilityId, questionId)) {
    throw new AppError(ErrorCode.questionNotFound, "Question not found");
  }
  const [row] = await db
    .insert(helpRequests)
    .values({ userId: actor.id, questionId, facilityId: actor.facilityId })
    .onConflictDoNothing({
      target: [helpRequests.userId, helpRequests.questionId],
      where: isNull(helpRequests.handledAt),
    })
    .returning({ id: helpRequests.id });
  if (row) return row.id;
  const [open] = await db
    .select({ id: helpRequests.id })
    .from(helpRequests)
    .where(
      and(eq(helpRequests.userId, actor.id), eq(helpRequests.questionId, questionId), isNull(helpRequests.handledAt)),
    );
  if (!open) throw new AppError(ErrorCode.conflict, "Please send the help request again");
  return open.id;
}

/**
 * The requests an actor may see, as one condition on help_requests: those of the actor's own
 * facility, or of every facility (Super-Admin, superuser), narrowed to `facility` when given.
 * A facility outside the actor's scope is answered like an unknown one (1003).
 */
async function requestScope(db: Db | Tx, actor: Actor, facility: number | undefined): Promise<SQL> {
  if (facility !== undefined) {
    const [known] = await db.select({ id: facilities.id }).from(facilities).where(eq(facilities.id, facility));
    if (!known || decide(actor, "help.read", { facilityId: facility }) !== "allow") {
      throw new AppError(ErrorCode.facilityNotFound, "Facility not found");
    }
    return eq(helpRequests.facilityId, facility);
  }
  const scope = facilityScope(actor);
  if (scope === "all") return sql`true`;
  return scope === null ? sql`false` : eq(helpRequests.facilityId, scope);
}

/**
 * Open requests count and are answered for current members only: a former employee's open
 * request leaves the lists with them (issue 28) and is back if they are restored.
 */
const openOfCurrent = isCurrentMember(helpRequests.userId);

/** GET /help: the open requests within scope, one entry per question, the most asked first. */
export async function listHelpRequests(
  db: Db,
  actor: Actor,
  facility: number | undefined,
): Promise<HelpRequestSummary[]> {
  assertMay(actor, "help.read");
  const scope = await requestScope(db, actor, facility);
  const query = db
    .select({
      questionId: questions.id,
      text: questions.text,
      count: sql<number>`count(*)::int`,
      lastAskedAt: sql<Date>`max(${helpRequests.createdAt})`,
      topic: topics.name,
      training: trainings.name,
      icon: trainings.icon,
      questionnaireFacilityId: questionnaires.facilityId,
      needsFix: flagged,
    })
    .from(helpRequests)
    .innerJoin(questions, eq(questions.id, helpRequests.questionId))
    .$dynamic();
  const rows = await withPlace(query)
    .where(and(isNull(helpRequests.handledAt), openOfCurrent, scope))
    .groupBy(questions.id, questions.text, topics.name, trainings.name, trainings.icon, questionnaires.facilityId)
    .orderBy(desc(sql`count(*)`), desc(sql`max(${helpRequests.createdAt})`), asc(questions.id));
  return rows
    .filter((r) => seesQuestion(actor, r.questionnaireFacilityId))
    .map((r) => ({
      question_id: r.questionId,
      question_text: r.text,
      count: Number(r.count),
      color: helpBadgeColour(Number(r.count)),
      topic: r.topic,
      training: r.training,
      icon: r.icon,
      last_asked_at: new Date(r.lastAskedAt).toISOString(),
      needs_fix: Boolean(r.needsFix),
    }));
}

/** The most of their own requests a learner's list shows (GET /help/mine). */
export const MY_HELP_REQUESTS_MAX = 100;

/**
 * GET /help/mine (issue 30): the learner's own requests, the newest first, each with its question
 * (the version they asked about), its training and the reply once given — so that an answer can
 * be found again after its notification is gone.
 */
export async function listMyHelpRequests(db: Db, actor: Actor): Promise<MyHelpRequest[]> {
  assertMay(actor, "help.ask");
  const query = db
    .select({
      id: helpRequests.id,
      questionId: questions.id,
      text: questions.text,
      topicId: topics.id,
      trainingId: trainings.id,
      training: trainings.name,
      askedAt: helpRequests.createdAt,
      handledAt: helpRequests.handledAt,
      replyText: helpReplies.text,
      replyBy: helpReplies.authorName,
      replyAt: helpReplies.createdAt,
    })
    .from(helpRequests)
    .innerJoin(questions, eq(questions.id, helpRequests.questionId))
    .leftJoin(helpReplies, eq(helpReplies.id, helpRequests.replyId))
    .$dynamic();
  const rows = await withPlace(query)
    .where(eq(helpRequests.userId, actor.id))
    .orderBy(desc(helpRequests.createdAt), desc(helpRequests.id))
    .limit(MY_HELP_REQUESTS_MAX);
  return rows.map((r) => ({
    id: r.id,
    question_id: r.questionId,
    question_text: r.text,
    topic_id: r.topicId,
    training_id: r.trainingId,
    training: r.training,
    asked_at: r.askedAt.toISOString(),
    handled_at: r.handledAt?.toISOString() ?? null,
    reply:
      r.replyText === null || r.replyAt === null
        ? null
        : { text: r.replyText, by: r.replyBy ?? "", at: r.replyAt.toISOString() },
  }));
}

/**
 * GET /help/{id}: the question as the learner saw it, with the answer key, who asked and the
 * replies given so far. 1004 unless a request about it (open or handled) lies within scope.
 */
export async function getHelpRequest(
  db: Db,
  actor: Actor,
  questionId: number,
  facility: number | undefined,
): Promise<HelpRequestDetail> {
  assertMay(actor, "help.read");
  const scope = await requestScope(db, actor, facility);
  const [any] = await db
    .select({ id: helpRequests.id })
    .from(helpRequests)
    .where(and(eq(helpRequests.questionId, questionId), scope))
    .limit(1);
  if (!any) throw HELP_NOT_FOUND();
  const q = await questionContext(db, questionId);
  if (!q || !seesQuestion(actor, q.questionnaireFacilityId)) throw HELP_NOT_FOUND();
  const answerRows = await db
    .select({ id: answers.id, text: answers.text, correct: answers.correct })
    .from(answers)
    .where(and(eq(answers.questionId, questionId), eq(answers.retired, false)))
    .orderBy(asc(answers.position));
  const learners = await db
    .select({
      id: users.id,
      name: users.name,
      surname: users.surname,
      facility: facilities.name,
      askedAt: helpRequests.createdAt,
    })
    .from(helpRequests)
    .innerJoin(users, eq(users.id, helpRequests.userId))
    .leftJoin(facilities, eq(facilities.id, helpRequests.facilityId))
    .where(and(eq(helpRequests.questionId, questionId), isNull(helpRequests.handledAt), openOfCurrent, scope))
    .orderBy(asc(helpRequests.createdAt), asc(helpRequests.id));
  const replies = await db
    .select({
      text: helpReplies.text,
      by: helpReplies.authorName,
      at: helpReplies.createdAt,
      learners: sql<number>`count(*)::int`,
    })
    .from(helpReplies)
    .innerJoin(helpRequests, eq(helpRequests.replyId, helpReplies.id))
    .where(and(eq(helpReplies.questionId, questionId), scope))
    .groupBy(helpReplies.id, helpReplies.text, helpReplies.authorName, helpReplies.createdAt)
    .orderBy(desc(helpReplies.createdAt), desc(helpReplies.id));
  const kind = q.mediaKind;
  const media: HelpRequestDetail["media"] =
    q.mediaId !== null && (kind === "image" || kind === "video") ? { type: kind, id: q.mediaId } : null;
  return {
    id: q.id,
    question_id: q.id,
    count: learners.length,
    color: helpBadgeColour(learners.length),
    question_text: q.text,
    type: q.type === "multiple" ? "multiple" : "single",
    icon: q.icon,
    topic: { id: q.topicId, name: q.topic },
    training: { id: q.trainingId, name: q.training },
    questionnaire: { id: q.questionnaireId, name: q.questionnaire },
    editable: mayEditQuestionnaire(actor, q.questionnaireFacilityId),
    answers: answerRows.map((a) => ({ id: a.id, text: a.text, value: a.correct })),
    explanation: q.explanation,
    hint: q.hint,
    media,
    learners: learners.map((l) => ({
      id: l.id,
      name: l.name,
      surname: l.surname,
      facility: l.facility,
      asked_at: l.askedAt.toISOString(),
    })),
    replies: replies.map((r) => ({
      text: r.text,
      by: r.by,
      at: new Date(r.at).toISOString(),
      learners: Number(r.learners),
    })),
    needs_fix: Boolean(q.needsFix),
  };
}

/**
 * The open requests about a question within scope, locked for the handler, with the question:
 * 1004 when there are none, or the question is not the handler's to see.
 */
async function claimOpen(tx: Tx, actor: Actor, questionId: number, facility: number | undefined) {
  const scope = await requestScope(tx, actor, facility);
  const rows = await tx
    .select({ id: helpRequests.id, userId: helpRequests.userId })
    .from(helpRequests)
    .where(and(eq(helpRequests.questionId, questionId), isNull(helpRequests.handledAt), openOfCurrent, scope))
    .for("update");
  if (rows.length === 0) throw HELP_NOT_FOUND();
  const context = await questionContext(tx, questionId);
  if (!context || !seesQuestion(actor, context.questionnaireFacilityId)) throw HELP_NOT_FOUND();
  return { rows, context };
}

/**
 * The audit entry of a reply or a handling: the question and the requests; the facility is the
 * requests' when they share one (an administrator's view), else none (a superuser across facilities).
 */
async function auditHelp(
  tx: Tx,
  actor: Actor,
  kind: "help.replied" | "help.handled",
  questionId: number,
  open: { id: number; userId: number }[],
  now: Date,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const learners = [...new Set(open.map((r) => r.userId))];
  const places = await tx
    .selectDistinct({ facilityId: helpRequests.facilityId })
    .from(helpRequests)
    .where(
      inArray(
        helpRequests.id,
        open.map((r) => r.id),
      ),
    );
  const facilityId = places.length === 1 ? (places[0]?.facilityId ?? null) : null;
  const data = {
    question: questionId,
    requests: open.map((r) => r.id).sort((a, b) => a - b),
    learners: learners.length,
  };
  await recordAudit(tx, { kind, actor, facilityId, data: { ...data, ...extra } }, now);
}

/**
 * DELETE /help/{id}: marks the open requests about the question within scope handled. They
 * are kept, with who handled them and when; the question leaves the open list.
 */
export async function handleHelpRequest(
  deps: NotifyDeps,
  actor: Actor,
  questionId: number,
  facility: number | undefined,
): Promise<number> {
  assertMay(actor, "help.handle");
  return deps.db.transaction(async (tx) => {
    const { rows: open } = await claimOpen(tx, actor, questionId, facility);
    const now = deps.now();
    await tx
      .update(helpRequests)
      .set({ handledAt: now, handledBy: actor.id })
      .where(
        inArray(
          helpRequests.id,
          open.map((r) => r.id),
        ),
      );
    await auditHelp(tx, actor, "help.handled", questionId, open, now);
    return open.length;
  });
}

/**
 * POST /help/{id}/reply: answers every learner with an open request about the question within
 * scope — an in-app notification (and a mail in their language when they have an address) —
 * and marks their requests handled with the reply. The learner sees it beside the question in
 * the quiz's explanation view.
 */
export async function replyToHelpRequest(
  deps: NotifyDeps,
  actor: Actor,
  questionId: number,
  text: string,
  facility: number | undefined,
): Promise<number> {
  assertMay(actor, "help.handle");
  const now = deps.now();
  const by = personName(actor);
  const { handled, mails } = await deps.db.transaction(async (tx) => {
    const { rows: open, context } = await claimOpen(tx, actor, questionId, facility);
    const [reply] = await tx
      .insert(helpReplies)
      .values({ questionId, authorId: actor.id, authorName: by, text, createdAt: now })
      .returning({ id: helpReplies.id });
    if (!reply) throw HELP_NOT_FOUND();
    await tx
      .update(helpRequests)
      .set({ handledAt: now, handledBy: actor.id, replyId: reply.id })
      .where(
        inArray(
          helpRequests.id,
          open.map((r) => r.id),
        ),
      );
    await auditHelp(tx, actor, "help.replied", questionId, open, now, { reply: reply.id });
    const learnerIds = [...new Set(open.map((r) => r.userId))];
    const values = {
      question: truncate(context.text, 120),
      reply: text,
      by,
      training: context.training,
      topicId: String(context.topicId),
      trainingId: String(context.trainingId),
      questionnaireId: String(context.questionnaireId),
      // The notification opens the learner's own questions at this one, the reply beside it.
      questionId: String(questionId),
    };
    await insertNotifications(
      tx,
      learnerIds.map((userId) => ({
        userId,
        type: "HELP_REQUEST_REPLY" as const,
        message: { key: NotificationMessageKey.helpReply, values },
        expiresAt: null,
      })),
    );
    const readers = await tx
      .select({ email: users.email, language: preferences.language })
      .from(users)
      .leftJoin(preferences, eq(preferences.userId, users.id))
      .where(and(inArray(users.id, learnerIds), isNotNull(users.email)));
    const queued = await enqueueMail(
      tx,
      readers.flatMap((r) => {
        if (!r.email) return [];
        const language = mailLanguage(r.language);
        const texts = mailTexts(language).helpReply;
        return [
          {
            to: [r.email],
            subject: fill(texts.subject, values),
            text: mailBody(language, [fill(texts.text, values), "", text]),
          },
        ];
      }),
      now,
    );
    return { handled: open.length, mails: queued };
  });
  if (mails > 0) mailQueued();
  return handled;
}

/** PUT /help/{id}/content-fix: a Super-Admin lists the question for content work, or takes it off. */
export async function setContentFix(
  deps: NotifyDeps,
  actor: Actor,
  questionId: number,
  needsFix: boolean,
  note: string | undefined,
): Promise<{ needs_fix: boolean }> {
  assertMay(actor, "help.flagContent");
  const [q] = await deps.db.select({ id: questions.id }).from(questions).where(eq(questions.id, questionId));
  if (!q) throw new AppError(ErrorCode.questionNotFound, "Question not found");
  if (!needsFix) {
    await deps.db.delete(questionContentFlags).where(eq(questionContentFlags.questionId, questionId));
    return { needs_fix: false };
  }
  const row = { flaggedBy: actor.id, flaggedByName: personName(actor), flaggedAt: deps.now() };
  await deps.db
    .insert(questionContentFlags)
    .values({ questionId, note: note || null, ...row })
    .onConflictDoUpdate({ target: questionContentFlags.questionId, set: { ...row, note: note || null } });
  return { needs_fix: true };
}

/** GET /help/content-fixes: the questions marked 'content needs fixing', newest first. */
export async function listContentFixes(db: Db, actor: Actor): Promise<ContentFix[]> {
  assertMay(actor, "help.flagContent");
  const query = db
    .select({
      questionId: questions.id,
      text: questions.text,
      topic: topics.name,
      training: trainings.name,
      questionnaire: questionnaires.name,
      note: questionContentFlags.note,
      by: questionContentFlags.flaggedByName,
      at: questionContentFlags.flaggedAt,
      requests: sql<number>`(select count(*)::int from ${helpRequests} hr where hr."question_id" = ${questions.id})`,
    })
    .from(questionContentFlags)
    .innerJoin(questions, eq(questions.id, questionContentFlags.questionId))
    .$dynamic();
  const rows = await withPlace(query).orderBy(desc(questionContentFlags.flaggedAt), asc(questions.id));
  return rows.map((r) => ({
    question_id: r.questionId,
    question_text: r.text,
    topic: r.topic,
    training: r.training,
    questionnaire: r.questionnaire,
    note: r.note,
    by: r.by,
    at: r.at.toISOString(),
    requests: Number(r.requests),
  }));
}
