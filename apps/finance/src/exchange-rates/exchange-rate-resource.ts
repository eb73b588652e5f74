import type { OutputOf } from "@hearth/contracts";
import type { ExchangeRate } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";

export function toExchangeRateResource(row: ExchangeRate): OutputOf<"exchangeRates.get"> {
  return {
    id: row.id,
    from_currency: row.fromCurrency,
    to_currency: row.toCurrency,
    date: isoDateOf(row.date),
    rate: row.rate.toFixed(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
