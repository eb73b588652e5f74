-- CreateTable
CREATE TABLE "family_purges" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "requested_by_id" UUID,
    "pending_services" TEXT[],
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "locked_until" TIMESTAMPTZ(3),
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "family_purges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "family_purges_completed_at_next_attempt_at_idx" ON "family_purges"("completed_at", "next_attempt_at");

-- CreateIndex
CREATE INDEX "family_purges_family_id_created_at_idx" ON "family_purges"("family_id", "created_at");

