import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../../test/helpers";
import type { Actor } from "../access/policy";
import { auditLog } from "../db/schema";
import { canonicalJson, forgetPersonInAudit, GENESIS_HASH, recordAudit, verifyAuditChain } from "./record";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const admin: Actor = {
  id: 7,
  login: "anna",
  name: "Anna",
  surname: "Berg",
  roles: ["administrator", "supervisor"],
  facilityId: 1,
  language: "de",
};

async function append(n: number, start = 0) {
  const { db } = ctx.deps.database;
  for (let i = start; i < start + n; i++) {
    await db.transaction((tx) =>
      recordAudit(
        tx,
        {
          kind: "user.updated",
          actor: admin,
          facilityId: 1,
          subjectId: 100 + i,
          data: { fields: ["surname"], at: new Date(Date.UTC(2026, 0, 1 + i)), nested: { b: 2, a: 1 } },
          personal: { subject: `Person ${i}` },
        },
        new Date(Date.UTC(2026, 10, 28, 6, 0, i, 123)),
      ),
    );
  }
}

/** Tampering as someone with the database's owner rights would: past the append-only trigger. */
async function tamper(statement: ReturnType<typeof sql>) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table "audit_log" disable trigger "audit_log_append_only"`);
    await tx.execute(statement);
    await tx.execute(sql`alter table "audit_log" enable trigger "audit_log_append_only"`);
  });
}

describe("audit chain", () => {
  it("canonical JSON sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"z":1}]},"b":1}',
    );
  });

  it("chains entries, records the actor's strongest role and name outside the hash, and verifies", async () => {
    expect(await verifyAuditChain(ctx.deps.database.db)).toEqual({ intact: true, entries: 0, firstBroken: null });
    await append(5);
    const rows = await ctx.deps.database.db.select().from(auditLog).orderBy(auditLog.id);
    expect(rows).toHaveLength(5);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[0]).toMatchObject({
      actorRole: "administrator",
      personal: { actor: "Anna Berg", subject: "Person 0" },
    });
    expect(await verifyAuditChain(ctx.deps.database.db)).toEqual({ intact: true, entries: 5, firstBroken: null });
  });

  it("a rolled-back change writes no entry", async () => {
    const { db } = ctx.deps.database;
    const before = await db.$count(auditLog);
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, { kind: "user.archived", actor: admin, subjectId: 1 }, new Date());
        throw new Error("the change fails");
      }),
    ).rejects.toThrow("the change fails");
    expect(await db.$count(auditLog)).toBe(before);
  });

  it("the database refuses to change the hashed part or delete an entry; the personal part may be emptied", async () => {
    const { db } = ctx.deps.database;
    const [first] = await db.select().from(auditLog).orderBy(auditLog.id).limit(1);
    await expect(
      db.execute(sql`update "audit_log" set "kind" = 'user.created' where "id" = ${first?.id}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from "audit_log" where "id" = ${first?.id}`)).rejects.toThrow();
    await db.transaction((tx) => forgetPersonInAudit(tx, 7));
    const [after] = await db.select().from(auditLog).orderBy(auditLog.id).limit(1);
    expect(after?.personal).toEqual({ subject: "Person 0" });
    expect((await verifyAuditChain(db)).intact).toBe(true);
  });

  it("finds a changed entry and a deleted entry in the middle", async () => {
    const { db } = ctx.deps.database;
    await append(3, 5);
    const ids = (await db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id)).map((r) => r.id);
    const third = ids[2] as number;
    await tamper(sql`update "audit_log" set "data" = '{"fields":["roles"]}' where "id" = ${third}`);
    expect(await verifyAuditChain(db)).toEqual({ intact: false, entries: 8, firstBroken: third });
    await tamper(sql`delete from "audit_log" where "id" = ${third}`);
    // The entry after the gap no longer links to its predecessor.
    expect(await verifyAuditChain(db)).toEqual({ intact: false, entries: 7, firstBroken: ids[3] });
  });
});
