import { AppError, trimTrailing } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { PRICE_SCALE, fromScaled, toScaled } from "../holdings/fixed-point";
import { addDays, isoDateOf } from "../ledger/dates";
import { carryForward, lockSecurityForPrices, upsertRealPrices } from "./price-import-queries";

/**
 * How far a real price is carried forward: ten years and a margin for leap days. A security
 * without any price for that long has stopped trading (or its owner stopped recording it);
 * carrying further would write a row a day without end (one price from 1970 is 20,000 rows per
 * currency), and every later import would walk them again.
 */
export const CARRY_FORWARD_MAX_DAYS = 3660;

/** A price as it comes in: ISO date, decimal text, currency code. */
export interface IncomingPrice {
  date: string;
  price: string;
  currency: string;
}

/** A security's price on a day as the table should hold it. */
export interface DailyPrice {
  date: string;
  price: string;
  provisional: boolean;
}

/** A price a client sent, checked: above 0 and at most four decimals (the column's scale), as four-decimal text. */
export function parsePriceText(text: string): { price: string } | { error: string } {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return { error: "Price must be a number like 12.34" };
  const [, sign, whole = "", fraction = ""] = match;
  if (sign === "-" || !/[1-9]/u.test(whole + fraction)) return { error: "Price must be greater than 0" };
  if (trimTrailing(fraction, "0").length > PRICE_SCALE) return { error: `Price has at most ${PRICE_SCALE} decimal places` };
  return { price: fromScaled(toScaled(text, PRICE_SCALE), PRICE_SCALE) };
}

/**
 * The real prices of one import per currency, one per day (the last one given wins), sorted by
 * date. A provider's price with more than four decimals is rounded to four; a price of 0 or less
 * is no price (Sure's importer carries the previous one over it).
 */
export function realPricesByCurrency(prices: readonly IncomingPrice[]): Map<string, { date: string; price: string }[]> {
  const byCurrency = new Map<string, Map<string, string>>();
  for (const { date, price, currency } of prices) {
    const scaled = toScaled(price, PRICE_SCALE);
    if (scaled <= 0n) continue;
    const days = byCurrency.get(currency) ?? new Map<string, string>();
    days.set(date, fromScaled(scaled, PRICE_SCALE));
    byCurrency.set(currency, days);
  }
  const sorted = new Map<string, { date: string; price: string }[]>();
  for (const [currency, days] of byCurrency) {
    sorted.set(
      currency,
      [...days].map(([date, price]) => ({ date, price })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
    );
  }
  return sorted;
}

/**
 * The whole daily series one currency of a security should have, from its real prices: each real
 * price, and every later day up to `today` without one carrying the last real price before it
 * (provisional), at most CARRY_FORWARD_MAX_DAYS past it. The reference the SQL of `importPrices`
 * must agree with (the tests compare them); too slow for the request path only by being row by row.
 */
export function dailyPriceSeries(reals: readonly { date: string; price: string }[], today: string, maxDays = CARRY_FORWARD_MAX_DAYS): DailyPrice[] {
  const sorted = [...reals].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const series: DailyPrice[] = [];
  sorted.forEach((real, index) => {
    series.push({ date: real.date, price: real.price, provisional: false });
    const next = sorted[index + 1]?.date;
    for (let day = 1; day <= maxDays; day++) {
      const date = addDays(real.date, day);
      if (date > today || (next !== undefined && date >= next)) break;
      series.push({ date, price: real.price, provisional: true });
    }
  });
  return series;
}

/**
 * Stores real prices of one security (already the family's) and brings its carried prices up to
 * date; returns the earliest day whose stored price changed (value, flag, or presence), or null.
 *
 * 1. Real prices are upserted per (security, date, currency): a provisional row for that day
 *    becomes real (flag cleared); the same real price again changes nothing.
 * 2. Per currency touched, from the last real price before the earliest day imported (so a gap
 *    left when `today` was earlier is filled too) up to `today`: every day without a real price
 *    gets a provisional row carrying the last real price before it, within CARRY_FORWARD_MAX_DAYS;
 *    provisional rows carrying a value no longer right are updated, those no longer needed deleted.
 *
 * Both steps are one statement each over the whole range (generate_series, INSERT ... ON CONFLICT,
 * DELETE), so ten years of daily prices cost a few thousand rows in the database, not round trips.
 * The security's row is locked first: two imports of one security at once would otherwise each
 * carry their own snapshot of real prices over the other's days. (NO KEY UPDATE: trades being
 * written for the security only take a key share lock on it and are not held up.)
 */
export async function importPrices(
  tx: FinanceTx,
  familyId: string,
  securityId: string,
  prices: readonly IncomingPrice[],
  today: string,
): Promise<string | null> {
  if (!(await lockSecurityForPrices(tx, familyId, securityId))) throw AppError.notFound("Security");

  let earliest: string | null = null;
  const note = (date: Date | null) => {
    if (date === null) return;
    const iso = isoDateOf(date);
    if (earliest === null || iso < earliest) earliest = iso;
  };

  for (const [currency, reals] of realPricesByCurrency(prices)) {
    const series = { familyId, securityId, currency };
    note(await upsertRealPrices(tx, series, reals));
    note(await carryForward(tx, series, reals[0]!.date, today, CARRY_FORWARD_MAX_DAYS));
  }
  return earliest;
}
