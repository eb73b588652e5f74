-- CreateTable
CREATE TABLE "ledger_versions" (
    "family_id" UUID NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ledger_versions_pkey" PRIMARY KEY ("family_id")
);
