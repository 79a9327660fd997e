import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";

/*
 * The training matrix as it was (issue 29, the evidence at a date). Every change of who must
 * hold which training — a matrix saved, a facility changed, a person created, imported,
 * archived, restored or erased — calls recordMatrixPeriods in the change's transaction: a
 * person whose facility or trainings now differ from their open period gets it closed
 * (valid_to = now) and, while a current member, a new one opened. Nothing changes for a person
 * whose period still holds, so calling it twice is harmless.
 */

/** Ids per statement: far below the parameter limit of either driver. */
const CHUNK = 1000;

/**
 * Brings the history of `userIds` up to their present state at `now`, in the caller's
 * transaction. `trainings` is null for a person without a matrix of their own (every training).
 */
export async function recordMatrixPeriods(tx: Db | Tx, userIds: readonly number[], now: Date): Promise<void> {
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const ids = sql.join(
      unique.slice(i, i + CHUNK).map((id) => sql`${id}`),
      sql`, `,
    );
    const at = now.toISOString();
    const present = sql`select u."id" as user_id, u."facility_id",
        case when exists (select 1 from "training_matrices" m where m."user_id" = u."id")
          then array(select e."training_id" from "training_matrix_entries" e where e."user_id" = u."id" order by 1)::int[]
        end as trainings,
        u."archived_at" is null as member
      from "users" u where u."id" in (${ids})`;
    // A period opened at this very instant (or, with a clock set back, later) and changed again
    // held for no time: it goes instead of closing with a zero or negative length.
    await tx.execute(sql`delete from "training_matrix_history" h using (${present}) p
      where h."user_id" = p.user_id and h."valid_to" is null and h."valid_from" >= ${at}::timestamptz
        and (not p.member or h."facility_id" is distinct from p."facility_id" or h."trainings" is distinct from p.trainings)`);
    await tx.execute(sql`update "training_matrix_history" h set "valid_to" = ${at}::timestamptz from (${present}) p
      where h."user_id" = p.user_id and h."valid_to" is null
        and (not p.member or h."facility_id" is distinct from p."facility_id" or h."trainings" is distinct from p.trainings)`);
    await tx.execute(sql`insert into "training_matrix_history" ("user_id", "facility_id", "trainings", "valid_from")
      select p.user_id, p."facility_id", p.trainings, ${at}::timestamptz from (${present}) p
      where p.member and not exists (select 1 from "training_matrix_history" h
        where h."user_id" = p.user_id and h."valid_to" is null)`);
  }
}
