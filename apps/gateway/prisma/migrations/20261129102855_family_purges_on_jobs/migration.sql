-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');


-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "queue" TEXT NOT NULL,
    "family_id" UUID NOT NULL,
    "subject_id" UUID,
    "dedupe_key" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_token" UUID,
    "heartbeat_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "cancel_requested_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_family_turns" (
    "queue" TEXT NOT NULL,
    "family_id" UUID NOT NULL,
    "last_claimed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_family_turns_pkey" PRIMARY KEY ("queue","family_id")
);

-- CreateIndex
CREATE INDEX "jobs_queue_status_run_after_idx" ON "jobs"("queue", "status", "run_after");

-- CreateIndex
CREATE INDEX "jobs_queue_family_id_status_idx" ON "jobs"("queue", "family_id", "status");

-- CreateIndex
CREATE INDEX "jobs_subject_id_idx" ON "jobs"("subject_id");

-- CreateIndex
CREATE INDEX "jobs_status_finished_at_idx" ON "jobs"("status", "finished_at");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_queue_dedupe_key_key" ON "jobs"("queue", "dedupe_key") WHERE (status = 'queued' AND dedupe_key IS NOT NULL);

-- Family purges not completed get their job (queue gateway.family-purge of the job runner), due
-- when their next attempt was, and the lease of the old purger goes.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after")
SELECT 'gateway.family-purge', "family_id", "id", "id"::text, "next_attempt_at"
  FROM "family_purges" WHERE "completed_at" IS NULL;

-- DropIndex
DROP INDEX "family_purges_completed_at_next_attempt_at_idx";

-- AlterTable
ALTER TABLE "family_purges" DROP COLUMN "locked_until",
DROP COLUMN "next_attempt_at";

-- CreateIndex
CREATE INDEX "family_purges_completed_at_idx" ON "family_purges"("completed_at");
