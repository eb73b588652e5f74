-- AlterTable
ALTER TABLE "chat_messages" ADD COLUMN     "asked_by" JSONB,
ADD COLUMN     "lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "reply_to_id" UUID,
ADD COLUMN     "started_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "tool_calls" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "function_name" TEXT NOT NULL,
    "function_arguments" JSONB NOT NULL,
    "function_result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "tool_calls_message_id_created_at_idx" ON "tool_calls"("message_id", "created_at");

-- CreateIndex
CREATE INDEX "chat_messages_reply_to_id_idx" ON "chat_messages"("reply_to_id");

-- CreateIndex
CREATE INDEX "chat_messages_ai_response_status_kind_created_at_idx" ON "chat_messages"("ai_response_status", "kind", "created_at");

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_reply_to_id_fkey" FOREIGN KEY ("reply_to_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "chat_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Questions asked before the assistant existed were stored pending with nothing to answer them:
-- they end as failed (the user may ask again), rather than read as pending forever.
UPDATE "chat_messages" q SET "ai_response_status" = 'failed'
 WHERE q."kind" = 'user_message' AND q."ai_response_status" = 'pending'
   AND NOT EXISTS (SELECT 1 FROM "chat_messages" a WHERE a."reply_to_id" = q."id");
