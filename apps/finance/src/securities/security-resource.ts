import type { Security } from "@hearth/contracts";
import type { Security as SecurityRow } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";

/**
 * Sure's Security JSON (its key order). `exchange_name` falls back to the MIC as Sure's does when
 * its exchange list does not know it (we keep no such list: a stored name, else the MIC).
 */
export function toSecurityResource(row: SecurityRow): Security {
  return {
    id: row.id,
    ticker: row.ticker,
    name: row.name,
    kind: row.kind,
    country_code: row.countryCode,
    exchange_mic: row.exchangeMic,
    exchange_acronym: row.exchangeAcronym,
    exchange_operating_mic: row.exchangeOperatingMic,
    exchange_name: row.exchangeName ?? row.exchangeOperatingMic,
    offline: row.offline,
    offline_reason: row.offlineReason,
    website_url: row.websiteUrl,
    logo_url: row.logoUrl,
    first_provider_price_on: row.firstProviderPriceOn ? isoDateOf(row.firstProviderPriceOn) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The short form a trade or holding names its security by. */
export function toSecurityRef(row: Pick<SecurityRow, "id" | "ticker" | "name">) {
  return { id: row.id, ticker: row.ticker, name: row.name };
}
