import {
  type CertificateRef,
  daysUntil,
  type NameTranslationKind,
  type OwnHelp,
  type Questionnaire,
  type RevocationReason,
  SOURCE_LANGUAGE,
  type Topic,
  type Training,
  type UserProgress,
} from "@carecampus/contract";
import { eq, type Query, sql } from "drizzle-orm";
import type { PreparedQueryConfig } from "drizzle-orm/pg-core";
import { assignedTrainingIdsJson } from "../assignments/service";
import { type Db, runAll, type Tx } from "../db/client";
import { users } from "../db/schema";
import { confirmSession, SESSION_COLUMNS, type SessionCheck, type SessionColumns } from "../security/session-cache";
import { type KeptAnswer, keptAnswerJson } from "./answer-keys";
import {
  type CachedQuestion,
  type CachedQuestionnaire,
  type CachedTraining,
  type ContentView,
  contentView,
  translatedName,
} from "./content-cache";
import { type OwnHelpRow, ownHelpJson, ownHelpOf } from "./own-help";

/** Days before expiry from which a training's questionnaires open again (decision 4). */
export const RENEWAL_WINDOW_DAYS = 30;

interface CertRow {
  id: number;
  trainingId: number;
  acquiredAt: Date;
  expiresAt: Date;
  points: number;
  /** Revoked (issue 29): kept in the history, marked, but it counts nowhere. */
  revoked: { at: Date; reason: RevocationReason } | null;
}

export interface QuestionnaireState {
  id: number;
  key: string;
  origin: string;
  facilityId: number | null;
  name: string;
  position: number;
  total: number;
  count: number;
}

/** An assigned training with the user's state in it. */
export interface TrainingState extends CachedTraining {
  /** Certificates already held: the quiz cycle of this training. */
  cycle: number;
  /** The newest certificate that counts (not revoked); revoked ones are only history. */
  newest: CertRow | null;
  /** Holds a certificate more than 30 days from expiry: nothing to do. */
  done: boolean;
  /** Holds a certificate within 30 days of expiry, or an expired one. */
  renewal: boolean;
  questionnaires: QuestionnaireState[];
}

export interface TopicState {
  id: number;
  name: string;
  icon: string;
  color: string;
  position: number;
  trainings: TrainingState[];
}

/** What a snapshot was built from besides the user's progress: the content and the assignments. */
interface SnapshotContent {
  userId: number;
  /** The content in memory the snapshot was built from (questions and answers too). */
  view: ContentView;
  topicRows: ContentView["topics"];
  /** The trainings assigned to the user (ARCHITECTURE decision 6). */
  trainingRows: CachedTraining[];
  /** The questionnaires this user learns: published, common or of the user's facility. */
  questionnaireRows: CachedQuestionnaire[];
  /** The user's chosen content language (preferences; null: the interface language). */
  contentLanguage: string | null;
}

/** A name as a learner is shown it: a published, current translation into their language, else German. */
export type NameIn = (kind: NameTranslationKind, id: number, german: string) => { name: string; name_lang: string };

/** Names as they are written (staff's views, a learner without another content language). */
export const germanNames: NameIn = (_kind, _id, german) => ({ name: german, name_lang: SOURCE_LANGUAGE });

/** Names in `lang` where the content has a translation a learner may be shown (content-cache.ts). */
export function namesIn(view: ContentView, lang: string): NameIn {
  if (lang === SOURCE_LANGUAGE) return germanNames;
  return (kind, id, german) => {
    const name = translatedName(view, kind, id, lang);
    return name === null ? { name: german, name_lang: SOURCE_LANGUAGE } : { name, name_lang: lang };
  };
}

/** One quiz attempt of the user at the questionnaire a snapshot was read for. */
export interface AttemptRow {
  questionId: number;
  round: number;
  correct: boolean;
  cycle: number;
}

/** The user's correct answers, counted by question, per questionnaire and quiz cycle. */
interface CorrectRow {
  questionnaireId: number;
  cycle: number;
  count: number;
}

/** The question versions the user answered rightly, per questionnaire and quiz cycle, as the database holds them. */
interface RightAnswers {
  questionnaireId: number;
  cycle: number;
  questionIds: number[];
}

