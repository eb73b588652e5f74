-- CreateEnum
CREATE TYPE "AccountType" AS ENUM ('depository', 'investment', 'crypto', 'property', 'vehicle', 'credit_card', 'loan', 'other_asset', 'other_liability');

-- CreateEnum
CREATE TYPE "AccountClassification" AS ENUM ('asset', 'liability');

-- CreateEnum
CREATE TYPE "AccountStatus" AS ENUM ('active', 'draft', 'disabled', 'pending_deletion');

-- CreateEnum
CREATE TYPE "EntryKind" AS ENUM ('transaction', 'valuation', 'trade');

-- CreateEnum
CREATE TYPE "TransactionKind" AS ENUM ('standard', 'funds_movement', 'cc_payment', 'loan_payment', 'one_time');

-- CreateEnum
CREATE TYPE "ValuationKind" AS ENUM ('reconciliation', 'opening_anchor', 'current_anchor');

-- CreateEnum
CREATE TYPE "TransferStatus" AS ENUM ('pending', 'confirmed');

-- CreateEnum
CREATE TYPE "SyncStatus" AS ENUM ('pending', 'syncing', 'completed', 'failed', 'stale');

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "account_type" "AccountType" NOT NULL,
    "subtype" TEXT,
    "classification" "AccountClassification" NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "AccountStatus" NOT NULL DEFAULT 'active',
    "institution_name" TEXT,
    "institution_domain" TEXT,
    "balance_cents" BIGINT NOT NULL DEFAULT 0,
    "cash_balance_cents" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entries" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" "EntryKind" NOT NULL,
    "date" DATE NOT NULL,
    "name" TEXT NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "notes" TEXT,
    "excluded" BOOLEAN NOT NULL DEFAULT false,
    "external_id" TEXT,
    "source" TEXT,
    "category_id" UUID,
    "merchant_id" UUID,
    "transaction_kind" "TransactionKind",
    "valuation_kind" "ValuationKind",
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "entry_tags" (
    "entry_id" UUID NOT NULL,
    "tag_id" UUID NOT NULL,

    CONSTRAINT "entry_tags_pkey" PRIMARY KEY ("entry_id","tag_id")
);

-- CreateTable
CREATE TABLE "transfers" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "inflow_entry_id" UUID NOT NULL,
    "outflow_entry_id" UUID NOT NULL,
    "status" "TransferStatus" NOT NULL DEFAULT 'pending',
    "notes" TEXT,
    "source_fee_cents" BIGINT,
    "destination_fee_cents" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rejected_transfers" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "inflow_entry_id" UUID NOT NULL,
    "outflow_entry_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rejected_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "balances" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "currency" TEXT NOT NULL,
    "flows_factor" INTEGER NOT NULL,
    "start_cash_balance_cents" BIGINT NOT NULL,
    "start_non_cash_balance_cents" BIGINT NOT NULL,
    "cash_inflows_cents" BIGINT NOT NULL,
    "cash_outflows_cents" BIGINT NOT NULL,
    "non_cash_inflows_cents" BIGINT NOT NULL,
    "non_cash_outflows_cents" BIGINT NOT NULL,
    "net_market_flows_cents" BIGINT NOT NULL,
    "cash_adjustments_cents" BIGINT NOT NULL,
    "non_cash_adjustments_cents" BIGINT NOT NULL,
    "end_cash_balance_cents" BIGINT NOT NULL,
    "end_non_cash_balance_cents" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "balances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "syncs" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "syncable_type" TEXT NOT NULL,
    "syncable_id" UUID NOT NULL,
    "parent_id" UUID,
    "status" "SyncStatus" NOT NULL DEFAULT 'pending',
    "window_start_date" DATE,
    "window_end_date" DATE,
    "error" TEXT,
    "pending_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "syncing_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "syncs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exchange_rates" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "from_currency" TEXT NOT NULL,
    "to_currency" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "rate" DECIMAL(24,12) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exchange_rates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "accounts_family_id_status_idx" ON "accounts"("family_id", "status");

-- CreateIndex
CREATE INDEX "entries_family_id_kind_date_id_idx" ON "entries"("family_id", "kind", "date" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "entries_account_id_date_idx" ON "entries"("account_id", "date");

-- CreateIndex
CREATE INDEX "entries_family_id_amount_cents_date_idx" ON "entries"("family_id", "amount_cents", "date");

-- CreateIndex
CREATE INDEX "entries_family_id_category_id_date_idx" ON "entries"("family_id", "category_id", "date");

-- CreateIndex
CREATE INDEX "entries_family_id_merchant_id_date_idx" ON "entries"("family_id", "merchant_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "entries_account_id_source_external_id_key" ON "entries"("account_id", "source", "external_id");

-- CreateIndex
CREATE INDEX "entry_tags_tag_id_entry_id_idx" ON "entry_tags"("tag_id", "entry_id");

-- CreateIndex
CREATE UNIQUE INDEX "transfers_inflow_entry_id_key" ON "transfers"("inflow_entry_id");

-- CreateIndex
CREATE UNIQUE INDEX "transfers_outflow_entry_id_key" ON "transfers"("outflow_entry_id");

-- CreateIndex
CREATE INDEX "transfers_family_id_status_created_at_idx" ON "transfers"("family_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "rejected_transfers_family_id_created_at_idx" ON "rejected_transfers"("family_id", "created_at");

-- CreateIndex
CREATE INDEX "rejected_transfers_outflow_entry_id_idx" ON "rejected_transfers"("outflow_entry_id");

-- CreateIndex
CREATE UNIQUE INDEX "rejected_transfers_inflow_entry_id_outflow_entry_id_key" ON "rejected_transfers"("inflow_entry_id", "outflow_entry_id");

-- CreateIndex
CREATE INDEX "balances_family_id_date_idx" ON "balances"("family_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "balances_account_id_date_currency_key" ON "balances"("account_id", "date", "currency");

-- CreateIndex
CREATE INDEX "syncs_family_id_created_at_idx" ON "syncs"("family_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "syncs_status_syncable_id_idx" ON "syncs"("status", "syncable_id");

-- CreateIndex
CREATE UNIQUE INDEX "exchange_rates_family_id_from_currency_to_currency_date_key" ON "exchange_rates"("family_id", "from_currency", "to_currency", "date");

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entries" ADD CONSTRAINT "entries_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entry_tags" ADD CONSTRAINT "entry_tags_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "entry_tags" ADD CONSTRAINT "entry_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_inflow_entry_id_fkey" FOREIGN KEY ("inflow_entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_outflow_entry_id_fkey" FOREIGN KEY ("outflow_entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rejected_transfers" ADD CONSTRAINT "rejected_transfers_inflow_entry_id_fkey" FOREIGN KEY ("inflow_entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rejected_transfers" ADD CONSTRAINT "rejected_transfers_outflow_entry_id_fkey" FOREIGN KEY ("outflow_entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "balances" ADD CONSTRAINT "balances_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "syncs" ADD CONSTRAINT "syncs_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "syncs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
