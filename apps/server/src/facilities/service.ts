import { ErrorCode, type NamedItem } from "@carecampus/contract";
import { asc, eq, sql } from "drizzle-orm";
import { type Actor, assertMay, facilityScope } from "../access/policy";
import { recordAudit } from "../audit/record";
import type { Db } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { activities, facilities, qualifications } from "../db/schema";
import { AppError } from "../errors";

/** Facilities the actor may assign: all for superchris/contentmanager, the own one for administrators. */
export async function listFacilities(db: Db, actor: Actor): Promise<NamedItem[]> {
  assertMay(actor, "facilities.list");
  const query = db.select({ id: facilities.id, name: facilities.name }).from(facilities);
  const scope = facilityScope(actor);
  if (scope === "all") return query.orderBy(asc(facilities.name));
  if (scope === null) return [];
  return query.where(eq(facilities.id, scope));
}

/** Creates a facility (contentmanager, superchris); names are unique case-insensitively. */
export async function createFacility(
  db: Db,
  actor: Actor,
  name: string,
  max: number | undefined,
  now: Date,
): Promise<NamedItem> {
  assertMay(actor, "facilities.create");
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, "facilities");
    if (max !== undefined) {
      const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(facilities);
      if ((row?.n ?? 0) >= max)
        throw new AppError(ErrorCode.maxFacilitiesReached, "Maximum number of facilities reached");
    }
    const existing = await tx
      .select({ id: facilities.id })
      .from(facilities)
      .where(eq(sql`lower(${facilities.name})`, name.toLowerCase()));
    if (existing.length > 0) throw new AppError(ErrorCode.conflict, "A facility with this name exists");
    const [row] = await tx.insert(facilities).values({ name }).returning({ id: facilities.id, name: facilities.name });
    const created = row as NamedItem;
    await recordAudit(
      tx,
      { kind: "facility.created", actor, facilityId: created.id, data: { facility: created.id, name: created.name } },
      now,
    );
    return created;
  });
}

export function listQualifications(db: Db): Promise<NamedItem[]> {
  return db
    .select({ id: qualifications.id, name: qualifications.name })
    .from(qualifications)
    .orderBy(asc(qualifications.name));
}

export function listActivities(db: Db): Promise<NamedItem[]> {
  return db.select({ id: activities.id, name: activities.name }).from(activities).orderBy(asc(activities.name));
}
