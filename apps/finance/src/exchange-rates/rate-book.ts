import { convertCents, createCarryingConversion, inverseRate, isUsableRate } from "./convert";

export class MissingExchangeRate extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly date: string,
  ) {
    super(`No exchange rate from ${from} to ${to} on or before ${date}`);
  }
}

/** A stored rate between two currencies: 1 `from` = `rate` of the other, from `date` (ISO) on. */
export interface StoredRate {
  date: string;
  from: string;
  rate: string;
}

/**
 * A family's stored rates between two currencies, oldest first: the rate of a day is the latest
 * one dated on or before it, whatever its age (a rate stored the other way round is inverted).
 * Never 1 by default. Sure looks back at most 5 days because its provider fetches a rate every
 * day; Hearth's rates are entered by the family, so the last one entered stands until the next.
 * A stored rate of 0 is left out, as if absent (see isUsableRate).
 */
export function createRateBook(rates: readonly StoredRate[], from: string, to: string) {
  // Direct rates win over inverted ones of the same day.
  const byDate = new Map<string, string>();
  for (const stored of rates) {
    if (!isUsableRate(stored.rate)) continue;
    const direct = stored.from === from;
    if (direct || !byDate.has(stored.date)) byDate.set(stored.date, direct ? stored.rate : inverseRate(stored.rate));
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
    /** A converter for a stream of flows (oldest first) whose running totals stay exact; see createCarryingConversion. */
    carrying(): (cents: bigint, date: string) => bigint {
      const convert = createCarryingConversion(from, to);
      return (cents, date) => convert(cents, this.rateOn(date));
    },
  };
}
export type RateBook = ReturnType<typeof createRateBook>;
