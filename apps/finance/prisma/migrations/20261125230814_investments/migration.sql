-- CreateEnum
CREATE TYPE "SecurityKind" AS ENUM ('standard', 'cash');

-- CreateTable
CREATE TABLE "securities" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "ticker" TEXT NOT NULL,
    "name" TEXT,
    "kind" "SecurityKind" NOT NULL DEFAULT 'standard',
    "country_code" TEXT,
    "exchange_mic" TEXT,
    "exchange_acronym" TEXT,
    "exchange_operating_mic" TEXT,
    "exchange_name" TEXT,
    "offline" BOOLEAN NOT NULL DEFAULT false,
    "offline_reason" TEXT,
    "website_url" TEXT,
    "logo_url" TEXT,
    "first_provider_price_on" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "securities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trades" (
    "entry_id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "security_id" UUID NOT NULL,
    "qty" DECIMAL(24,8) NOT NULL,
    "price" DECIMAL(19,10) NOT NULL,
    "fee_cents" BIGINT NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "investment_activity_label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trades_pkey" PRIMARY KEY ("entry_id")
);

-- CreateTable
CREATE TABLE "security_prices" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "security_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "price" DECIMAL(19,4) NOT NULL,
    "currency" TEXT NOT NULL,
    "provisional" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "security_prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "holdings" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "security_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "qty" DECIMAL(24,8) NOT NULL,
    "price" DECIMAL(19,4) NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "avg_cost" DECIMAL(19,4),
    "cost_basis_source" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "holdings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "securities_family_id_ticker_key" ON "securities"("family_id", "ticker");

-- CreateIndex
CREATE INDEX "trades_security_id_idx" ON "trades"("security_id");

-- CreateIndex
CREATE INDEX "trades_family_id_security_id_idx" ON "trades"("family_id", "security_id");

-- CreateIndex
CREATE INDEX "security_prices_family_id_date_idx" ON "security_prices"("family_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "security_prices_security_id_date_currency_key" ON "security_prices"("security_id", "date", "currency");

-- CreateIndex
CREATE INDEX "holdings_account_id_date_idx" ON "holdings"("account_id", "date");

-- CreateIndex
CREATE INDEX "holdings_family_id_date_idx" ON "holdings"("family_id", "date");

-- CreateIndex
CREATE INDEX "holdings_security_id_idx" ON "holdings"("security_id");

-- CreateIndex
CREATE UNIQUE INDEX "holdings_account_id_security_id_date_currency_key" ON "holdings"("account_id", "security_id", "date", "currency");

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_security_id_fkey" FOREIGN KEY ("security_id") REFERENCES "securities"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "security_prices" ADD CONSTRAINT "security_prices_security_id_fkey" FOREIGN KEY ("security_id") REFERENCES "securities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_security_id_fkey" FOREIGN KEY ("security_id") REFERENCES "securities"("id") ON DELETE CASCADE ON UPDATE CASCADE;
