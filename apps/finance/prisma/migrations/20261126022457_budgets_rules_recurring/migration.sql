-- AlterTable
ALTER TABLE "entries" ADD COLUMN     "locked_attributes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "budgets" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "budgeted_spending_cents" BIGINT,
    "expected_income_cents" BIGINT,
    "currency" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "budgets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "budget_categories" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "budget_id" UUID NOT NULL,
    "category_id" UUID NOT NULL,
    "budgeted_spending_cents" BIGINT NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "rollover_enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "budget_categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rules" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "name" TEXT,
    "resource_type" TEXT NOT NULL DEFAULT 'transaction',
    "effective_date" DATE,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_conditions" (
    "id" UUID NOT NULL,
    "rule_id" UUID,
    "parent_id" UUID,
    "condition_type" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "value" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rule_conditions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_actions" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "action_type" TEXT NOT NULL,
    "value" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rule_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rule_runs" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "rule_name" TEXT,
    "execution_type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "ignore_attribute_locks" BOOLEAN NOT NULL DEFAULT false,
    "transactions_queued" INTEGER NOT NULL DEFAULT 0,
    "transactions_processed" INTEGER NOT NULL DEFAULT 0,
    "transactions_modified" INTEGER NOT NULL DEFAULT 0,
    "pending_jobs_count" INTEGER NOT NULL DEFAULT 0,
    "executed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_expires_at" TIMESTAMPTZ(3),
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rule_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recurring_transactions" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "account_id" UUID,
    "merchant_id" UUID,
    "name" TEXT,
    "amount_cents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expected_day_of_month" INTEGER NOT NULL,
    "last_occurrence_date" DATE NOT NULL,
    "next_expected_date" DATE NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "occurrence_count" INTEGER NOT NULL DEFAULT 0,
    "manual" BOOLEAN NOT NULL DEFAULT false,
    "expected_amount_min_cents" BIGINT,
    "expected_amount_max_cents" BIGINT,
    "expected_amount_avg_cents" BIGINT,
    "identity_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recurring_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recurring_scans" (
    "family_id" UUID NOT NULL,
    "run_after" TIMESTAMPTZ(3) NOT NULL,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recurring_scans_pkey" PRIMARY KEY ("family_id")
);

-- CreateIndex
CREATE INDEX "budgets_family_id_end_date_idx" ON "budgets"("family_id", "end_date");

-- CreateIndex
CREATE UNIQUE INDEX "budgets_family_id_start_date_key" ON "budgets"("family_id", "start_date");

-- CreateIndex
CREATE INDEX "budget_categories_family_id_category_id_idx" ON "budget_categories"("family_id", "category_id");

-- CreateIndex
CREATE UNIQUE INDEX "budget_categories_budget_id_category_id_key" ON "budget_categories"("budget_id", "category_id");

-- CreateIndex
CREATE INDEX "rules_family_id_active_idx" ON "rules"("family_id", "active");

-- CreateIndex
CREATE INDEX "rule_conditions_rule_id_idx" ON "rule_conditions"("rule_id");

-- CreateIndex
CREATE INDEX "rule_conditions_parent_id_idx" ON "rule_conditions"("parent_id");

-- CreateIndex
CREATE INDEX "rule_actions_rule_id_idx" ON "rule_actions"("rule_id");

-- CreateIndex
CREATE INDEX "rule_runs_family_id_executed_at_idx" ON "rule_runs"("family_id", "executed_at");

-- CreateIndex
CREATE INDEX "rule_runs_rule_id_executed_at_idx" ON "rule_runs"("rule_id", "executed_at");

-- CreateIndex
CREATE INDEX "rule_runs_status_lease_expires_at_idx" ON "rule_runs"("status", "lease_expires_at");

-- CreateIndex
CREATE INDEX "recurring_transactions_family_id_status_next_expected_date_idx" ON "recurring_transactions"("family_id", "status", "next_expected_date");

-- CreateIndex
CREATE UNIQUE INDEX "recurring_transactions_family_id_identity_key_key" ON "recurring_transactions"("family_id", "identity_key");

-- CreateIndex
CREATE INDEX "recurring_scans_run_after_idx" ON "recurring_scans"("run_after");

-- AddForeignKey
ALTER TABLE "budget_categories" ADD CONSTRAINT "budget_categories_budget_id_fkey" FOREIGN KEY ("budget_id") REFERENCES "budgets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_categories" ADD CONSTRAINT "budget_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_conditions" ADD CONSTRAINT "rule_conditions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_conditions" ADD CONSTRAINT "rule_conditions_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "rule_conditions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_actions" ADD CONSTRAINT "rule_actions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
