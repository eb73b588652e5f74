import type { FamilySettings } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { FamilySettings as SettingsRow } from "../generated/prisma/client";

export interface SettingsChanges {
  name?: string | null | undefined;
  currency?: string | undefined;
  locale?: string | undefined;
  date_format?: string | undefined;
  country?: string | null | undefined;
  timezone?: string | null | undefined;
  month_start_day?: number | undefined;
  moniker?: "Family" | "Group" | undefined;
  default_account_sharing?: "shared" | "private" | undefined;
  custom_enabled_currencies?: boolean | undefined;
  enabled_currencies?: string[] | undefined;
}

/**
 * Without custom currencies a family works in its own currency alone; with them, the list
 * always includes the family currency, once, in the order given.
 */
function enabledCurrenciesOf(row: SettingsRow): string[] {
  if (!row.customEnabledCurrencies) return [row.currency];
  return [...new Set([row.currency, ...row.enabledCurrencies])];
}

export function toFamilySettingsResource(row: SettingsRow): FamilySettings {
  return {
    id: row.familyId,
    name: row.name,
    currency: row.currency,
    locale: row.locale,
    date_format: row.dateFormat,
    country: row.country,
    timezone: row.timezone,
    month_start_day: row.monthStartDay,
    moniker: row.moniker === "Group" ? "Group" : "Family",
    default_account_sharing: row.defaultAccountSharing === "private" ? "private" : "shared",
    custom_enabled_currencies: row.customEnabledCurrencies,
    enabled_currencies: enabledCurrenciesOf(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One row per family, made with the defaults the first time it is read or changed. */
export function createFamilySettingsRepository(db: FinanceDb) {
  return {
    /** A read, except the family's very first one, which makes the row (upsert: two first reads may race). */
    async get(familyId: string) {
      return (
        (await db.familySettings.findUnique({ where: { familyId } })) ?? db.familySettings.upsert({ where: { familyId }, create: { familyId }, update: {} })
      );
    },

    update(familyId: string, changes: SettingsChanges) {
      const data = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.currency !== undefined ? { currency: changes.currency } : {}),
        ...(changes.locale !== undefined ? { locale: changes.locale } : {}),
        ...(changes.date_format !== undefined ? { dateFormat: changes.date_format } : {}),
        ...(changes.country !== undefined ? { country: changes.country } : {}),
        ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
        ...(changes.month_start_day !== undefined ? { monthStartDay: changes.month_start_day } : {}),
        ...(changes.moniker !== undefined ? { moniker: changes.moniker } : {}),
        ...(changes.default_account_sharing !== undefined ? { defaultAccountSharing: changes.default_account_sharing } : {}),
        ...(changes.custom_enabled_currencies !== undefined ? { customEnabledCurrencies: changes.custom_enabled_currencies } : {}),
        ...(changes.enabled_currencies !== undefined ? { enabledCurrencies: [...new Set(changes.enabled_currencies)] } : {}),
      };
      return db.familySettings.upsert({ where: { familyId }, create: { familyId, ...data }, update: data });
    },
  };
}
export type FamilySettingsRepository = ReturnType<typeof createFamilySettingsRepository>;