/**
 * The right answers counted by question, not version: a right answer to an earlier version still
 * counts, as long as the question is live (content/versions.ts) in the content the request reads.
 * Counted here from the content in memory rather than joined in the learner's statement, whose
 * cost then grows with the user's answers only, not with all the content's question versions.
 */
function countCorrect(view: ContentView, right: RightAnswers[]): CorrectRow[] {
  return right.map(({ questionnaireId, cycle, questionIds }) => {
    const keys = new Set<string>();
    for (const id of questionIds) {
      const question = view.questions.get(id);
      if (question && view.liveByKey.has(`${question.questionnaireId}:${question.key}`)) keys.add(question.key);
    }
    return { questionnaireId, cycle, count: keys.size };
  });
}

export interface Snapshot {
  topics: TopicState[];
  certificates: CertRow[];
  content: SnapshotContent;
  correct: CorrectRow[];
  /** The user's attempts at the questionnaire the snapshot was read for (loadSnapshot's `attemptsOf`). */
  attempts: AttemptRow[];
  /** The user's own help requests about a question (loadSnapshot's `helpOf`). */
  help?: OwnHelp;
  /** The answer kept for the user's Idempotency-Key (loadSnapshot's `answerKey`), when there is one. */
  kept?: KeptAnswer;
}

/**
 * A learner sees the published questionnaires that are common content or their facility's
 * own; a draft, or another facility's questionnaire, is not theirs (404 on its path).
 */
export function learnsQuestionnaire(q: CachedQuestionnaire, facilityId: number | null): boolean {
  return q.published && (q.facilityId === null || q.facilityId === facilityId);
}

/**
 * The question, when a learner of `facilityId` can be asked it: a live question of a questionnaire
 * they learn (learnsQuestionnaire) in a live training of a live topic. The one rule for every
 * call that names a question by id on a learner's behalf (the answer POST, POST /help): what is
 * not askable is answered like a question that does not exist (1007), before anything else is
 * checked, so another facility's own content and drafts cannot be found by counting ids.
 */
export function askableQuestion(
  view: ContentView,
  facilityId: number | null,
  questionId: number,
): CachedQuestion | undefined {
  const question = view.questions.get(questionId);
  if (!question || question.retired) return undefined;
  const questionnaire = view.questionnaires.find((q) => q.id === question.questionnaireId);
  if (!questionnaire || !learnsQuestionnaire(questionnaire, facilityId)) return undefined;
  return view.trainings.some((t) => t.id === questionnaire.trainingId) ? question : undefined;
}

const collator = new Intl.Collator("de", { numeric: true, sensitivity: "base" });

/** Questionnaires sort numerically when their names are numbers (spec §9), else by position. */
function sortQuestionnaires(list: QuestionnaireState[]): QuestionnaireState[] {
  const numeric = list.every((q) => /^\d+$/.test(q.name));
  return [...list].sort((a, b) => (numeric ? Number(a.name) - Number(b.name) : a.position - b.position));
}

interface LearnerRows {
  facilityId: number | null;
  /** The user's chosen content language (preferences), null when none. */
  contentLanguage: string | null;
  /** The trainings of the user's training matrix; null without a matrix (every training). */
  matrix: number[] | null;
  right: RightAnswers[];
  certificates: CertRow[];
  attempts: AttemptRow[];
  help?: OwnHelp;
  kept?: KeptAnswer;
}

/** Which parts a learner statement reads besides the progress (loadSnapshot's options). */
interface LearnerParts {
  attempts: boolean;
  help: boolean;
  kept: boolean;
  /** The user's session columns, to confirm the session the guard took from memory. */
  session: boolean;
}

const partsName = (parts: LearnerParts) =>
  `${Number(parts.attempts)}${Number(parts.help)}${Number(parts.kept)}${Number(parts.session)}`;

const USER = sql.placeholder("user");
const QUESTIONNAIRE = sql.placeholder("questionnaire");
const QUESTION = sql.placeholder("question");
const KEY = sql.placeholder("key");

