import type { BodyOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { changedColumns } from "../ledger/column-changes";

export type SettingsChanges = BodyOf<"familySettings.update">["family_settings"];

const CHANGE_COLUMNS = {
  name: "name",
  currency: "currency",
  locale: "locale",
  date_format: "dateFormat",
  country: "country",
  timezone: "timezone",
  month_start_day: "monthStartDay",
  moniker: "moniker",
  default_account_sharing: "defaultAccountSharing",
  custom_enabled_currencies: "customEnabledCurrencies",
  enabled_currencies: "enabledCurrencies",
  ai_enabled: "aiEnabled",
} as const;

/** One row per family, made with the defaults the first time it is read or changed. */
export function createFamilySettingsRepository(db: FinanceDb) {
  return {
    /**
     * A read, except the family's very first one, which makes the row. Several first reads race
     * (a client's parallel requests): Prisma's upsert reads, then inserts, and the loser's insert
     * failed on the key; ON CONFLICT DO NOTHING lets every one of them read the one row.
     */
    async get(familyId: string) {
      const found = await db.familySettings.findUnique({ where: { familyId } });
      if (found) return found;
      await db.$executeRaw`INSERT INTO family_settings (family_id, updated_at) VALUES (${familyId}::uuid, now()) ON CONFLICT (family_id) DO NOTHING`;
      return db.familySettings.findUniqueOrThrow({ where: { familyId } });
    },

    /** Read without making the row: asked before every chat request, and the column's default is the answer for a family without one. */
    async aiEnabled(familyId: string): Promise<boolean> {
      const found = await db.familySettings.findUnique({ where: { familyId }, select: { aiEnabled: true } });
      return found?.aiEnabled ?? true;
    },

    update(familyId: string, changes: SettingsChanges) {
      const data = changedColumns(changes, CHANGE_COLUMNS);
      return db.familySettings.upsert({ where: { familyId }, create: { familyId, ...data }, update: data });
    },
  };
}
export type FamilySettingsRepository = ReturnType<typeof createFamilySettingsRepository>;
