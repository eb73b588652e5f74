-- Rule runs waiting to be applied get their job (queue finance.rule-run of the job runner),
-- and the lease of the old rule run worker goes.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'finance.rule-run', "family_id", "id", "id"::text, "executed_at"
  FROM "rule_runs" WHERE "status" = 'pending';

-- DropIndex
DROP INDEX "rule_runs_status_lease_expires_at_idx";

-- AlterTable
ALTER TABLE "rule_runs" DROP COLUMN "lease_expires_at";