/**
 * The statement of learnerRows for one combination of parts, under a name of its own: PostgreSQL
 * parses and plans it once per connection instead of on every request (its plan took longer than
 * its run: 1.4 ms against 1.1 ms per answer, measured with pg_stat_statements under the bench's
 * closed loop). The servers connect directly or through a pooler in session mode (README
 * 'Running several servers'), as the session's user statement already requires.
 */
function learnerStatement(db: Db | Tx, parts: LearnerParts): Query {
  const state = sql<RawState | string>`json_build_object(
    'facility', "users"."facility_id",
    'content_language', (select p."content_language" from "preferences" p where p."user_id" = ${USER}),
    'matrix', ${assignedTrainingIdsJson(USER)},
    'right', coalesce((select json_agg(json_build_array(r.qn, r.cycle, r.ids)) from (
      -- The versions answered rightly; countCorrect counts them by question with the content.
      select a."questionnaire_id" as qn, a."cycle" as cycle, array_agg(distinct a."question_id") as ids
      from "quiz_attempts" a
      where a."user_id" = ${USER} and a."correct"
      group by a."questionnaire_id", a."cycle") r), '[]'::json),
    'certificates', coalesce((select json_agg(json_build_array(c."id", c."training_id",
        floor(extract(epoch from c."acquired_at") * 1000), floor(extract(epoch from c."expires_at") * 1000), c."points",
        floor(extract(epoch from c."revoked_at") * 1000), c."revoke_reason")
        order by c."acquired_at", c."id")
      from "certificates" c where c."user_id" = ${USER}), '[]'::json),
    'attempts', ${
      parts.attempts
        ? sql`coalesce((select json_agg(json_build_array(a."question_id", a."round", a."correct", a."cycle"))
          from "quiz_attempts" a where a."user_id" = ${USER} and a."questionnaire_id" = ${QUESTIONNAIRE}), '[]'::json)`
        : sql`'[]'::json`
    },
    'help', ${parts.help ? ownHelpJson(USER, QUESTION) : sql`null`},
    'kept', ${parts.kept ? keptAnswerJson(USER, KEY) : sql`null`},
    'session', ${parts.session ? SESSION_COLUMNS : sql`null`}
  )`;
  return db
    .select({ state: state.as("state") })
    .from(users)
    .where(eq(users.id, USER))
    .toSQL();
}

/** The statement of each combination of parts, built once (its text is the same on either database). */
const statements = new Map<string, Query>();

/** learnerRows' statement, run by name on the handle's connection (a transaction's too). */
function learnerQuery(db: Db | Tx, parts: LearnerParts) {
  const key = partsName(parts);
  let query = statements.get(key);
  if (!query) {
    query = learnerStatement(db, parts);
    statements.set(key, query);
  }
  return db._.session.prepareQuery<PreparedQueryConfig & { execute: { rows: { state: RawState | string }[] } }>(
    query,
    undefined,
    `cc_learner_${key}`,
    false,
  );
}

/**
 * Everything of the user a learning screen needs, in one statement (one round trip, one
 * snapshot): the facility, the training matrix, the correct answers per questionnaire and cycle,
 * the certificates, with `attemptsOf` the attempts at that questionnaire, and with `helpOf` the
 * user's own help requests about that question, and with `session` the session confirmed
 * (security/session-cache.ts SessionCheck; it throws when the user is no longer as admitted). A
 * user who no longer exists has no progress.
 */
async function learnerRows(
  db: Db | Tx,
  userId: number,
  attemptsOf?: number,
  helpOf?: number,
  answerKey?: string,
  session?: SessionCheck,
): Promise<LearnerRows> {
  const query = learnerQuery(db, {
    attempts: attemptsOf !== undefined,
    help: helpOf !== undefined,
    kept: answerKey !== undefined,
    session: session !== undefined,
  });
  const {
    rows: [row],
  } = await query.execute({
    user: userId,
    questionnaire: attemptsOf ?? null,
    question: helpOf ?? null,
    key: answerKey ?? null,
  });
  const raw = row?.state;
  const state: RawState | undefined = typeof raw === "string" ? (JSON.parse(raw) as RawState) : raw;
  if (session) confirmSession(session, state?.session ?? undefined);
  if (state === undefined) {
    return { facilityId: null, contentLanguage: null, matrix: null, right: [], certificates: [], attempts: [] };
  }
  return {
    facilityId: state.facility,
    contentLanguage: state.content_language ?? null,
    matrix: state.matrix,
    right: state.right.map(([questionnaireId, cycle, questionIds]) => ({ questionnaireId, cycle, questionIds })),
    certificates: state.certificates.map(([id, trainingId, acquired, expires, points, revokedAt, reason]) => ({
      id,
      trainingId,
      acquiredAt: new Date(acquired),
      expiresAt: new Date(expires),
      points,
      revoked: revokedAt === null ? null : { at: new Date(revokedAt), reason: reason as RevocationReason },
    })),
    attempts: state.attempts.map(([questionId, round, correct, cycle]) => ({ questionId, round, correct, cycle })),
    ...(state.help && { help: ownHelpOf(state.help) }),
    ...(state.kept && { kept: state.kept }),
  };
}

