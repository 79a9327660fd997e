-- Covering index for the progress overview and the export: one topic's trainings for a whole
-- facility are read from the index alone. INCLUDE is written here by hand (drizzle's index
-- builder has no INCLUDE); the schema declares the same key columns.
CREATE INDEX "certificates_training_user_idx" ON "certificates" USING btree ("training_id","user_id","acquired_at" DESC NULLS LAST) INCLUDE ("expires_at");
