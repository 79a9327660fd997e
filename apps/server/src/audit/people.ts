import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { users } from "../db/schema";

/** The person an entry is about: their facility (what an administrator's view filters by) and name (kept in `personal`). */
export interface AuditSubject {
  subjectId: number;
  facilityId: number | null;
  personal: { subject: string };
}

/** Reads the subject of an entry inside the change's transaction; undefined for an unknown id. */
export async function auditSubject(tx: Db | Tx, userId: number): Promise<AuditSubject | undefined> {
  const [row] = await tx
    .select({ facilityId: users.facilityId, name: users.name, surname: users.surname })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return undefined;
  return {
    subjectId: userId,
    facilityId: row.facilityId,
    personal: { subject: `${row.name} ${row.surname}`.trim() },
  };
}
