import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import { convertCents, inverseRate } from "./convert";

type Tx = Prisma.TransactionClient;

export class MissingExchangeRate extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly date: string,
  ) {
    super(`No exchange rate from ${from} to ${to} on or before ${date}`);
  }
}

/**
 * A family's stored rates between two currencies, loaded once: the rate of a day is the latest
 * one dated on or before it (a rate stored the other way round is inverted). Never 1 by default.
 */
export async function loadRateBook(db: Tx | FinanceDb, familyId: string, from: string, to: string) {
  const rows = await db.exchangeRate.findMany({
    where: {
      familyId,
      OR: [
        { fromCurrency: from, toCurrency: to },
        { fromCurrency: to, toCurrency: from },
      ],
    },
    orderBy: { date: "asc" },
  });
  // Direct rates win over inverted ones of the same day.
  const byDate = new Map<string, string>();
  for (const row of rows) {
    const date = isoDateOf(row.date);
    const direct = row.fromCurrency === from;
    if (direct || !byDate.has(date)) byDate.set(date, direct ? row.rate.toFixed() : inverseRate(row.rate.toFixed()));
  }
  const dates = [...byDate.keys()].sort();
  return {
    rateOn(date: string): string {
      let low = 0;
      let high = dates.length - 1;
      let found = -1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if (dates[mid]! <= date) {
          found = mid;
          low = mid + 1;
        } else high = mid - 1;
      }
      if (found < 0) throw new MissingExchangeRate(from, to, date);
      return byDate.get(dates[found]!)!;
    },
    convert(cents: bigint, date: string): bigint {
      return convertCents(cents, this.rateOn(date), from, to);
    },
  };
}
export type RateBook = Awaited<ReturnType<typeof loadRateBook>>;