interface RawState {
  facility: number | null;
  content_language?: string | null;
  matrix: number[] | null;
  right: [number, number, number[]][];
  certificates: [number, number, number, number, number, number | null, string | null][];
  attempts: [number, number, boolean, number][];
  help: OwnHelpRow[] | null;
  kept: KeptAnswer | null;
  session: SessionColumns | null;
}

/**
 * Everything the learning screens show for one user, in one query whatever the size (the
 * content comes from memory, content-cache.ts; the user's rows from learnerRows). `now` and the
 * configured time zone `zone` decide which certificates are due for renewal.
 */
export async function loadSnapshot(
  db: Db | Tx,
  userId: number,
  now: Date,
  zone: string,
  options: {
    /** The content this request read already (one generation per request). */
    view?: ContentView;
    /** Also read the user's attempts at this questionnaire (Snapshot.attempts). */
    attemptsOf?: number;
    /** Also read the user's own help requests about this question (Snapshot.help). */
    helpOf?: number;
    /** Also read the answer kept for this Idempotency-Key of the user (Snapshot.kept). */
    answerKey?: string;
    /** Confirm the session the guard took from memory (guards.ts sessionCheckOf). */
    session?: SessionCheck | undefined;
  } = {},
): Promise<Snapshot> {
  const [content, rows] = await runAll(db, [
    () => (options.view ? Promise.resolve(options.view) : contentView(db)),
    () => learnerRows(db, userId, options.attemptsOf, options.helpOf, options.answerKey, options.session),
  ] as const);
  const assigned = rows.matrix === null ? null : new Set(rows.matrix);
  const snapshot = buildSnapshot(
    {
      userId,
      view: content,
      topicRows: content.topics,
      trainingRows: assigned ? content.trainings.filter((t) => assigned.has(t.id)) : content.trainings,
      questionnaireRows: content.questionnaires.filter((q) => learnsQuestionnaire(q, rows.facilityId)),
      contentLanguage: rows.contentLanguage,
    },
    { ...rows, correct: countCorrect(content, rows.right) },
    now,
    zone,
  );
  return { ...snapshot, ...(rows.help && { help: rows.help }), ...(rows.kept && { kept: rows.kept }) };
}

/**
 * The same snapshot after the user's progress changed (a certificate issued): content and
 * assignments are those already read, only the progress is read again.
 */
export async function reloadProgress(db: Db | Tx, before: Snapshot, now: Date, zone: string): Promise<Snapshot> {
  const rows = await learnerRows(db, before.content.userId);
  return buildSnapshot(
    before.content,
    { ...rows, correct: countCorrect(before.content.view, rows.right), attempts: before.attempts },
    now,
    zone,
  );
}

/**
 * The same snapshot with one more recorded attempt (the answer just given), without reading
 * again: a right answer to a question not yet right in its cycle counts one more, as
 * countCorrect would count it (by question, live questions only).
 */
export function withAttempt(
  before: Snapshot,
  questionnaireId: number,
  attempt: AttemptRow,
  alreadyRight: boolean,
  now: Date,
  zone: string,
): Snapshot {
  const counts = before.correct.map((r) => ({ ...r }));
  if (attempt.correct && !alreadyRight) {
    const row = counts.find((r) => r.questionnaireId === questionnaireId && r.cycle === attempt.cycle);
    if (row) row.count += 1;
    else counts.push({ questionnaireId, cycle: attempt.cycle, count: 1 });
  }
  return buildSnapshot(
    before.content,
    { correct: counts, certificates: before.certificates, attempts: [...before.attempts, attempt] },
    now,
    zone,
  );
}

