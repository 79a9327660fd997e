import { type ErasureAnswer, ErrorCode, EXPORT_CATEGORIES, PRIVACY_PARTS, personName } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import type { Actor } from "../access/policy";
import { requireUser } from "../access/scope";
import { recordAudit } from "../audit/record";
import type { CertificateLook } from "../certificates/service";
import type { Db } from "../db/client";
import { preferences, users } from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { personKeys } from "./collect";
import { eraseAtOnce, erasePerson } from "./erasure";
import { personExport } from "./export";
import { hasTrainingRecord, lastCertificateExpiry, retentionPeriod } from "./retention";

/** What the privacy calls need of the app. */
export interface PrivacyDeps {
  db: Db;
  now: () => Date;
  look: CertificateLook;
  retentionYears: number;
}

const erased = () => new AppError(ErrorCode.conflict, "This person's data has already been erased");

/** Who the call is about: oneself, or a person in the staff member's scope (former employees too). */
async function target(db: Db, actor: Actor, userId: number | "self", action: "user.export" | "user.erasure") {
  const id = userId === "self" ? actor.id : userId;
  if (userId !== "self") await requireUser(db, actor, action, id, "any");
  const [row] = await db.select({ erasedAt: users.erasedAt }).from(users).where(eq(users.id, id));
  if (row?.erasedAt) throw erased();
  return id;
}

/**
 * A person's data export (the ZIP of privacy/export.ts). Recorded as `user.exported` in the
 * audit trail, also when people export their own data: the trail then shows that the request
 * of Art. 15 was answered, and when.
 */
export async function exportPerson(
  deps: PrivacyDeps,
  actor: Actor,
  userId: number | "self",
  onError: (err: unknown) => void,
) {
  const id = await target(deps.db, actor, userId, "user.export");
  const now = deps.now();
  const person = await personKeys(deps.db, id);
  if (!person) throw new AppError(ErrorCode.userNotFound, "User not found");
  const result = await personExport(deps.db, { person, look: deps.look, now }, onError);
  await runTransaction(deps.db, async (tx) => {
    const [row] = await tx.select({ facilityId: users.facilityId }).from(users).where(eq(users.id, id));
    await recordAudit(
      tx,
      {
        kind: "user.exported",
        actor,
        facilityId: row?.facilityId ?? null,
        subjectId: id,
        data: { by: id === actor.id ? "self" : "staff" },
        personal: { subject: personName(person) },
      },
      now,
    );
  });
  return result;
}

/**
 * An erasure request (GDPR Art. 17), by the person or by staff on their behalf. A former
 * employee with nothing to keep (no training record, or a retention that has ended) is erased
 * at once (erasePerson). Otherwise what proves nothing goes now (the registry's `atOnce` rows),
 * and the answer says what stays, on which ground and until when. One transaction, with the
 * `user.erasure_requested` entry (and `user.erased` where the person went).
 */
export async function requestErasure(deps: PrivacyDeps, actor: Actor, userId: number | "self"): Promise<ErasureAnswer> {
  const id = await target(deps.db, actor, userId, "user.erasure");
  const now = deps.now();
  const years = deps.retentionYears;
  return runTransaction(deps.db, async (tx) => {
    const [row] = await tx
      .select({ facilityId: users.facilityId, archivedAt: users.archivedAt, erasedAt: users.erasedAt })
      .from(users)
      .where(eq(users.id, id));
    const person = await personKeys(tx, id);
    if (!row || !person) throw new AppError(ErrorCode.userNotFound, "User not found");
    if (row.erasedAt) throw erased();
    const record = await hasTrainingRecord(tx, id);
    const period = row.archivedAt
      ? retentionPeriod(row.archivedAt, await lastCertificateExpiry(tx, id), years, deps.look.zone)
      : null;
    const eraseNow = period !== null && (!record || now >= period.ends);
    const audit = (answer: ErasureAnswer) =>
      recordAudit(
        tx,
        {
          kind: "user.erasure_requested",
          actor,
          facilityId: row.facilityId,
          subjectId: id,
          data: {
            by: id === actor.id ? "self" : "staff",
            outcome: answer.outcome,
            erased: answer.erased,
            kept_until: answer.kept_until,
          },
          personal: { subject: personName(person) },
        },
        now,
      );
    if (eraseNow) {
      const answer: ErasureAnswer = {
        user_id: id,
        outcome: "erased",
        erased: [...PRIVACY_PARTS],
        kept: [],
        grounds: [],
        kept_until: null,
        retention_years: years,
      };
      await audit(answer);
      await erasePerson(tx, id, now, { reason: "request", actor });
      return answer;
    }
    const gone = await eraseAtOnce(tx, id);
    // Someone still working there keeps using the app: their preferences start again from the defaults.
    if (!row.archivedAt) await tx.insert(preferences).values({ userId: id }).onConflictDoNothing();
    const answer: ErasureAnswer = {
      user_id: id,
      outcome: "partial",
      erased: gone,
      kept: EXPORT_CATEGORIES.filter((c) => !gone.includes(c)),
      grounds: [...(record ? (["training-record"] as const) : []), ...(period ? [] : (["employment"] as const))],
      kept_until: period?.lastDay ?? null,
      retention_years: years,
    };
    await audit(answer);
    return answer;
  });
}
