import {
  ErrorCode,
  type NameTranslationKind,
  type NameTranslations,
  type NameTranslationWrite,
  type TrainingNameTranslations,
  type TranslationStatus,
} from "@carecampus/contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import { type Actor, assertMay, decide, mayEditQuestionnaire, ownedBy } from "../access/policy";
import { recordAudit } from "../audit/record";
import { nameHash, storeNameTranslation } from "../content/translations";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { nameTranslations, questionnaires, topics, trainings } from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { DbClock } from "../deps";
import { AppError } from "../errors";
import { assertEdit, loadQuestionnaire } from "./service";
import { assertContentLanguage } from "./translations";

/*
 * The translated names of what learners choose from (issue 31): a training's topic, the training
 * and its questionnaires, each beside its German name (binding), with a status and the hash of
 * the German name it translates. Topics and trainings are common content (Super-Admins write
 * their translations); a questionnaire's, whoever may edit the questionnaire. Learners see a name
 * in their language only when it is published and current (learning/content-cache.ts).
 */

/** An item whose name can be translated, as the German has it. */
export interface NameSource {
  kind: NameTranslationKind;
  id: number;
  name: string;
  /** A questionnaire's facility (null: common content; topics and trainings always null). */
  facilityId: number | null;
  editable: boolean;
}

export type NameRow = typeof nameTranslations.$inferSelect;

const trainingNotFound = () => new AppError(ErrorCode.trainingNotFound, "Training not found");

/** The live training with its live topic; 404 (trainingNotFound) otherwise. */
async function liveTraining(db: Db | Tx, id: number) {
  const [row] = await db
    .select({ id: trainings.id, name: trainings.name, topicId: topics.id, topicName: topics.name })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.id, id), eq(trainings.retired, false), eq(topics.retired, false)));
  if (!row) throw trainingNotFound();
  return row;
}

/**
 * The names a training's learners see, in the order they meet them: its topic's, its own, then
 * its live questionnaires the actor may read (in authoring). `editable`: the actor may translate it.
 */
export async function trainingNameSources(db: Db | Tx, actor: Actor, trainingId: number): Promise<NameSource[]> {
  assertMay(actor, "authoring.read");
  const t = await liveTraining(db, trainingId);
  const common = decide(actor, "authoring.editCommon") === "allow";
  const qns = await db
    .select({ id: questionnaires.id, name: questionnaires.name, facilityId: questionnaires.facilityId })
    .from(questionnaires)
    .where(and(eq(questionnaires.trainingId, trainingId), eq(questionnaires.retired, false)))
    .orderBy(asc(questionnaires.position), asc(questionnaires.id));
  return [
    { kind: "topic", id: t.topicId, name: t.topicName, facilityId: null, editable: common },
    { kind: "training", id: t.id, name: t.name, facilityId: null, editable: common },
    ...qns
      .filter((q) => decide(actor, "authoring.read", ownedBy(q.facilityId)) === "allow")
      .map((q) => ({
        kind: "questionnaire" as const,
        id: q.id,
        name: q.name,
        facilityId: q.facilityId,
        editable: mayEditQuestionnaire(actor, q.facilityId),
      })),
  ];
}

/** The stored translations of these items, in every language or in one. */
export async function nameRows(db: Db | Tx, items: readonly NameSource[], lang?: string): Promise<NameRow[]> {
  const out: NameRow[] = [];
  for (const kind of ["topic", "training", "questionnaire"] as const) {
    const ids = items.filter((i) => i.kind === kind).map((i) => i.id);
    if (ids.length === 0) continue;
    out.push(
      ...(await db
        .select()
        .from(nameTranslations)
        .where(
          and(
            eq(nameTranslations.kind, kind),
            inArray(nameTranslations.itemId, ids),
            lang === undefined ? undefined : eq(nameTranslations.lang, lang),
          ),
        )
        .orderBy(asc(nameTranslations.lang))),
    );
  }
  return out;
}

