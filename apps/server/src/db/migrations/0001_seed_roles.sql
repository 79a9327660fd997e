-- The five roles of ARCHITECTURE decision 1.
INSERT INTO "roles" ("name") VALUES ('superchris'), ('contentmanager'), ('administrator'), ('supervisor'), ('employee') ON CONFLICT DO NOTHING;
