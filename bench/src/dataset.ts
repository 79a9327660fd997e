import { loginKey } from "@carecampus/contract";
import type { Db } from "../../apps/server/src/db/client";
import { facilities, preferences, userRoles, users } from "../../apps/server/src/db/schema";
import { hashPassword } from "../../apps/server/src/security/passwords";

export const BENCH_PASSWORD = "Bench-1234!";

export interface Dataset {
  facilities: number;
  users: number;
  /** A login and id to drive the per-user endpoints. */
  sample: { login: string; id: number };
  /** Employees' logins, for the quiz load. */
  employees: string[];
  /** A superuser (for the CSV import) and the facilities' names. */
  superuser: string;
  facilityNames: string[];
}

/** Facilities with staff: one administrator and one supervisor each, the rest employees. */
export async function generateDataset(db: Db, facilityCount: number, usersPerFacility: number): Promise<Dataset> {
  const hash = await hashPassword(BENCH_PASSWORD);
  const facilityRows = await db
    .insert(facilities)
    .values(Array.from({ length: facilityCount }, (_, i) => ({ name: `Bench-Haus ${i + 1}` })))
    .returning({ id: facilities.id, name: facilities.name });
  const superuser = "bench-superchris";
  const [su] = await db
    .insert(users)
    .values({
      login: superuser,
      loginKey: loginKey(superuser),
      name: "Bench",
      surname: "Superuser",
      passwordHash: hash,
    })
    .returning({ id: users.id });
  await db.insert(userRoles).values({ userId: su?.id as number, role: "superchris" });
  let total = 0;
  let sample: Dataset["sample"] | undefined;
  const employees: string[] = [];
  for (const [f, facility] of facilityRows.entries()) {
    const rows = Array.from({ length: usersPerFacility }, (_, i) => ({
      login: `bench-${f + 1}-${i + 1}`,
      loginKey: `bench-${f + 1}-${i + 1}`,
      name: `Vorname${i + 1}`,
      surname: `Nachname${f + 1}`,
      facilityId: facility.id,
      passwordHash: hash,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await db.transaction(async (tx) => {
        const chunk = rows.slice(start, start + 500);
        const inserted = await tx.insert(users).values(chunk).returning({ id: users.id, login: users.login });
        await tx.insert(userRoles).values(
          inserted.map((u, i) => ({
            userId: u.id,
            role: start + i === 0 ? "administrator" : start + i === 1 ? "supervisor" : "employee",
          })),
        );
        await tx.insert(preferences).values(inserted.map((u) => ({ userId: u.id })));
        sample ??= inserted[2] ?? inserted[0];
        for (const [i, u] of inserted.entries()) if (start + i >= 2 && employees.length < 400) employees.push(u.login);
      });
    }
    total += rows.length;
  }
  if (!sample) throw new Error("empty dataset");
  return {
    facilities: facilityCount,
    users: total,
    sample,
    employees,
    superuser,
    facilityNames: facilityRows.map((f) => f.name),
  };
}
