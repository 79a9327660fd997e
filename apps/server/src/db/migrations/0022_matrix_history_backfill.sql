-- Custom SQL migration file, put your code below! --
-- ---------- hand-written (issue 29, the evidence at a date) ----------
-- The training matrix history starts here: every current member gets an open period with today's
-- facility and trainings (null = every training: no matrix of their own), valid from this
-- migration. Before that instant the records cannot tell; the evidence report says from which
-- day it is exact (the earliest valid_from) and projects today's assignment back for earlier days.
INSERT INTO "training_matrix_history" ("user_id", "facility_id", "trainings", "valid_from")
SELECT u."id", u."facility_id",
  CASE WHEN EXISTS (SELECT 1 FROM "training_matrices" m WHERE m."user_id" = u."id")
    THEN ARRAY(SELECT e."training_id" FROM "training_matrix_entries" e WHERE e."user_id" = u."id" ORDER BY 1)::int[]
  END,
  now()
FROM "users" u
WHERE u."archived_at" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "training_matrix_history" h WHERE h."user_id" = u."id");