function nameTranslationsOf(item: NameSource, rows: readonly NameRow[]): NameTranslations {
  const hash = nameHash(item.name);
  return {
    kind: item.kind,
    id: item.id,
    name: item.name,
    editable: item.editable,
    translations: rows
      .filter((r) => r.kind === item.kind && r.itemId === item.id)
      .map((r) => ({
        lang: r.lang,
        name: r.name,
        status: r.status as TranslationStatus,
        outdated: r.sourceHash !== hash,
        updated_at: r.updatedAt.toISOString(),
      })),
  };
}

/** GET /authoring/trainings/{id}/names. */
export async function trainingNames(
  db: Db,
  actor: Actor,
  trainingId: number,
  contentLanguages: string[],
): Promise<TrainingNameTranslations> {
  const items = await trainingNameSources(db, actor, trainingId);
  const rows = await nameRows(db, items);
  return {
    training_id: trainingId,
    content_languages: contentLanguages,
    items: items.map((i) => nameTranslationsOf(i, rows)),
  };
}

/**
 * The item a name translation is written for, locked against a rename meanwhile (its German name
 * is what the translation translates); 403 when the actor may not edit it, 404 when it is not live
 * or not in the actor's scope.
 */
async function itemForEdit(tx: Tx, actor: Actor, kind: NameTranslationKind, id: number): Promise<NameSource> {
  if (kind === "questionnaire") {
    // The same lock as every save of the questionnaire (authoring/service.ts writeOn).
    await lockForTransaction(tx, "authoringQuestionnaire", id);
    const q = await loadQuestionnaire(tx, id);
    assertEdit(actor, q);
    return { kind, id, name: q.name, facilityId: q.facilityId, editable: true };
  }
  assertMay(actor, "authoring.editCommon");
  if (kind === "topic") {
    const [row] = await tx
      .select({ name: topics.name })
      .from(topics)
      .where(and(eq(topics.id, id), eq(topics.retired, false)))
      .for("share");
    if (!row) throw new AppError(ErrorCode.notFound, "Topic not found");
    return { kind, id, name: row.name, facilityId: null, editable: true };
  }
  const [row] = await tx
    .select({ name: trainings.name })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(eq(trainings.id, id), eq(trainings.retired, false), eq(topics.retired, false)))
    .for("share", { of: trainings });
  if (!row) throw trainingNotFound();
  return { kind, id, name: row.name, facilityId: null, editable: true };
}

/** Holds the training's and its topic's rows against a rename until the transaction ends. */
export async function lockCommonNames(tx: Tx, trainingId: number): Promise<void> {
  await tx
    .select({ id: trainings.id })
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(eq(trainings.id, trainingId))
    .for("share");
}

/** A person's write of a name's translation, with its audit entry (in the item's facility); `data`: more to record. */
export async function writeNameTranslation(
  tx: Tx,
  actor: Actor,
  item: Pick<NameSource, "kind" | "id" | "name" | "facilityId">,
  lang: string,
  body: NameTranslationWrite,
  now: Date,
  data: Record<string, unknown> = {},
): Promise<void> {
  await storeNameTranslation(tx, item, lang, { ...body, updatedAt: now, updatedBy: actor.id });
  await recordAudit(
    tx,
    {
      kind: "content.updated",
      actor,
      facilityId: item.facilityId,
      data: { item: `${item.kind}-name-translation`, id: item.id, lang, status: body.status, ...data },
    },
    now,
  );
}

/** PUT /authoring/names/{kind}/{id}/translations/{lang}. */
export async function saveNameTranslation(
  clock: DbClock,
  actor: Actor,
  params: { kind: NameTranslationKind; id: number; lang: string },
  body: NameTranslationWrite,
  contentLanguages: string[],
): Promise<NameTranslations> {
  const { kind, id, lang } = params;
  assertContentLanguage(lang, contentLanguages);
  return runTransaction(clock.db, async (tx) => {
    const item = await itemForEdit(tx, actor, kind, id);
    await writeNameTranslation(tx, actor, item, lang, { name: body.name.trim(), status: body.status }, clock.now());
    return nameTranslationsOf(item, await nameRows(tx, [item]));
  });
}
