import {
  type CertificateRef,
  daysUntil,
  type Questionnaire,
  type Topic,
  type Training,
  type UserProgress,
} from "@carecampus/contract";
import { and, asc, eq, sql } from "drizzle-orm";
import { isAssigned } from "../assignments/service";
import { type Db, runAll, type Tx } from "../db/client";
import { certificates, questions, quizAttempts, topics, trainings, users } from "../db/schema";
import { type CachedQuestionnaire, type ContentView, contentView } from "./content-cache";

/** Days before expiry from which a training's questionnaires open again (decision 4). */
export const RENEWAL_WINDOW_DAYS = 30;

interface CertRow {
  id: number;
  trainingId: number;
  acquiredAt: Date;
  expiresAt: Date;
  points: number;
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

export interface TrainingState {
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
  /** Certificates already held: the quiz cycle of this training. */
  cycle: number;
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
  trainingRows: Awaited<ReturnType<typeof assignedTrainingRows>>;
  /** The questionnaires this user learns: published, common or of the user's facility. */
  questionnaireRows: CachedQuestionnaire[];
}

export interface Snapshot {
  topics: TopicState[];
  certificates: CertRow[];
  content: SnapshotContent;
}

/**
 * The trainings assigned to a user: those of the user's training matrix, or every training
 * while the user has none (ARCHITECTURE decision 6).
 */
async function assignedTrainingRows(db: Db | Tx, userId: number) {
  return db
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
    .where(and(eq(trainings.retired, false), eq(topics.retired, false), isAssigned(userId, sql`"trainings"."id"`)));
}

/**
 * A learner sees the published questionnaires that are common content or their facility's
 * own; a draft, or another facility's questionnaire, is not theirs (404 on its path).
 */
export function learnsQuestionnaire(q: CachedQuestionnaire, facilityId: number | null): boolean {
  return q.published && (q.facilityId === null || q.facilityId === facilityId);
}

const collator = new Intl.Collator("de", { numeric: true, sensitivity: "base" });

/** Questionnaires sort numerically when their names are numbers (spec §9), else by position. */
function sortQuestionnaires(list: QuestionnaireState[]): QuestionnaireState[] {
  const numeric = list.every((q) => /^\d+$/.test(q.name));
  return [...list].sort((a, b) => (numeric ? Number(a.name) - Number(b.name) : a.position - b.position));
}

/** The user's correct answers per questionnaire and cycle, and their certificates: what a recorded answer changes. */
function progressQueries(db: Db | Tx, userId: number) {
  return [
    () =>
      db
        .select({
          questionnaireId: quizAttempts.questionnaireId,
          cycle: quizAttempts.cycle,
          // By question, not version: a right answer to an earlier version still counts, as long
          // as the question is live (content/versions.ts).
          count: sql<number>`count(distinct ${questions.key})::int`,
        })
        .from(quizAttempts)
        .innerJoin(questions, eq(questions.id, quizAttempts.questionId))
        .where(
          and(
            eq(quizAttempts.userId, userId),
            eq(quizAttempts.correct, true),
            sql`exists (select 1 from ${questions} live where live."questionnaire_id" = ${questions.questionnaireId} and live."key" = ${questions.key} and not live."retired")`,
          ),
        )
        .groupBy(quizAttempts.questionnaireId, quizAttempts.cycle),
    () =>
      db
        .select({
          id: certificates.id,
          trainingId: certificates.trainingId,
          acquiredAt: certificates.acquiredAt,
          expiresAt: certificates.expiresAt,
          points: certificates.points,
        })
        .from(certificates)
        .where(eq(certificates.userId, userId))
        .orderBy(asc(certificates.acquiredAt), asc(certificates.id)),
  ] as const;
}

type Rows<T extends readonly (() => Promise<unknown>)[]> = { [K in keyof T]: Awaited<ReturnType<T[K]>> };
type ProgressRows = Rows<ReturnType<typeof progressQueries>>;

/**
 * Everything the learning screens show for one user, in four queries whatever the size: the
 * content generation (topics and questionnaires with their totals come from memory, see
 * content-cache.ts), assigned trainings, the user's correct answers per questionnaire and
 * cycle, and the user's certificates.
 */
/** `now` and the configured time zone `zone` decide which certificates are due for renewal. */
export async function loadSnapshot(
  db: Db | Tx,
  userId: number,
  now: Date,
  zone: string,
  /** The content this request read already (one generation per request). */
  view?: ContentView,
): Promise<Snapshot> {
  const [content, trainingRows, userRows, correctRows, certRows] = await runAll(db, [
    () => (view ? Promise.resolve(view) : contentView(db)),
    () => assignedTrainingRows(db, userId),
    () => db.select({ facilityId: users.facilityId }).from(users).where(eq(users.id, userId)),
    ...progressQueries(db, userId),
  ] as const);
  const facilityId = userRows[0]?.facilityId ?? null;
  return buildSnapshot(
    {
      userId,
      view: content,
      topicRows: content.topics,
      trainingRows,
      questionnaireRows: content.questionnaires.filter((q) => learnsQuestionnaire(q, facilityId)),
    },
    [correctRows, certRows],
    now,
    zone,
  );
}

/**
 * The same snapshot after the user's progress changed (an answer recorded, a certificate
 * issued): content and assignments are those already read, only the progress is read again.
 */
export async function reloadProgress(db: Db | Tx, before: Snapshot, now: Date, zone: string): Promise<Snapshot> {
  const rows = (await runAll(db, progressQueries(db, before.content.userId))) as unknown as ProgressRows;
  return buildSnapshot(before.content, rows, now, zone);
}

function buildSnapshot(
  content: SnapshotContent,
  [correctRows, certRows]: ProgressRows,
  now: Date,
  zone: string,
): Snapshot {
  const { topicRows, trainingRows, questionnaireRows } = content;
  const correct = new Map(correctRows.map((r) => [`${r.questionnaireId}:${r.cycle}`, r.count]));
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
    const newest = certs.at(-1) ?? null;
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
  };
}

