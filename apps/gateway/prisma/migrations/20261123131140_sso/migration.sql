-- CreateTable
CREATE TABLE "sso_providers" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "allow_account_creation" BOOLEAN NOT NULL,
    "default_role" "Role" NOT NULL,
    "role_claim" TEXT,
    "admin_claim_values" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_identities" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMPTZ(3),

    CONSTRAINT "sso_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_flows" (
    "id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "state_hash" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "callback_url" TEXT NOT NULL,
    "app_redirect_uri" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "started_by_id" UUID,
    "device" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_tickets" (
    "id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "provider_id" UUID NOT NULL,
    "user_id" UUID,
    "claims" JSONB NOT NULL,
    "device" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_tickets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_providers_family_id_name_key" ON "sso_providers"("family_id", "name");

-- CreateIndex
CREATE INDEX "sso_identities_user_id_idx" ON "sso_identities"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_provider_id_subject_key" ON "sso_identities"("provider_id", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "sso_flows_state_hash_key" ON "sso_flows"("state_hash");

-- CreateIndex
CREATE UNIQUE INDEX "sso_tickets_code_hash_key" ON "sso_tickets"("code_hash");

-- AddForeignKey
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_family_id_fkey" FOREIGN KEY ("family_id") REFERENCES "families"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_flows" ADD CONSTRAINT "sso_flows_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_tickets" ADD CONSTRAINT "sso_tickets_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
