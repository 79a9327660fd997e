import {
  checkImportRows,
  ErrorCode,
  type ImportDeletedUser,
  type ImportProblem,
  type ImportResult,
  type ImportRow,
  importKey,
  loginKey,
  type Role,
} from "@carecampus/contract";
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Actor, assertMay } from "../access/policy";
import { currentMember } from "../access/scope";
import { recordMatrixPeriods } from "../assignments/history";
import { recordAudit } from "../audit/record";
import { type Db, runAll, type Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import {
  activities,
  facilities,
  preferences,
  qualifications,
  userActivities,
  userQualifications,
  userRoles,
  users,
} from "../db/schema";
import { runTransaction } from "../db/transaction";
import type { UserWriteDeps } from "../deps";
import { AppError } from "../errors";
import { hashPassword } from "../security/passwords";
import { archivePeople, assertRoomFor } from "./archive";

/** Rows per INSERT: well under PostgreSQL's 65 535 bind parameters for every table written. */
const CHUNK = 1000;
/**
 * argon2 hashes at once. @node-rs/argon2 runs each on a libuv worker thread; two leave the
 * other pool threads (and so logins, file reads) free while thousands of passwords are hashed.
 */
const HASH_CONCURRENCY = 2;

interface ExistingUser {
  id: number;
  key: string;
  name: string;
  surname: string;
  facilityId: number | null;
  roles: Role[];
  activities: number[];
  qualifications: number[];
  /** Archived (issue 28). */
  former: boolean;
}

interface Lookup {
  facilities: Map<string, number>;
  activities: Map<string, number>;
  qualifications: Map<string, number>;
}

type Action =
  | { kind: "create"; row: number; values: ResolvedRow }
  | { kind: "update"; row: number; id: number; values: ResolvedRow }
  | { kind: "unchanged"; row: number };

interface ResolvedRow {
  surname: string;
  name: string;
  login: string;
  facilityId: number;
  activityIds: number[];
  qualificationIds: number[];
}

interface Plan {
  actions: Action[];
  /** The employees the file leaves out; null when the import deletes nobody (no deleteMissing). */
  deletions: ImportDeletedUser[] | null;
}

const byName = new Intl.Collator("de", { sensitivity: "base", numeric: true });
const isEmployeeOnly = (roles: readonly Role[]) => roles.length === 1 && roles[0] === "employee";
const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x));

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

async function loadLookup(db: Db | Tx): Promise<Lookup> {
  const byName = (rows: { id: number; name: string }[]) => new Map(rows.map((r) => [importKey(r.name), r.id]));
  // runAll: in parallel on the pool, one after another inside the import's transaction.
  const [f, a, q] = await runAll(db, [
    () => db.select({ id: facilities.id, name: facilities.name }).from(facilities),
    () => db.select({ id: activities.id, name: activities.name }).from(activities),
    () => db.select({ id: qualifications.id, name: qualifications.name }).from(qualifications),
  ] as const);
  return { facilities: byName(f), activities: byName(a), qualifications: byName(q) };
}

/**
 * The users the file's logins already name, matched on the stored login key (one
 * normalisation in JavaScript, never the database's locale-dependent lower()); the answer is
 * keyed by `loginKey` of the file's logins.
 */
async function loadExisting(db: Db | Tx, logins: string[]): Promise<Map<string, ExistingUser>> {
  const found = new Map<string, ExistingUser>();
  for (const part of chunks(logins)) {
    const list = sql.join(
      part.map((l) => sql`${loginKey(l)}`),
      sql`, `,
    );
    const rows = await db
      .select({
        fileLogin: sql<string>`f.login`,
        id: users.id,
        name: users.name,
        surname: users.surname,
        facilityId: users.facilityId,
        former: sql<boolean>`${users.archivedAt} is not null`,
        roles: sql<Role[] | null>`(select array_agg(ur."role") from "user_roles" ur where ur."user_id" = "users"."id")`,
        activities: sql<
          number[] | null
        >`(select array_agg(ua."activity_id") from "user_activities" ua where ua."user_id" = "users"."id")`,
        qualifications: sql<
          number[] | null
        >`(select array_agg(uq."qualification_id") from "user_qualifications" uq where uq."user_id" = "users"."id")`,
      })
      .from(users)
      .innerJoin(sql`unnest(array[${list}]::text[]) as f(login)`, sql`${users.loginKey} = f.login`);
    for (const r of rows) {
      found.set(r.fileLogin, {
        ...r,
        former: Boolean(r.former),
        key: r.fileLogin,
        roles: r.roles ?? [],
        activities: r.activities ?? [],
        qualifications: r.qualifications ?? [],
      });
    }
  }
  return found;
}

/**
 * Decides what the import does, row by row, or lists every problem. Existing employees are
 * updated (and keep their password); a login held by staff or a former employee is refused. With
 * `deleteMissing`, the current employees of the facilities named in the file who are not in it
 * are archived (issue 28) — never the caller, never anyone holding a staff role.
 */
