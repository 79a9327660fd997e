-- Migration 0015 gave the learning content a new generation after every statement that wrote it,
-- by an upsert of the one app_meta row 'content_generation'. That row became the hottest lock of
-- the database: a content import held it from its first statement to its commit and so blocked
-- every authoring save and wiki image upload for the whole import; two content transactions that
-- took it and a content row in opposite orders deadlocked (answered 500).
--
-- Now every content write is announced in two parts, neither of which holds a row lock while
-- the transaction works:
-- * the first row a transaction writes to the content notifies 'cc_content' (delivered at commit,
--   like every NOTIFY) and sets the transaction-local flag cc.content_written, which the content
--   cache reads to know that the transaction sees content of its own (learning/content-cache.ts);
-- * the generation row is written once per transaction, at commit, by a constraint trigger
--   (DEFERRABLE INITIALLY DEFERRED). No other trigger of the schema is deferred, so that upsert
--   is the last lock a committing transaction takes, held for the commit instant only: it waits
--   for nothing else afterwards, so it can take part in no deadlock, and it blocks another
--   content transaction for at most the time of one commit.
-- The generation stays transactional, which the content cache relies on: a reader's snapshot
-- holds the new generation exactly when it holds the content written with it. A sequence would
-- not be (nextval is seen before the commit): a reader could read the new value, then load a
-- snapshot without the writer's commit and keep that stale view under the new value. (A writer
-- in REPEATABLE READ or SERIALIZABLE whose snapshot predates another content commit fails here
-- with a serialization failure, 40001, which db/transaction.ts runs once more; the app's writers
-- use READ COMMITTED, where the upsert waits for the other commit and then overwrites it.)
-- Measured on PostgreSQL 15: the WHEN call costs under a microsecond a row (100 000 rows updated
-- in 0.70 s against 0.62 s without the trigger).
--
-- The constraint triggers are row triggers (PostgreSQL has no other kind), but their WHEN calls
-- cc_content_written(), which answers true for the first row of a transaction only: a 10 000-row
-- import queues one deferred event, not 10 000. WHEN is evaluated as each row is written (it is
-- not deferred), and both the flag (set_config … true) and the queued event are undone together
-- when a savepoint rolls back, so the two never disagree.
-- TRUNCATE has no constraint triggers: a statement trigger writes the generation at once and
-- holds the row until its commit, which costs nothing more, TRUNCATE locking the whole table.
DROP TRIGGER "topics_content_changed" ON "topics";--> statement-breakpoint
DROP TRIGGER "trainings_content_changed" ON "trainings";--> statement-breakpoint
DROP TRIGGER "questionnaires_content_changed" ON "questionnaires";--> statement-breakpoint
DROP TRIGGER "questions_content_changed" ON "questions";--> statement-breakpoint
DROP TRIGGER "answers_content_changed" ON "answers";--> statement-breakpoint
DROP TRIGGER "media_content_changed" ON "media";--> statement-breakpoint
DROP TRIGGER "app_meta_content_changed" ON "app_meta";--> statement-breakpoint
DROP FUNCTION "cc_content_changed"();--> statement-breakpoint
DROP FUNCTION "cc_notify_content"();--> statement-breakpoint
-- True for the first content row this transaction writes (the caller then queues the generation
-- write); false for every later one. Notifies every server's content cache (db/changes.ts).
CREATE FUNCTION "cc_content_written"() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('cc.content_written', true) = 'on' THEN
    RETURN false;
  END IF;
  PERFORM set_config('cc.content_written', 'on', true);
  PERFORM pg_notify('cc_content', '*');
  RETURN true;
END $$;--> statement-breakpoint
-- Of a media row the learning content reads only the kind, and only through a question that
-- shows it (learning/content-cache.ts). Wiki images and question uploads are new rows no question
-- shows yet (the question that takes one up is itself a content write), an import rewrites a
-- file's bytes under the same kind, and a media row a question shows cannot be deleted (the
-- question's foreign key refuses): only a changed kind of a row a question shows is a change.
CREATE FUNCTION "cc_content_media_written"(row_id integer, old_kind text, new_kind text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF old_kind IS NOT DISTINCT FROM new_kind THEN
    RETURN false;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "questions" q WHERE q."media_id" = row_id) THEN
    RETURN false;
  END IF;
  RETURN "cc_content_written"();
END $$;--> statement-breakpoint
-- The new generation, at commit (or at once for TRUNCATE): a random value, never one seen before.
CREATE FUNCTION "cc_content_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM set_config('cc.content_written', 'on', true);
    PERFORM pg_notify('cc_content', '*');
  END IF;
  INSERT INTO "app_meta" ("key", "value") VALUES ('content_generation', gen_random_uuid()::text)
    ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "topics_content_written" AFTER INSERT OR UPDATE OR DELETE ON "topics"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "trainings_content_written" AFTER INSERT OR UPDATE OR DELETE ON "trainings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "questionnaires_content_written" AFTER INSERT OR UPDATE OR DELETE ON "questionnaires"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "questions_content_written" AFTER INSERT OR UPDATE OR DELETE ON "questions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "answers_content_written" AFTER INSERT OR UPDATE OR DELETE ON "answers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_written"())
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "media_content_written" AFTER UPDATE ON "media"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ("cc_content_media_written"(OLD."id", OLD."kind", NEW."kind"))
  EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
-- media needs none: it cannot be truncated without the questions that point at it.
CREATE TRIGGER "topics_content_truncated" AFTER TRUNCATE ON "topics"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "trainings_content_truncated" AFTER TRUNCATE ON "trainings"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "questionnaires_content_truncated" AFTER TRUNCATE ON "questionnaires"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "questions_content_truncated" AFTER TRUNCATE ON "questions"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();--> statement-breakpoint
CREATE TRIGGER "answers_content_truncated" AFTER TRUNCATE ON "answers"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_generation"();
