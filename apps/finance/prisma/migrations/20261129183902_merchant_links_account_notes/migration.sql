-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "logo_url" TEXT,
ADD COLUMN     "website_url" TEXT;

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "notes" TEXT;
