import {
  ErrorCode,
  type EvidencePerson,
  type EvidenceReport,
  type EvidenceTraining,
  isoDay,
  startOfDay,
  startOfDayAfter,
} from "@carecampus/contract";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope, notFound } from "../access/policy";
import { type Db, selectRows } from "../db/client";
import { facilities, topics, trainings } from "../db/schema";
import { AppError } from "../errors";
import { evidenceFileName, renderEvidencePdf, renderEvidenceXlsx, textsOf } from "./files";

/*
 * The facility's evidence at a date (issue 29). "On the day D" means at the end of D in the
 * configured time zone (the first instant of D + 1, exclusive):
 * - required: employees whose period of the training matrix history (assignments/history.ts)
 *   covers that instant, in this facility, with the training in their period's trainings (null:
 *   every training) — people archived since included, people created after D not;
 * - held: a certificate acquired on or before D that expires after D and was never revoked
 *   (a revocation says it should not have been issued, so it proves nothing at any date).
 * Before the history's first day, who had to hold what is each person's first period projected
 * back to their creation: `projected` says so.
 */

export interface EvidenceInput {
  facility?: number | undefined;
  date?: string | undefined;
  trainings?: number[] | undefined;
  topics?: number[] | undefined;
}

const ids = (list: readonly number[]) =>
  sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  );

/** A day YYYY-MM-DD that exists, not after today: the instant its end is (the next day's start). */
function endOfDay(day: string, now: Date, zone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new AppError(ErrorCode.validation, "date: must be a day YYYY-MM-DD");
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    throw new AppError(ErrorCode.validation, "date: not a calendar day");
  }
  if (day > isoDay(now, zone)) throw new AppError(ErrorCode.validation, "date: must not lie in the future");
  return startOfDayAfter(startOfDay(zone, y, m, d), 1, zone);
}

/** The facility asked for, within the actor's scope (another one is unknown: 1003). */
async function evidenceFacility(db: Db, actor: Actor, facilityId: number | undefined) {
  assertMay(actor, "evidence.read");
  const scope = facilityScope(actor);
  const id = facilityId ?? (typeof scope === "number" ? scope : undefined);
  if (id === undefined) throw new AppError(ErrorCode.validation, "facility: required");
  const [row] = await db
    .select({ id: facilities.id, name: facilities.name })
    .from(facilities)
    .where(eq(facilities.id, id));
  if (!row) throw notFound("evidence.read");
  assertMay(actor, "evidence.read", { facilityId: row.id });
  return row;
}

/** The current trainings chosen (all when no filter), in the order of the catalogue. */
async function chosenTrainings(db: Db, input: EvidenceInput) {
  const current = and(eq(trainings.retired, false), eq(topics.retired, false));
  const columns = {
    id: trainings.id,
    name: trainings.name,
    topicId: topics.id,
    topicName: topics.name,
    position: topics.position,
  };
  if (input.topics?.length) {
    const known = await db
      .select({ id: topics.id })
      .from(topics)
      .where(and(eq(topics.retired, false), inArray(topics.id, input.topics)));
    if (known.length !== input.topics.length) throw new AppError(ErrorCode.notFound, "Topic not found");
  }
  if (input.trainings?.length) {
    const known = await db
      .select({ id: trainings.id })
      .from(trainings)
      .innerJoin(topics, eq(topics.id, trainings.topicId))
      .where(and(current, inArray(trainings.id, input.trainings)));
    if (known.length !== input.trainings.length) throw new AppError(ErrorCode.trainingNotFound, "Training not found");
  }
  const filters = [
    input.trainings?.length ? inArray(trainings.id, input.trainings) : undefined,
    input.topics?.length ? inArray(topics.id, input.topics) : undefined,
  ].filter((f) => f !== undefined);
  const list = await db
    .select(columns)
    .from(trainings)
    .innerJoin(topics, eq(topics.id, trainings.topicId))
    .where(and(current, filters.length > 0 ? or(...filters) : undefined))
    .orderBy(asc(topics.position), asc(topics.id));
  const collator = new Intl.Collator("de", { numeric: true, sensitivity: "base" });
  return list.sort((a, b) => a.position - b.position || a.topicId - b.topicId || collator.compare(a.name, b.name));
}

