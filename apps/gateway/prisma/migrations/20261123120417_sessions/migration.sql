-- Sessions: one per signed-in device, and refresh tokens belong to one. Hand-ordered so that
-- existing refresh tokens keep working: each becomes (the only token of) a session of its own.

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "device_id" TEXT NOT NULL,
    "device_name" TEXT,
    "device_type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- Move the device facts of existing tokens into sessions
ALTER TABLE "refresh_tokens" ADD COLUMN "session_id" UUID;
UPDATE "refresh_tokens" SET "session_id" = gen_random_uuid();
INSERT INTO "sessions" ("id", "user_id", "device_id", "device_name", "device_type", "created_at", "revoked_at")
SELECT "session_id", "user_id", "device_id", "device_name", "device_type", "created_at", "revoked_at" FROM "refresh_tokens";

-- AlterTable
ALTER TABLE "refresh_tokens" ALTER COLUMN "session_id" SET NOT NULL,
DROP COLUMN "device_id",
DROP COLUMN "device_name",
DROP COLUMN "device_type";

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE INDEX "refresh_tokens_session_id_idx" ON "refresh_tokens"("session_id");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