function buildSnapshot(
  content: SnapshotContent,
  rows: Pick<LearnerRows, "certificates" | "attempts"> & { correct: CorrectRow[] },
  now: Date,
  zone: string,
): Snapshot {
  const { topicRows, trainingRows, questionnaireRows } = content;
  const certRows = rows.certificates;
  const correct = new Map(rows.correct.map((r) => [`${r.questionnaireId}:${r.cycle}`, r.count]));
  const certsByTraining = new Map<number, CertRow[]>();
  for (const c of certRows) {
    const list = certsByTraining.get(c.trainingId) ?? [];
    list.push(c);
    certsByTraining.set(c.trainingId, list);
  }
  const qnByTraining = new Map<number, typeof questionnaireRows>();
  for (const q of questionnaireRows) {
    const list = qnByTraining.get(q.trainingId) ?? [];
    list.push(q);
    qnByTraining.set(q.trainingId, list);
  }

  const byTopic = new Map<number, TrainingState[]>();
  for (const t of trainingRows) {
    const certs = certsByTraining.get(t.id) ?? [];
    // A revoked certificate counts nowhere: the newest one that counts decides, and without one
    // the training is due again. The cycle counts every certificate, so a new one starts afresh.
    const newest = certs.findLast((c) => c.revoked === null) ?? null;
    const renewal = newest !== null && daysUntil(newest.expiresAt, now, zone) <= RENEWAL_WINDOW_DAYS;
    const done = newest !== null && !renewal;
    const cycle = certs.length;
    const qns = (qnByTraining.get(t.id) ?? []).map((q) => ({
      id: q.id,
      key: q.key,
      origin: q.origin,
      facilityId: q.facilityId,
      name: q.name,
      position: q.position,
      total: q.total,
      // A training with a valid certificate counts as complete (its last cycle was).
      count: done ? q.total : Math.min(q.total, correct.get(`${q.id}:${cycle}`) ?? 0),
    }));
    const state: TrainingState = { ...t, cycle, newest, done, renewal, questionnaires: sortQuestionnaires(qns) };
    const list = byTopic.get(t.topicId) ?? [];
    list.push(state);
    byTopic.set(t.topicId, list);
  }
  return {
    // A topic none of whose trainings are assigned is not the learner's topic.
    topics: topicRows
      .filter((tp) => byTopic.has(tp.id))
      .map((tp) => ({
        id: tp.id,
        name: tp.name,
        icon: tp.icon,
        color: tp.color,
        position: tp.position,
        trainings: (byTopic.get(tp.id) ?? []).sort((a, b) => collator.compare(a.name, b.name)),
      })),
    certificates: certRows,
    content,
    correct: rows.correct,
    attempts: rows.attempts,
  };
}

