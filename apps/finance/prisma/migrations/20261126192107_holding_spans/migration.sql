-- Spans replace the daily rows: every account that held something is queued for a full sync,
-- which writes its spans (nothing is lost: holdings are derived from trades and prices).
INSERT INTO "syncs" ("id", "family_id", "syncable_type", "syncable_id", "status", "pending_at", "created_at", "updated_at")
SELECT gen_random_uuid(), a."family_id", 'Account', a."id", 'pending', now(), now(), now()
  FROM "accounts" a
 WHERE EXISTS (SELECT 1 FROM "holdings" h WHERE h."account_id" = a."id");

-- DropForeignKey
ALTER TABLE "holdings" DROP CONSTRAINT "holdings_account_id_fkey";

-- DropForeignKey
ALTER TABLE "holdings" DROP CONSTRAINT "holdings_security_id_fkey";

-- DropTable
DROP TABLE "holdings";

-- CreateTable
CREATE TABLE "holding_spans" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "security_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "position_key" UUID NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "qty" DECIMAL(24,8) NOT NULL,
    "avg_cost" DECIMAL(19,4),
    "trade_price" DECIMAL(19,4) NOT NULL,
    "trade_price_date" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "holding_spans_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "holding_spans_family_id_start_date_idx" ON "holding_spans"("family_id", "start_date");

-- CreateIndex
CREATE INDEX "holding_spans_position_key_start_date_idx" ON "holding_spans"("position_key", "start_date");

-- CreateIndex
CREATE INDEX "holding_spans_security_id_idx" ON "holding_spans"("security_id");

-- CreateIndex
CREATE UNIQUE INDEX "holding_spans_account_id_security_id_currency_start_date_key" ON "holding_spans"("account_id", "security_id", "currency", "start_date");

-- AddForeignKey
ALTER TABLE "holding_spans" ADD CONSTRAINT "holding_spans_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holding_spans" ADD CONSTRAINT "holding_spans_security_id_fkey" FOREIGN KEY ("security_id") REFERENCES "securities"("id") ON DELETE CASCADE ON UPDATE CASCADE;