async function planImport(
  db: Db | Tx,
  actor: Actor,
  rows: readonly ImportRow[],
  deleteMissing: boolean,
): Promise<{ plan: Plan; problems: ImportProblem[] }> {
  const lookup = await loadLookup(db);
  const logins = [...new Set(rows.map((r) => r.login).filter((l) => l !== ""))];
  const existing = await loadExisting(db, logins);
  // A former employee's login stays taken: the file cannot update them while they are archived
  // (loginInUse below); they come back through restore, with their record.
  const employees = new Set(
    [...existing.values()].filter((u) => isEmployeeOnly(u.roles) && !u.former).map((u) => u.key),
  );
  const problems = checkImportRows(
    rows,
    {
      facilities: [...lookup.facilities.keys()],
      activities: [...lookup.activities.keys()],
      qualifications: [...lookup.qualifications.keys()],
    },
    employees,
  );
  rows.forEach((r, row) => {
    const key = loginKey(r.login);
    if (existing.has(key) && !employees.has(key))
      problems.push({ row, field: "login", code: "loginInUse", value: r.login });
  });
  if (problems.length > 0) {
    problems.sort((a, b) => a.row - b.row);
    return { plan: { actions: [], deletions: null }, problems };
  }

  const ids = (names: string[], map: Map<string, number>) =>
    [...new Set(names.map((n) => map.get(importKey(n)) as number))].sort((a, b) => a - b);
  const actions: Action[] = rows.map((r, row) => {
    const values: ResolvedRow = {
      surname: r.surname,
      name: r.name,
      login: r.login,
      facilityId: lookup.facilities.get(importKey(r.facility)) as number,
      activityIds: ids(r.activities, lookup.activities),
      qualificationIds: ids(r.qualifications, lookup.qualifications),
    };
    const current = existing.get(loginKey(r.login));
    if (!current) return { kind: "create", row, values };
    const same =
      current.name === values.name &&
      current.surname === values.surname &&
      current.facilityId === values.facilityId &&
      sameSet(current.activities, values.activityIds) &&
      sameSet(current.qualifications, values.qualificationIds);
    return same ? { kind: "unchanged", row } : { kind: "update", row, id: current.id, values };
  });

  let deletions: ImportDeletedUser[] | null = null;
  if (deleteMissing) {
    const facilityIds = rows.map((r) => lookup.facilities.get(importKey(r.facility)) as number);
    const candidates = await db
      .select({
        id: users.id,
        name: users.name,
        surname: users.surname,
        login: users.login,
        staff: sql<boolean>`exists (select 1 from "user_roles" ur where ur."user_id" = "users"."id" and ur."role" <> 'employee')`,
      })
      .from(users)
      .where(and(inArray(users.facilityId, [...new Set(facilityIds)]), currentMember));
    const inFile = new Set([...existing.values()].map((u) => u.id));
    // Sorted as a reader expects (Öztürk beside Ozturk, not after Zimmermann as in byte order).
    deletions = candidates
      .filter((c) => !c.staff && !inFile.has(c.id) && c.id !== actor.id)
      .map(({ id, name, surname, login }) => ({ id, name, surname, login }))
      .sort(
        (a, b) =>
          byName.compare(a.surname, b.surname) || byName.compare(a.name, b.name) || byName.compare(a.login, b.login),
      );
  }
  return { plan: { actions, deletions }, problems: [] };
}

function summary(plan: Plan): ImportResult {
  const count = (kind: Action["kind"]) => plan.actions.filter((a) => a.kind === kind).length;
  return {
    created: count("create"),
    updated: count("update"),
    unchanged: count("unchanged"),
    deleted: plan.deletions?.length ?? 0,
    ...(plan.deletions ? { deleted_users: plan.deletions } : {}),
  };
}

function refuse(problems: ImportProblem[]): never {
  const rowsWithProblems = new Set(problems.map((p) => p.row)).size;
  throw new AppError(ErrorCode.validation, `${rowsWithProblems} row(s) cannot be imported`, undefined, { problems });
}

/** Hashes with bounded concurrency, so the server keeps answering during a big import. */
async function hashAll(passwords: Map<number, string>): Promise<Map<number, string>> {
  const entries = [...passwords.entries()];
  const hashes = new Map<number, string>();
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [row, password] = entries[next++] as [number, string];
      hashes.set(row, await hashPassword(password));
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  return hashes;
}

