-- CreateTable
CREATE TABLE "family_settings" (
    "family_id" UUID NOT NULL,
    "name" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "locale" TEXT NOT NULL DEFAULT 'en',
    "date_format" TEXT NOT NULL DEFAULT '%m-%d-%Y',
    "country" TEXT,
    "timezone" TEXT,
    "month_start_day" INTEGER NOT NULL DEFAULT 1,
    "moniker" TEXT NOT NULL DEFAULT 'Family',
    "default_account_sharing" TEXT NOT NULL DEFAULT 'shared',
    "custom_enabled_currencies" BOOLEAN NOT NULL DEFAULT false,
    "enabled_currencies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "family_settings_pkey" PRIMARY KEY ("family_id")
);
