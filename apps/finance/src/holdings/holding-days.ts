// A day's holding from its position span: the span's quantity and average cost, valued at the
// day's price. The price rule is the calculator's (holding-calculator.ts), so a day's amounts add
// up to the non-cash balance the sync stored: the most recent of the stored prices and the trade
// prices on or before the day, a stored price winning over a trade's of the same day.
import { AppError, minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { valueInMinorUnits } from "./fixed-point";
import type { PriceSeries } from "./holding-calculator";
import { latestPricesOnOrBefore } from "./holding-price-queries";
import { createPriceConverter, type PriceConverter } from "./holding-prices";
import { holdingIdOf } from "./holding-ids";
import { dayNumberToIso } from "../balances/calendar-days";
import { MissingExchangeRate } from "../exchange-rates/rate-book";

/** What the price of a span's day depends on: its last trade's price and day. */
export interface SpanPricing {
  tradePrice: bigint;
  tradePriceDay: number;
}

/** The day's unit price: the stored one on or before the day (converted), unless the span's trade is more recent. */
export function priceOfDay(span: SpanPricing, stored: { day: number; price: bigint } | null): bigint {
  return stored !== null && stored.day >= span.tradePriceDay ? stored.price : span.tradePrice;
}

/** A span's day, as reads and exports list them; figures are scaled integers (qty 10^-8, prices 10^-4). */
export interface SpanDay extends SpanPricing {
  positionKey: string;
  securityId: string;
  /** The account's currency. */
  currency: string;
  day: number;
  qty: bigint;
  avgCost: bigint | null;
}

export interface PricedDay<T extends SpanDay = SpanDay> {
  span: T;
  id: string;
  date: string;
  price: bigint;
  amountCents: bigint;
  /** When the stored price the day is valued at was written (null: valued at the span's trade price). */
  priceUpdatedAt: Date | null;
}

function priced<T extends SpanDay>(span: T, price: bigint, priceUpdatedAt: Date | null): PricedDay<T> {
  return {
    span,
    id: holdingIdOf(span.positionKey, span.day),
    date: dayNumberToIso(span.day),
    price,
    amountCents: valueInMinorUnits(span.qty, price, minorUnitDigits(span.currency)),
    priceUpdatedAt,
  };
}

/** Prices a page of span days: one lookup of the latest stored price per day, converted at the family's rates. */
export async function priceSpanDays<T extends SpanDay>(tx: FinanceTx, familyId: string, days: readonly T[]): Promise<PricedDay<T>[]> {
  const stored = await latestPricesOnOrBefore(tx, familyId, days);
  const converters = new Map<string, PriceConverter>();
  const result: PricedDay<T>[] = new Array<PricedDay<T>>(days.length);
  for (let i = 0; i < days.length; i++) {
    const span = days[i]!;
    const found = stored[i];
    let price: { day: number; price: bigint } | null = null;
    // A stored price older than the span's trade loses anyway: no conversion (nor rate) needed for it.
    if (found && found.day >= span.tradePriceDay) {
      let convert = converters.get(span.currency);
      if (!convert) {
        convert = createPriceConverter(tx, familyId, span.currency);
        converters.set(span.currency, convert);
      }
      price = { day: found.day, price: await convertOrRefuse(convert, found.price, found.currency, dayNumberToIso(found.day)) };
    }
    const day = priced(span, priceOfDay(span, price), price && found ? found.updatedAt : null);
    // A price recorded since the last sync can value a day beyond what an amount holds (the sync refuses it too).
    if (!Number.isSafeInteger(Number(day.amountCents)))
      throw new AppError("unprocessable_entity", { message: `A holding's value on ${day.date} is too large for an amount: check the security's prices` });
    result[i] = day;
  }
  return result;
}

/** A missing rate is the family's to add (the sync fails on it too): a 422 that names it, never a 500 nor a rate of 1. */
async function convertOrRefuse(convert: PriceConverter, price: bigint, currency: string, date: string): Promise<bigint> {
  try {
    return await convert(price, currency, date);
  } catch (err) {
    if (err instanceof MissingExchangeRate) throw new AppError("unprocessable_entity", { message: err.message, cause: err });
    throw err;
  }
}

/** A position's spans (one security, oldest first) walked day by day up to `lastDay`, priced from the security's converted series: what an export writes. */
export function* positionDays<T extends SpanDay>(
  spans: readonly Omit<T, "day">[],
  series: PriceSeries | undefined,
  starts: readonly number[],
  ends: readonly number[],
): Generator<PricedDay<T>> {
  let cursor = -1;
  for (let s = 0; s < spans.length; s++) {
    for (let day = starts[s]!; day <= ends[s]!; day++) {
      while (series && cursor + 1 < series.days.length && series.days[cursor + 1]! <= day) cursor++;
      const stored = series && cursor >= 0 ? { day: series.days[cursor]!, price: series.prices[cursor]! } : null;
      const span = { ...spans[s]!, day } as T;
      yield priced(span, priceOfDay(span, stored), null);
    }
  }
}