async function writePlan(tx: Tx, actor: Actor, plan: Plan, hashes: Map<number, string>, now: Date): Promise<void> {
  const creates = plan.actions.filter((a) => a.kind === "create");
  for (const part of chunks(creates)) {
    const inserted = await tx
      .insert(users)
      .values(
        part.map((a) => ({
          login: a.values.login,
          loginKey: loginKey(a.values.login),
          name: a.values.name,
          surname: a.values.surname,
          facilityId: a.values.facilityId,
          passwordHash: hashes.get(a.row) as string,
          createdAt: now,
        })),
      )
      .returning({ id: users.id, login: users.login });
    const idOf = new Map(inserted.map((u) => [loginKey(u.login), u.id]));
    const withIds = part.map((a) => ({ id: idOf.get(loginKey(a.values.login)) as number, values: a.values }));
    await tx.insert(userRoles).values(withIds.map((u) => ({ userId: u.id, role: "employee" as const })));
    await tx.insert(preferences).values(withIds.map((u) => ({ userId: u.id })));
    await insertLists(tx, withIds);
    await recordMatrixPeriods(
      tx,
      withIds.map((u) => u.id),
      now,
    );
  }
  const updates = plan.actions.filter((a) => a.kind === "update");
  for (const a of updates) {
    await tx
      .update(users)
      .set({ name: a.values.name, surname: a.values.surname, facilityId: a.values.facilityId, updatedAt: now })
      .where(eq(users.id, a.id));
  }
  // A facility changed by the import is a new period of the matrix history (issue 29).
  await recordMatrixPeriods(
    tx,
    updates.map((a) => a.id),
    now,
  );
  for (const part of chunks(updates)) {
    const ids = part.map((a) => a.id);
    await tx.delete(userActivities).where(inArray(userActivities.userId, ids));
    await tx.delete(userQualifications).where(inArray(userQualifications.userId, ids));
    await insertLists(
      tx,
      part.map((a) => ({ id: a.id, values: a.values })),
    );
  }
  const leaving = (plan.deletions ?? []).map((u) => u.id);
  for (const part of chunks(leaving)) {
    // Guarded again by role inside the transaction: nobody with a staff role is ever archived.
    const staff = await tx
      .select({ id: userRoles.userId })
      .from(userRoles)
      .where(and(inArray(userRoles.userId, part), sql`${userRoles.role} <> 'employee'`));
    const held = new Set(staff.map((r) => r.id));
    await archivePeople(
      tx,
      actor,
      part.filter((id) => !held.has(id)),
      "import",
      now,
    );
  }
  const { created, updated, unchanged, deleted } = summary(plan);
  await recordAudit(
    tx,
    { kind: "users.imported", actor, data: { created, updated, unchanged, archived: deleted } },
    now,
  );
}

async function insertLists(tx: Tx, list: { id: number; values: ResolvedRow }[]): Promise<void> {
  const acts = list.flatMap((u) => u.values.activityIds.map((activityId) => ({ userId: u.id, activityId })));
  const quals = list.flatMap((u) =>
    u.values.qualificationIds.map((qualificationId) => ({ userId: u.id, qualificationId })),
  );
  for (const part of chunks(acts)) await tx.insert(userActivities).values(part);
  for (const part of chunks(quals)) await tx.insert(userQualifications).values(part);
}

export interface ImportOptions {
  deleteMissing: boolean;
  dryRun: boolean;
}

/**
 * POST /auth/admin/users with an array (spec §5 CSV import): all or nothing. Passwords are
 * hashed before the transaction opens, so the database is held only for the writes.
 */
export async function importUsers(
  deps: UserWriteDeps,
  actor: Actor,
  rows: ImportRow[],
  options: ImportOptions,
): Promise<ImportResult> {
  // Staff who are not superusers learn the import exists (403); employees get 1015 like any user list.
  assertMay(actor, "users.list");
  assertMay(actor, "users.import");
  const { db } = deps;
  const first = await planImport(db, actor, rows, options.deleteMissing);
  if (first.problems.length > 0) refuse(first.problems);
  await assertUserLimit(db, deps.maxUsers, first.plan);
  if (options.dryRun) return summary(first.plan);

  const passwords = new Map<number, string>();
  for (const a of first.plan.actions) if (a.kind === "create") passwords.set(a.row, rows[a.row]?.password ?? "");
  const hashes = await hashAll(passwords);
  const plan = await runTransaction(db, async (tx) => {
    // The same lock as single creations: logins and the user limit hold under concurrency.
    await lockForTransaction(tx, "users");
    // Planned again under the lock: another request may have changed users while we hashed.
    const again = await planImport(tx, actor, rows, options.deleteMissing);
    if (again.problems.length > 0) refuse(again.problems);
    await assertUserLimit(tx, deps.maxUsers, again.plan);
    const missing = again.plan.actions.filter((a) => a.kind === "create" && !hashes.has(a.row));
    for (const a of missing) hashes.set(a.row, await hashPassword(rows[a.row]?.password ?? ""));
    await writePlan(tx, actor, again.plan, hashes, deps.now());
    return again.plan;
  });
  return summary(plan);
}

/** The licence count after the import: the current members, those it creates, less those it archives. */
async function assertUserLimit(db: Db | Tx, max: number | undefined, plan: Plan): Promise<void> {
  const { created, deleted } = summary(plan);
  await assertRoomFor(db, max, created - deleted);
}
