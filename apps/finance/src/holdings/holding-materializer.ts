import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rates";
import { dateOf, isoDateOf } from "../ledger/dates";
import { PRICE_SCALE, QTY_SCALE, convertPrice, fromScaled, toScaled } from "./fixed-point";
import { calculateHoldings, type HoldingDay, type PositionTrade } from "./holding-calculator";

/** The account's trades that move a quantity, oldest first, as parallel arrays (quantity x 10^8, price x 10^4). */
interface TradeSeries {
  days: number[];
  security_ids: string[];
  /** Quantity x 10^8 as text: exact at any size. */
  qtys: string[];
  prices: number[];
  /** Null where the trade is in the account's currency. */
  currencies: (string | null)[];
}

/**
 * One security's rows, as arrays: a few rows of long arrays load far faster than many rows.
 * Scaled values travel as float8, exact for integers below 2^53 (quantities up to 90 million
 * units, prices and amounts far beyond any real one), so no decimal text is parsed per row.
 */
interface PriceSeries {
  security_id: string;
  days: number[];
  /** Price x 10^4. */
  prices: number[];
  /** Null where the price is in the account's currency. */
  currencies: (string | null)[];
}
interface StoredSeries {
  security_id: string;
  days: number[];
  qtys: string[];
  prices: number[];
  amounts: number[];
  avg_costs: (number | null)[];
}

type Account = { id: string; familyId: string; currency: string };

/**
 * Recomputes an investment account's holdings from `from` to `to` inside the balance
 * materializer's transaction (which holds the account's lock), writes only the rows that
 * changed (compared in memory with what is stored), removes the ones no longer true, and returns
 * each day's holdings value in the account's currency (cents): the day's non-cash balance.
 */
export async function materializeHoldings(
  tx: FinanceTx,
  account: Account,
  window: { from: string; to: string; full: boolean; today: string },
): Promise<Map<string, number>> {
  const { from, to, full } = window;
  // Rows are stored up to today (as Sure's); a future-dated entry still gets its days' values.
  const rowsUntil = window.today < to ? window.today : to;
  // One row of arrays (prices rounded half away from zero to 10^-4, as toScaled would).
  const [trades] = await tx.$queryRaw<TradeSeries[]>`
    SELECT coalesce(array_agg(e.date - DATE '1970-01-01' ORDER BY e.date, e.created_at, e.id), '{}') AS days,
           coalesce(array_agg(t.security_id::text ORDER BY e.date, e.created_at, e.id), '{}') AS security_ids,
           coalesce(array_agg((t.qty * 100000000)::bigint::text ORDER BY e.date, e.created_at, e.id), '{}') AS qtys,
           coalesce(array_agg(round(t.price * 10000)::float8 ORDER BY e.date, e.created_at, e.id), '{}') AS prices,
           coalesce(array_agg(NULLIF(t.currency, ${account.currency}) ORDER BY e.date, e.created_at, e.id), '{}') AS currencies
      FROM entries e JOIN trades t ON t.entry_id = e.id
     WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 AND e.date <= ${dateOf(to)}::date`;
  const securityIds = [...new Set(trades!.security_ids)];
  const convert = createPriceConverter(tx, account.familyId, account.currency);

  const positions: PositionTrade[] = [];
  for (let i = 0; i < trades!.days.length; i++) {
    const date = dayNumberToIso(trades!.days[i]!);
    const currency = trades!.currencies[i];
    const price = BigInt(trades!.prices[i]!);
    positions.push({
      date,
      securityId: trades!.security_ids[i]!,
      qty: BigInt(trades!.qtys[i]!),
      price: currency ? await convert(price, currency, date) : price,
    });
  }
  const { prices, pricesBefore } = await loadPrices(tx, account, securityIds, from, to, convert);
  const { rows, valueByDate } = calculateHoldings({ trades: positions, prices, pricesBefore, from, to, rowsUntil, digits: minorUnitDigits(account.currency) });
  await writeChanged(tx, account, rows, from, rowsUntil, full);

  const values = new Map<string, number>();
  for (const [date, cents] of valueByDate) values.set(date, Number(cents));
  return values;
}

