-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "chat_messages" DROP COLUMN "lease_until";

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

-- Answers waiting or being produced get their job (queue chat.reply of the job runner): one a
-- worker had started is taken over as its worker's: failed as interrupted, as before.
INSERT INTO "jobs" ("queue", "family_id", "subject_id", "dedupe_key", "run_after", "status", "attempts", "lease_token", "started_at")
SELECT 'chat.reply', c."family_id", m."id", m."id"::text, m."created_at",
       CASE WHEN m."started_at" IS NULL THEN 'queued' ELSE 'running' END::"JobStatus",
       CASE WHEN m."started_at" IS NULL THEN 0 ELSE 1 END,
       CASE WHEN m."started_at" IS NULL THEN NULL ELSE gen_random_uuid() END,
       m."started_at"
  FROM "chat_messages" m JOIN "chats" c ON c."id" = m."chat_id"
 WHERE m."kind" = 'assistant_message' AND m."ai_response_status" = 'pending';
