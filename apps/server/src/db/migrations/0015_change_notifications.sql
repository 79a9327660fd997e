-- Every server keeps sessions and the learning content in memory (db/changes.ts); these
-- triggers tell all of them, through LISTEN/NOTIFY at commit, what changed, whichever process
-- or tool wrote it. cc_session carries a user id ('*': every user), cc_content the new generation.
CREATE FUNCTION "cc_notify_session_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('cc_session', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('cc_session', OLD."id"::text);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('cc_session', NEW."user_id"::text);
  ELSE
    PERFORM pg_notify('cc_session', OLD."user_id"::text);
    IF TG_OP = 'UPDATE' AND NEW."user_id" <> OLD."user_id" THEN
      PERFORM pg_notify('cc_session', NEW."user_id"::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- What a session carries (users/service.ts loadSessionUser): a change of anything else (a theme,
-- an e-mail address) leaves the sessions alone.
CREATE TRIGGER "users_session_changed" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (OLD."login" IS DISTINCT FROM NEW."login" OR OLD."name" IS DISTINCT FROM NEW."name"
    OR OLD."surname" IS DISTINCT FROM NEW."surname" OR OLD."facility_id" IS DISTINCT FROM NEW."facility_id"
    OR OLD."token_version" IS DISTINCT FROM NEW."token_version")
  EXECUTE FUNCTION "cc_notify_session_user"();--> statement-breakpoint
CREATE TRIGGER "users_session_deleted" AFTER DELETE ON "users" FOR EACH ROW
  EXECUTE FUNCTION "cc_notify_session_user"();--> statement-breakpoint
CREATE TRIGGER "users_session_truncated" AFTER TRUNCATE ON "users" FOR EACH STATEMENT
  EXECUTE FUNCTION "cc_notify_session_user"();--> statement-breakpoint
CREATE TRIGGER "user_roles_session_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_roles" FOR EACH ROW
  EXECUTE FUNCTION "cc_notify_session_user"();--> statement-breakpoint
CREATE TRIGGER "user_roles_session_truncated" AFTER TRUNCATE ON "user_roles" FOR EACH STATEMENT
  EXECUTE FUNCTION "cc_notify_session_user"();--> statement-breakpoint
-- The learning content: any statement that writes it (an import, an authoring save, a tool)
-- gives the content a new generation (learning/content-cache.ts), in its own transaction.
CREATE FUNCTION "cc_content_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "app_meta" ("key", "value") VALUES ('content_generation', gen_random_uuid()::text)
    ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "topics_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "topics"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
CREATE TRIGGER "trainings_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "trainings"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
CREATE TRIGGER "questionnaires_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "questionnaires"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
CREATE TRIGGER "questions_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "questions"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
CREATE TRIGGER "answers_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "answers"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
-- A question's media kind is read with it.
CREATE TRIGGER "media_content_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media"
  FOR EACH STATEMENT EXECUTE FUNCTION "cc_content_changed"();--> statement-breakpoint
-- One notification per transaction, however many statements wrote (PostgreSQL folds equal ones).
CREATE FUNCTION "cc_notify_content"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cc_content', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "app_meta_content_changed" AFTER INSERT OR UPDATE ON "app_meta" FOR EACH ROW
  WHEN (NEW."key" = 'content_generation')
  EXECUTE FUNCTION "cc_notify_content"();