export function certificateRef(cert: CertRow | null, now: Date, zone: string): CertificateRef | null {
  if (!cert) return null;
  return {
    id: cert.id,
    acquired_at: cert.acquiredAt.toISOString(),
    expires_at: cert.expiresAt.toISOString(),
    active_working_cert: daysUntil(cert.expiresAt, now, zone) > 0,
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function trainingCounts(t: TrainingState) {
  return { count: sum(t.questionnaires.map((q) => q.count)), total: sum(t.questionnaires.map((q) => q.total)) };
}

export function toTraining(t: TrainingState, now: Date, zone: string): Training {
  const { count, total } = trainingCounts(t);
  return {
    id: t.id,
    topic_id: t.topicId,
    name: t.name,
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

export function toTopic(tp: TopicState, now: Date, zone: string): Topic {
  const counts = tp.trainings.map(trainingCounts);
  const count = sum(counts.map((c) => c.count));
  const total = sum(counts.map((c) => c.total));
  const valid = tp.trainings.filter((t) => t.newest && daysUntil(t.newest.expiresAt, now, zone) > 0).length;
  return {
    id: tp.id,
    name: tp.name,
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
): Questionnaire[] {
  let previousFinished = true;
  return t.questionnaires.map((q) => {
    const disabled = !previousFinished;
    const finished = !disabled && q.total > 0 && q.count >= q.total;
    previousFinished = finished;
    return {
      id: q.id,
      name: q.name,
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

export function toUserProgress(snapshot: Snapshot, now: Date, zone: string): UserProgress {
  const topicList = snapshot.topics.filter((t) => t.trainings.length > 0).map((t) => toTopic(t, now, zone));
  const allTrainings = snapshot.topics.flatMap((t) => t.trainings);
  return {
    question_count: sum(topicList.map((t) => t.count)),
    question_total: sum(topicList.map((t) => t.total)),
    certificate_count: sum(topicList.map((t) => t.certificate_count)),
    certificate_total: allTrainings.length,
    points: sum(snapshot.certificates.map((c) => c.points)),
    topic_progress: topicList,
    training_progress: allTrainings.map((t) => ({
      id: t.id,
      topic_id: t.topicId,
      name: t.name,
      icon: t.icon,
      passive: t.passive,
      points: t.points,
      certificate: certificateRef(t.newest, now, zone),
      next_questionnaire_id: nextQuestionnaire(t)?.id ?? null,
    })),
    // The certificates service adds the partner's (certificates/service.ts getUserProgress).
    partner_certificates: [],
  };
}
