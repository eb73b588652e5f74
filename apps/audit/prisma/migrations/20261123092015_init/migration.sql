-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "audit_log_entries" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "family_id" UUID,
    "event_type" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "user_id" UUID,
    "user_email" TEXT,
    "provider" TEXT,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "session_id" TEXT,
    "request_id" TEXT,
    "error" TEXT,
    "changes" JSONB,
    "action" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_log_entries_event_id_key" ON "audit_log_entries"("event_id");

-- CreateIndex
CREATE INDEX "audit_log_entries_family_id_occurred_at_idx" ON "audit_log_entries"("family_id", "occurred_at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_entries_family_id_event_type_occurred_at_idx" ON "audit_log_entries"("family_id", "event_type", "occurred_at" DESC);

-- CreateIndex
CREATE INDEX "audit_log_entries_family_id_user_id_occurred_at_idx" ON "audit_log_entries"("family_id", "user_id", "occurred_at" DESC);
