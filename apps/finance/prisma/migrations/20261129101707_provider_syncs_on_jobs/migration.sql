-- Provider sync runs waiting or running get their job (queue finance.provider-sync of the job
-- runner: one running starts again), and the lease of the old provider sync worker goes.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'finance.provider-sync', "family_id", "id", "id"::text, "created_at"
  FROM "provider_syncs" WHERE "status" IN ('pending', 'syncing');

-- AlterTable
ALTER TABLE "provider_syncs" DROP COLUMN "lease_expires_at";
