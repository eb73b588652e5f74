-- CreateEnum
CREATE TYPE "CategoryClassification" AS ENUM ('income', 'expense');

-- CreateTable
CREATE TABLE "categories" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "icon" TEXT NOT NULL,
    "classification" "CategoryClassification" NOT NULL DEFAULT 'expense',
    "parent_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "category_defaults_seeded" (
    "family_id" UUID NOT NULL,
    "seeded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "category_defaults_seeded_pkey" PRIMARY KEY ("family_id")
);

-- CreateIndex
CREATE INDEX "categories_family_id_parent_id_idx" ON "categories"("family_id", "parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "categories_family_id_name_key" ON "categories"("family_id", "name");

-- AddForeignKey
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;