export function certificateRef(cert: CertRow | null, now: Date, zone: string): CertificateRef | null {
  if (!cert) return null;
  return {
    id: cert.id,
    acquired_at: cert.acquiredAt.toISOString(),
    expires_at: cert.expiresAt.toISOString(),
    active_working_cert: cert.revoked === null && daysUntil(cert.expiresAt, now, zone) > 0,
    // Only a revoked one says so: the answers of every other certificate stay as they were.
    ...(cert.revoked && { revoked: { at: cert.revoked.at.toISOString(), reason: cert.revoked.reason } }),
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function trainingCounts(t: TrainingState) {
  return { count: sum(t.questionnaires.map((q) => q.count)), total: sum(t.questionnaires.map((q) => q.total)) };
}

export function toTraining(t: TrainingState, now: Date, zone: string, names: NameIn = germanNames): Training {
  const { count, total } = trainingCounts(t);
  return {
    id: t.id,
    topic_id: t.topicId,
    ...names("training", t.id, t.name),
    icon: t.icon,
    description: t.description,
    certificate: certificateRef(t.newest, now, zone),
    count,
    total,
    disabled: !t.passive && t.questionnaires.length === 0,
    passive: t.passive,
    questionnaires: t.questionnaires.length,
    points: t.points,
    validity_months: t.validityMonths,
    wiki_link: t.wikiLink,
    legal_basis: t.legalBasis,
    renewal: t.renewal,
  };
}

export function toTopic(tp: TopicState, now: Date, zone: string, names: NameIn = germanNames): Topic {
  const counts = tp.trainings.map(trainingCounts);
  const count = sum(counts.map((c) => c.count));
  const total = sum(counts.map((c) => c.total));
  const valid = tp.trainings.filter((t) => t.newest && daysUntil(t.newest.expiresAt, now, zone) > 0).length;
  return {
    id: tp.id,
    ...names("topic", tp.id, tp.name),
    icon: tp.icon,
    color: tp.color,
    trainings: tp.trainings.map((t) => t.id),
    count,
    total,
    question_count: count,
    question_total: total,
    certificate_count: valid,
    certificate_total: tp.trainings.length,
    disabled: tp.trainings.length === 0,
  };
}

/**
 * A questionnaire is finished when count = total and it is not disabled (spec §4). The next
 * one opens when the one before it is finished, so a training is learnt in order.
 */
export function toQuestionnaires(
  t: TrainingState,
  allowAgain: boolean,
  topicId: number,
  /** Who may change a questionnaire in authoring (the edit button); none by default. */
  mayEdit: (facilityId: number | null) => boolean = () => false,
  names: NameIn = germanNames,
): Questionnaire[] {
  let previousFinished = true;
  return t.questionnaires.map((q) => {
    const disabled = !previousFinished;
    const finished = !disabled && q.total > 0 && q.count >= q.total;
    previousFinished = finished;
    return {
      id: q.id,
      ...names("questionnaire", q.id, q.name),
      count: q.count,
      total: q.total,
      disabled,
      editable: finished && allowAgain,
      finished,
      origin: q.origin === "facility" ? "facility" : q.origin === "common" ? "common" : "package",
      can_edit: mayEdit(q.facilityId),
      link: disabled ? null : `/topic/${topicId}/training/${t.id}/questionnaire/${q.id}`,
    };
  });
}

/**
 * Where learning a training goes on: the first questionnaire not finished (the ones after it are
 * locked, spec §4); the first one when all are finished; none without questionnaires.
 */
function nextQuestionnaire(t: TrainingState): QuestionnaireState | undefined {
  return t.questionnaires.find((q) => !(q.total > 0 && q.count >= q.total)) ?? t.questionnaires[0];
}

/**
 * The training's certificates but the one that counts, newest first: renewals keep them as
 * history, and revoked ones stay there, marked.
 */
function earlierCertificates(snapshot: Snapshot, t: TrainingState, now: Date, zone: string): CertificateRef[] {
  return snapshot.certificates
    .filter((c) => c.trainingId === t.id && c.id !== t.newest?.id)
    .reverse()
    .map((c) => certificateRef(c, now, zone))
    .filter((c): c is CertificateRef => c !== null);
}

export function toUserProgress(snapshot: Snapshot, now: Date, zone: string): UserProgress {
  const topicList = snapshot.topics.filter((t) => t.trainings.length > 0).map((t) => toTopic(t, now, zone));
  const allTrainings = snapshot.topics.flatMap((t) => t.trainings);
  return {
    question_count: sum(topicList.map((t) => t.count)),
    question_total: sum(topicList.map((t) => t.total)),
    certificate_count: sum(topicList.map((t) => t.certificate_count)),
    certificate_total: allTrainings.length,
    points: sum(snapshot.certificates.filter((c) => c.revoked === null).map((c) => c.points)),
    topic_progress: topicList,
    training_progress: allTrainings.map((t) => ({
      id: t.id,
      topic_id: t.topicId,
      name: t.name,
      icon: t.icon,
      passive: t.passive,
      points: t.points,
      certificate: certificateRef(t.newest, now, zone),
      earlier_certificates: earlierCertificates(snapshot, t, now, zone),
      next_questionnaire_id: nextQuestionnaire(t)?.id ?? null,
    })),
    // getUserProgress (user-progress.ts) adds the partner's.
    partner_certificates: [],
  };
}
