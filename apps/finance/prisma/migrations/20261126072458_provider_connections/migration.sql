-- CreateEnum
CREATE TYPE "ProviderSyncStatus" AS ENUM ('pending', 'syncing', 'completed', 'failed', 'stale');

-- CreateTable
CREATE TABLE "provider_connections" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sealed_credentials" TEXT NOT NULL,
    "credentials_kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'good',
    "institution_name" TEXT,
    "institution_domain" TEXT,
    "institution_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_accounts" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "account_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_syncs" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "status" "ProviderSyncStatus" NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "stats" JSONB,
    "lease_expires_at" TIMESTAMPTZ(3),
    "syncing_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_syncs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "provider_connections_family_id_created_at_idx" ON "provider_connections"("family_id", "created_at");

-- CreateIndex
CREATE INDEX "provider_accounts_account_id_idx" ON "provider_accounts"("account_id");

-- CreateIndex
CREATE INDEX "provider_accounts_family_id_idx" ON "provider_accounts"("family_id");

-- CreateIndex
CREATE UNIQUE INDEX "provider_accounts_connection_id_external_id_key" ON "provider_accounts"("connection_id", "external_id");

-- CreateIndex
CREATE INDEX "provider_syncs_connection_id_created_at_idx" ON "provider_syncs"("connection_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "provider_syncs_status_created_at_idx" ON "provider_syncs"("status", "created_at");

-- CreateIndex
CREATE INDEX "provider_syncs_family_id_idx" ON "provider_syncs"("family_id");

-- AddForeignKey
ALTER TABLE "provider_accounts" ADD CONSTRAINT "provider_accounts_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_accounts" ADD CONSTRAINT "provider_accounts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_syncs" ADD CONSTRAINT "provider_syncs_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "provider_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
