import { sql } from "drizzle-orm";
import { transientFailure } from "../errors";
import { changeFeedOf, type Db, isTransaction, type Tx } from "./client";

/*
 * The transactions of user-triggered writes that can meet another writer (content import,
 * authoring, wiki). PostgreSQL may end such a transaction although nothing about the request is
 * wrong: a deadlock or a serialization failure it lost, a lock not had in time, a statement
 * cancelled (errors.ts PG_TRANSIENT). The same work usually succeeds a moment later, so the whole
 * transaction runs once more after a short random pause (random, so that the two parties of a
 * deadlock do not meet again in step); failing again it answers 409 or 503, never 500. Once, not
 * more: a request should not wait long, and a failure that repeats is better told to the user.
 *
 * After the commit it also tells this process's caches that the transaction wrote learning
 * content (the cc.content_written flag of migration 0016), instead of relying on PostgreSQL
 * handing the session its own notification before the commit returns.
 */

/** How often a transaction runs at most. */
const ATTEMPTS = 2;
/** The pause before the second attempt: 20 ms and up to 60 ms more, at random. */
const PAUSE_MS = 20;
const JITTER_MS = 60;

const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS + Math.random() * JITTER_MS));

/**
 * Has this transaction written learning content? Migration 0016 sets the transaction-local flag
 * with its first content row (read here and by learning/content-cache.ts).
 */
export const CONTENT_WRITTEN = sql`coalesce(current_setting('cc.content_written', true), '') = 'on'`;

async function wroteContent(tx: Tx): Promise<boolean> {
  const result = await tx.execute<{ written: boolean }>(sql`select ${CONTENT_WRITTEN} as written`);
  return result.rows[0]?.written === true;
}

/**
 * Runs `work` in a transaction, once more after a transient failure (a TransientDatabaseError,
 * 409 or 503, when that fails too). Inside a transaction already (`db` a transaction's handle) it
 * runs in a savepoint without retries: the outermost transaction is what can be run again.
 * `work` may run twice, so it must not have effects outside the database that a second run
 * repeats.
 */
export async function runTransaction<T>(db: Db | Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return db.transaction(work);
  for (let attempt = 1; ; attempt++) {
    let content = false;
    try {
      const result = await db.transaction(async (tx) => {
        const out = await work(tx);
        content = await wroteContent(tx);
        return out;
      });
      if (content) changeFeedOf(db)?.announce("cc_content");
      return result;
    } catch (err) {
      const transient = transientFailure(err);
      if (!transient) throw err;
      if (attempt >= ATTEMPTS) throw transient;
      await pause();
    }
  }
}
