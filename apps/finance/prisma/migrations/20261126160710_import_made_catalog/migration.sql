-- AlterTable
ALTER TABLE "tags" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "categories" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "securities" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "budgets" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "budget_categories" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "rules" ADD COLUMN     "import_id" UUID;

-- AlterTable
ALTER TABLE "recurring_transactions" ADD COLUMN     "import_id" UUID;