/** GET /evidence: the evidence of a facility at a day, as JSON (and the files' source). */
export async function loadEvidence(
  db: Db,
  actor: Actor,
  input: EvidenceInput,
  now: Date,
  zone: string,
): Promise<EvidenceReport> {
  const facility = await evidenceFacility(db, actor, input.facility);
  const day = input.date ?? isoDay(now, zone);
  const at = endOfDay(day, now, zone);
  const chosen = await chosenTrainings(db, input);
  const [first] = await selectRows<{ from: string | Date | null }>(
    db,
    sql`select min("valid_from") as "from" from "training_matrix_history"`,
  );
  const exactFrom = first?.from ? new Date(first.from) : null;
  const atIso = at.toISOString();
  // Periods covering the instant; the history's first rows (the backfill at its start) stand for
  // the time before it, back to the person's creation.
  const members =
    chosen.length === 0
      ? []
      : await selectRows<{ id: number; name: string; surname: string; trainings: number[] | null; former: boolean }>(
          db,
          sql`select u."id", u."name", u."surname", h."trainings", u."archived_at" is not null as former
              from "training_matrix_history" h join "users" u on u."id" = h."user_id"
              where h."facility_id" = ${facility.id}
                and exists (select 1 from "user_roles" ur where ur."user_id" = u."id" and ur."role" = 'employee')
                and (h."valid_to" is null or h."valid_to" >= ${atIso}::timestamptz)
                and (h."valid_from" < ${atIso}::timestamptz
                  or (h."valid_from" = (select min(f."valid_from") from "training_matrix_history" f)
                      and u."created_at" < ${atIso}::timestamptz))`,
        );
  const collator = new Intl.Collator("de", { numeric: true, sensitivity: "base" });
  members.sort((a, b) => collator.compare(a.surname, b.surname) || collator.compare(a.name, b.name) || a.id - b.id);
  const trainingIds = chosen.map((t) => t.id);
  const certs =
    members.length === 0
      ? []
      : await selectRows<{
          user_id: number;
          training_id: number;
          code: string;
          acquired_at: string | Date;
          expires_at: string | Date;
        }>(
          db,
          sql`select distinct on (c."user_id", c."training_id") c."user_id", c."training_id",
                c."verification_code" as code, c."acquired_at", c."expires_at"
              from "certificates" c
              where c."user_id" in (${ids(members.map((m) => m.id))}) and c."training_id" in (${ids(trainingIds)})
                and c."acquired_at" < ${atIso}::timestamptz and c."expires_at" >= ${atIso}::timestamptz
                and c."revoked_at" is null
              order by c."user_id", c."training_id", c."acquired_at" desc, c."id" desc`,
        );
  const held = new Map(certs.map((c) => [`${c.user_id}:${c.training_id}`, c]));
  const out: EvidenceTraining[] = chosen.map((t) => {
    const people: EvidencePerson[] = members
      .filter((m) => m.trainings === null || m.trainings.includes(t.id))
      .map((m) => {
        const c = held.get(`${m.id}:${t.id}`);
        return {
          id: m.id,
          name: m.name,
          surname: m.surname,
          former: Boolean(m.former),
          certificate: c
            ? {
                code: c.code,
                acquired_at: new Date(c.acquired_at).toISOString(),
                expires_at: new Date(c.expires_at).toISOString(),
              }
            : null,
        };
      });
    const heldCount = people.filter((p) => p.certificate !== null).length;
    return {
      id: t.id,
      name: t.name,
      topic: { id: t.topicId, name: t.topicName },
      required: people.length,
      held: heldCount,
      rate: people.length === 0 ? null : heldCount / people.length,
      people,
    };
  });
  return {
    facility,
    date: day,
    generated_at: now.toISOString(),
    exact_from: exactFrom ? isoDay(exactFrom, zone) : null,
    projected: exactFrom === null || at <= exactFrom,
    trainings: out,
  };
}

/** GET /evidence?format=pdf|xlsx: the same answer as a file, in the caller's language. */
export async function evidenceFile(
  db: Db,
  actor: Actor,
  input: EvidenceInput & { format: "pdf" | "xlsx" },
  look: { now: Date; zone: string; installation: string },
): Promise<{ body: Buffer; type: string; filename: string }> {
  const report = await loadEvidence(db, actor, input, look.now, look.zone);
  const fileLook = { language: actor.language, zone: look.zone, installation: look.installation };
  const filename = evidenceFileName(report, textsOf(actor.language), input.format);
  if (input.format === "pdf") {
    return { body: Buffer.from(await renderEvidencePdf(report, fileLook)), type: "application/pdf", filename };
  }
  return {
    body: await renderEvidenceXlsx(report, fileLook),
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    filename,
  };
}
