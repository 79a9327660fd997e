import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { secondServerDatabase } from "../../test/second-server";
import { JOB_LOCKS } from "../jobs/catalogue";
import { advisoryKey, LOCK_NAMESPACES, type LockKind } from "./locks";

describe("the advisory lock registry", () => {
  it("gives every kind of lock a namespace of its own, each an int4", () => {
    const numbers = Object.values(LOCK_NAMESPACES);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of numbers) {
      expect(Number.isInteger(n)).toBe(true);
      expect(n).toBeGreaterThanOrEqual(-(2 ** 31));
      expect(n).toBeLessThan(2 ** 31);
    }
  });

  it("keys the same id of two kinds apart, and refuses an id that is not an int4", () => {
    const kinds = Object.keys(LOCK_NAMESPACES) as LockKind[];
    const keys = kinds.map((kind) => advisoryKey(kind, 42004));
    expect(new Set(keys.map((k) => `${k.namespace}:${k.id}`)).size).toBe(kinds.length);
    expect(() => advisoryKey("quiz", 2 ** 31)).toThrow(RangeError);
    expect(() => advisoryKey("quiz", 1.5)).toThrow(RangeError);
  });

  it("gives each background job its own lock in the jobs namespace", () => {
    const jobs = Object.values(JOB_LOCKS);
    expect(jobs.every((k) => k.namespace === LOCK_NAMESPACES.jobs)).toBe(true);
    expect(new Set(jobs.map((k) => k.id)).size).toBe(jobs.length);
  });
});

describe.skipIf(!onPostgres)("advisory locks on PostgreSQL", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it("a learner's quiz lock and another user's passive-mark lock no longer meet, whatever the ids", async () => {
    // The old keys: the quiz's (userId, questionnaireId) = (42004, 7) was the mark of user 7, (42004, 7).
    const second = await secondServerDatabase(ctx);
    const quiz = advisoryKey("quiz", 42004);
    const mark = advisoryKey("passiveMarks", 7);
    const release = await ctx.deps.database.tryAdvisoryLock(quiz);
    try {
      expect(release).not.toBeNull();
      const other = await second.database.tryAdvisoryLock(mark);
      expect(other).not.toBeNull();
      await other?.();
      // The same key from another session is refused: the lock is real.
      expect(await second.database.tryAdvisoryLock(quiz)).toBeNull();
    } finally {
      await release?.();
      await second.close();
    }
    // Held in the two-integer form: classid is the namespace, objid the id.
    const url = new URL(process.env.DATABASE_URL ?? "");
    const probe = new pg.Client({ connectionString: url.toString() });
    await probe.connect();
    try {
      await probe.query("begin");
      await probe.query("select pg_advisory_xact_lock($1, $2)", [quiz.namespace, quiz.id]);
      const { rows } = await probe.query<{ classid: number; objid: number; objsubid: number }>(
        "select classid::int, objid::int, objsubid::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()",
      );
      expect(rows).toEqual([{ classid: quiz.namespace, objid: quiz.id, objsubid: 2 }]);
      await probe.query("rollback");
    } finally {
      await probe.end();
    }
  });
});