/** Removes every holding of the account (it has no entries left). */
export async function clearHoldings(tx: FinanceTx, accountId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM holdings WHERE account_id = ${accountId}::uuid`;
}

type Converter = (price: bigint, currency: string, date: string) => Promise<bigint>;

/** Unit prices (10^-4) into the account's currency at the family's rate of the day (the latest on or before it); a missing rate fails the sync, never 1. */
function createPriceConverter(tx: FinanceTx, familyId: string, currency: string): Converter {
  const books = new Map<string, Promise<RateBook>>();
  return async (price, from, date) => {
    if (from === currency) return price;
    let book = books.get(from);
    if (!book) {
      book = storedRatesBetween(tx, familyId, from, currency).then((rates) => createRateBook(rates, from, currency));
      books.set(from, book);
    }
    return convertPrice(price, (await book).rateOn(date));
  };
}

/** The securities' stored prices from `from` to `to` (one a day: the account's currency first), and each one's last before `from`. */
async function loadPrices(tx: FinanceTx, account: Account, securityIds: string[], from: string, to: string, convert: Converter) {
  const prices = new Map<string, Map<string, bigint>>();
  const pricesBefore = new Map<string, { date: string; price: bigint }>();
  if (securityIds.length === 0) return { prices, pricesBefore };
  const series = await tx.$queryRaw<PriceSeries[]>`
    SELECT security_id::text AS security_id, array_agg(date - DATE '1970-01-01' ORDER BY date) AS days,
           array_agg((price * 10000)::float8 ORDER BY date) AS prices,
           array_agg(NULLIF(currency, ${account.currency}) ORDER BY date) AS currencies
      FROM (SELECT DISTINCT ON (security_id, date) security_id, date, price, currency
              FROM security_prices
             WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[])
               AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
             ORDER BY security_id, date, (currency = ${account.currency}) DESC, currency) AS daily
     GROUP BY security_id`;
  for (const { security_id, days, prices: scaled, currencies } of series) {
    const bySecurity = new Map<string, bigint>();
    for (let i = 0; i < days.length; i++) {
      const date = dayNumberToIso(days[i]!);
      const price = BigInt(scaled[i]!);
      const currency = currencies[i];
      bySecurity.set(date, currency ? await convert(price, currency, date) : price);
    }
    prices.set(security_id, bySecurity);
  }
  // Each security's latest price before the window: a short backward walk of its (security, date) index.
  const before = await tx.$queryRaw<{ security_id: string; date: Date; price: string; currency: string }[]>`
    SELECT s.id::text AS security_id, last.date, chosen.price::text AS price, chosen.currency
      FROM unnest(${securityIds}::uuid[]) AS s(id)
      CROSS JOIN LATERAL (SELECT date FROM security_prices
                           WHERE security_id = s.id AND date < ${dateOf(from)}::date ORDER BY date DESC LIMIT 1) AS last
      CROSS JOIN LATERAL (SELECT price, currency FROM security_prices
                           WHERE security_id = s.id AND date = last.date AND family_id = ${account.familyId}::uuid
                           ORDER BY (currency = ${account.currency}) DESC, currency LIMIT 1) AS chosen`;
  for (const row of before) {
    const date = isoDateOf(row.date);
    pricesBefore.set(row.security_id, { date, price: await convert(toScaled(row.price, PRICE_SCALE), row.currency, date) });
  }
  return { prices, pricesBefore };
}

/**
 * Writes the computed rows of the window that differ from the stored ones, and deletes the stored
 * rows of the window nothing computed (a security no longer traded, days before its first trade)
 * and those after `to`. Rows before `from` stay (a change there starts an earlier window), except
 * in a full run, which starts at the opening day. Rows in another currency exist only after the
 * account's currency changed, which recomputes in full. Stored
 * rows are compared in memory, per security by day, so a sync that changes little writes little.
 */
async function writeChanged(tx: FinanceTx, account: Account, rows: HoldingDay[], from: string, to: string, full: boolean): Promise<void> {
  await tx.$executeRaw`DELETE FROM holdings WHERE account_id = ${account.id}::uuid AND date > ${dateOf(to)}::date`;
  // A full run starts at the opening day: rows before it (an opening anchor moved later, a first trade deleted) are no longer true.
  if (full)
    await tx.$executeRaw`DELETE FROM holdings WHERE account_id = ${account.id}::uuid AND (date < ${dateOf(from)}::date OR currency <> ${account.currency})`;
  if (to < from) return;
  const stored = await tx.$queryRaw<StoredSeries[]>`
    SELECT security_id::text AS security_id, array_agg(date - DATE '1970-01-01') AS days, array_agg((qty * 100000000)::bigint::text) AS qtys,
           array_agg((price * 10000)::float8) AS prices, array_agg(amount_cents::float8) AS amounts, array_agg((avg_cost * 10000)::float8) AS avg_costs
      FROM holdings
     WHERE account_id = ${account.id}::uuid AND currency = ${account.currency} AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
     GROUP BY security_id`;
  const fromDay = isoToDayNumber(from);
  const bySecurity = new Map<string, { series: StoredSeries; index: Int32Array }>();
  for (const series of stored) {
    // Position of each day's stored row in the arrays (-1: none), by day offset in the window.
    const index = new Int32Array(isoToDayNumber(to) - fromDay + 1).fill(-1);
    for (let i = 0; i < series.days.length; i++) index[series.days[i]! - fromDay] = i;
    bySecurity.set(series.security_id, { series, index });
  }
  const changed: HoldingDay[] = [];
  for (const row of rows) {
    const stored = bySecurity.get(row.securityId);
    const offset = isoToDayNumber(row.date) - fromDay;
    const at = stored ? stored.index[offset]! : -1;
    if (at >= 0) {
      stored!.index[offset] = -1; // seen: what is left at the end is stale
      const { qtys, prices, amounts, avg_costs } = stored!.series;
      const same =
        qtys[at] === row.qty.toString() &&
        prices[at] === Number(row.price) &&
        amounts[at] === Number(row.amountCents) &&
        avg_costs[at] === (row.avgCost === null ? null : Number(row.avgCost));
      if (same) continue;
    }
    changed.push(row);
  }
  const staleSecurities: string[] = [];
  const staleDays: string[] = [];
  for (const [securityId, { index }] of bySecurity) {
    for (let offset = 0; offset < index.length; offset++) {
      if (index[offset]! < 0) continue;
      staleSecurities.push(securityId);
      staleDays.push(dayNumberToIso(fromDay + offset));
    }
  }
  if (staleDays.length > 0) {
    await tx.$executeRaw`
      DELETE FROM holdings h USING unnest(${staleSecurities}::uuid[], ${staleDays}::date[]) AS k(security_id, date)
       WHERE h.account_id = ${account.id}::uuid AND h.currency = ${account.currency} AND h.security_id = k.security_id AND h.date = k.date`;
  }
  await upsertHoldings(tx, account, changed);
}

/** One statement per 20,000 rows (arrays unnested). */
async function upsertHoldings(tx: FinanceTx, account: Account, rows: HoldingDay[]): Promise<void> {
  const BATCH = 20_000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    await tx.$executeRaw`
      INSERT INTO holdings (id, family_id, account_id, security_id, date, qty, price, amount_cents, currency, avg_cost, cost_basis_source, created_at, updated_at)
      SELECT gen_random_uuid(), ${account.familyId}::uuid, ${account.id}::uuid, t.security_id, t.date, t.qty, t.price, t.amount_cents, ${account.currency},
             t.avg_cost, CASE WHEN t.avg_cost IS NULL THEN NULL ELSE 'calculated' END, now(), now()
        FROM unnest(${batch.map((row) => row.securityId)}::uuid[], ${batch.map((row) => row.date)}::date[], ${batch.map((row) => fromScaled(row.qty, QTY_SCALE))}::numeric[],
                    ${batch.map((row) => fromScaled(row.price, PRICE_SCALE))}::numeric[], ${batch.map((row) => row.amountCents.toString())}::bigint[],
                    ${batch.map((row) => (row.avgCost === null ? null : fromScaled(row.avgCost, PRICE_SCALE)))}::numeric[])
             AS t(security_id, date, qty, price, amount_cents, avg_cost)
      ON CONFLICT (account_id, security_id, date, currency) DO UPDATE SET
        qty = EXCLUDED.qty, price = EXCLUDED.price, amount_cents = EXCLUDED.amount_cents, avg_cost = EXCLUDED.avg_cost,
        cost_basis_source = EXCLUDED.cost_basis_source, updated_at = now()`;
  }
}
