import { ErrorCode } from "@carecampus/contract";
import { DrizzleQueryError, sql } from "drizzle-orm";
import Fastify from "fastify";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { importFixture } from "../../test/content-fixture";
import { createTestApp, onPostgres, type TestContext } from "../../test/helpers";
import { otherSession } from "../../test/second-server";
import { AppError, registerErrorHandling, TransientDatabaseError } from "../errors";
import { runTransaction } from "./transaction";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await importFixture(ctx.deps.database.db);
  await ctx.deps.database.db.execute(sql`create table "probe" ("id" int primary key, "n" int not null default 0)`);
  await ctx.deps.database.db.execute(sql`insert into "probe" ("id") values (1), (2)`);
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const probe = async (id: number) =>
  (await ctx.deps.database.db.execute<{ n: number }>(sql`select "n" from "probe" where "id" = ${id}`)).rows[0]?.n;

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("runTransaction", () => {
  it("commits the work and hands back its result; a failing work changes nothing and reaches the caller as it was", async () => {
    const { db } = ctx.deps.database;
    expect(
      await runTransaction(db, async (tx) => {
        await tx.execute(sql`update "probe" set "n" = 5 where "id" = 1`);
        return "done";
      }),
    ).toBe("done");
    expect(await probe(1)).toBe(5);
    const refused = new AppError(ErrorCode.validation, "no");
    await expect(
      runTransaction(db, async (tx) => {
        await tx.execute(sql`update "probe" set "n" = 6 where "id" = 1`);
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await probe(1)).toBe(5);
    // A database error that is no transient failure is not tried again, nor turned into an AppError.
    let attempts = 0;
    const error = await runTransaction(db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`insert into "probe" ("id") values (1)`);
    }).catch((err: unknown) => err);
    expect(attempts).toBe(1);
    expect(error).not.toBeInstanceOf(AppError);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe("23505");
  });

  it("inside a transaction runs as a savepoint: its failure undoes only its own writes", async () => {
    const { db } = ctx.deps.database;
    await runTransaction(db, async (tx) => {
      await tx.execute(sql`update "probe" set "n" = 7 where "id" = 1`);
      await runTransaction(tx, async (inner) => {
        await inner.execute(sql`update "probe" set "n" = 7 where "id" = 2`);
        throw new AppError(ErrorCode.conflict, "inner");
      }).catch(() => {});
    });
    expect(await probe(1)).toBe(7);
    expect(await probe(2)).toBe(0);
  });

  it("tells this process's caches after a commit that wrote learning content, and only then", async () => {
    const { db, changes } = ctx.deps.database;
    const announce = vi.spyOn(changes, "announce");
    await runTransaction(db, async (tx) => {
      await tx.execute(sql`update "probe" set "n" = "n" + 1 where "id" = 1`);
    });
    expect(announce).not.toHaveBeenCalled();
    await runTransaction(db, async (tx) => {
      await tx.execute(sql`update "trainings" set "points" = "points" where "key" = 'haende'`);
      // Not before the commit.
      expect(announce).not.toHaveBeenCalled();
    });
    expect(announce).toHaveBeenCalledTimes(1);
    expect(announce).toHaveBeenCalledWith("cc_content");
    await runTransaction(db, async (tx) => {
      await tx.execute(sql`update "trainings" set "points" = "points" where "key" = 'haende'`);
      throw new AppError(ErrorCode.validation, "rolled back");
    }).catch(() => {});
    expect(announce).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(!onPostgres)("runTransaction against PostgreSQL's transient failures", () => {
  let other: pg.Client;
  beforeAll(async () => {
    other = await otherSession(ctx);
  });
  afterAll(() => other.end());

  it("runs the whole transaction again after a serialization failure; the second run's work is what stays", async () => {
    const { db } = ctx.deps.database;
    await db.execute(sql`update "probe" set "n" = 0 where "id" = 1`);
    let attempts = 0;
    const result = await runTransaction(db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`set transaction isolation level repeatable read`);
      const seen = (await tx.execute<{ n: number }>(sql`select "n" from "probe" where "id" = 1`)).rows[0]?.n ?? -1;
      // Another session commits a change of the row between this transaction's read and write.
      if (attempts === 1) await other.query(`update "probe" set "n" = "n" + 100 where "id" = 1`);
      await tx.execute(sql`update "probe" set "n" = ${seen + 1} where "id" = 1`);
      return seen + 1;
    });
    expect(attempts).toBe(2);
    expect(result).toBe(101);
    expect(await probe(1)).toBe(101);
  });

  it("answers a deadlock lost twice with 409 (conflict), after exactly two runs", async () => {
    const { db } = ctx.deps.database;
    const otherPid = (await other.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
    const otherHolds = [deferred(), deferred()];
    const workHolds = [deferred(), deferred()];
    const otherWaits = [deferred(), deferred()];
    let attempts = 0;
    const work = runTransaction(db, async (tx) => {
      const attempt = attempts++;
      await otherHolds[attempt]?.promise;
      // This side looks for the deadlock first (the other only after 10 s) and loses it.
      await tx.execute(sql`set local deadlock_timeout = '50ms'`);
      await tx.execute(sql`select "id" from "probe" where "id" = 1 for update`);
      workHolds[attempt]?.resolve();
      await otherWaits[attempt]?.promise;
      // Row 2 is the other's, which waits for row 1: a deadlock.
      await tx.execute(sql`select "id" from "probe" where "id" = 2 for update`);
    }).catch((err: unknown) => err);
    for (let round = 0; round < 2; round++) {
      await other.query("begin");
      await other.query("set local deadlock_timeout = '10s'");
      await other.query(`select "id" from "probe" where "id" = 2 for update`);
      otherHolds[round]?.resolve();
      await workHolds[round]?.promise;
      const waiting = other.query(`select "id" from "probe" where "id" = 1 for update`);
      await vi.waitFor(async () => {
        const { rows } = await db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_locks where pid = ${otherPid} and not granted`,
        );
        expect(rows[0]?.n).toBe(1);
      });
      otherWaits[round]?.resolve();
      // Granted once the work lost the deadlock and rolled back.
      await waiting;
      await other.query("commit");
    }
    const error = await work;
    expect(attempts).toBe(2);
    expect(error).toBeInstanceOf(TransientDatabaseError);
    expect(error).toMatchObject({ code: ErrorCode.conflict, status: 409, sqlState: "40P01" });
  });

  it("answers a lock not had twice (NOWAIT) with 503 (busy); inside, the outermost transaction is what runs again", async () => {
    const { db } = ctx.deps.database;
    await other.query("begin");
    await other.query(`select "id" from "probe" where "id" = 1 for update`);
    let outer = 0;
    let inner = 0;
    try {
      const error = await runTransaction(db, async (tx) => {
        outer += 1;
        await runTransaction(tx, async (nested) => {
          inner += 1;
          await nested.execute(sql`select "id" from "probe" where "id" = 1 for update nowait`);
        });
      }).catch((err: unknown) => err);
      expect({ outer, inner }).toEqual({ outer: 2, inner: 2 });
      expect(error).toBeInstanceOf(TransientDatabaseError);
      expect(error).toMatchObject({ code: ErrorCode.busy, status: 503, sqlState: "55P03" });
    } finally {
      await other.query("rollback");
    }
  });
});

describe("the error handler", () => {
  it("answers PostgreSQL's transient failures outside the helper with 409 or 503 and the spec §8 body, never 500", async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    // As drizzle throws them: the driver's error, with its SQLSTATE, as the cause.
    app.get<{ Params: { code: string } }>("/fail/:code", async (request) => {
      const driver = Object.assign(new Error("from the database"), { code: request.params.code });
      throw new DrizzleQueryError("select 1", [], driver);
    });
    await app.ready();
    try {
      for (const [code, status, errorCode] of [
        ["40P01", 409, ErrorCode.conflict],
        ["40001", 409, ErrorCode.conflict],
        ["55P03", 503, ErrorCode.busy],
        ["57014", 503, ErrorCode.busy],
      ] as const) {
        const res = await app.inject({ method: "GET", url: `/fail/${code}` });
        expect(res.statusCode, code).toBe(status);
        expect(res.json()).toEqual({ error_code: errorCode, message: expect.any(String), status_code: status });
        if (status === 503) expect(res.headers["retry-after"]).toBe("1");
      }
      // Anything else from the database stays an unexpected error.
      expect((await app.inject({ method: "GET", url: "/fail/XX000" })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});
