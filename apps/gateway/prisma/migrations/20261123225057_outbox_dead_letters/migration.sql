-- CreateTable
CREATE TABLE "outbox_dead_letters" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "message_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "failed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_dead_letters_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "outbox_dead_letters_event_id_key" ON "outbox_dead_letters"("event_id");

-- CreateIndex
CREATE INDEX "outbox_dead_letters_failed_at_idx" ON "outbox_dead_letters"("failed_at");
