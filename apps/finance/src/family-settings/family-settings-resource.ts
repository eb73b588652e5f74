import type { FamilySettings } from "@hearth/contracts";
import type { FamilySettings as SettingsRow } from "../generated/prisma/client";

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
    ai_enabled: row.aiEnabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
