-- AlterTable
ALTER TABLE "family_settings" ADD COLUMN     "ai_enabled" BOOLEAN NOT NULL DEFAULT true;
