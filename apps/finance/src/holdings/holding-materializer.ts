import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rates";
import { dateOf, isoDateOf } from "../ledger/dates";
import { PRICE_SCALE, QTY_SCALE, convertPrice, fromScaled, toScaled } from "./fixed-point";
import { calculateHoldings, type PositionTrade } from "./holding-calculator";

interface TradeRow {
  date: Date;
  security_id: string;
  qty: string;
  price: string;
  currency: string;
}
interface PriceRow {
  security_id: string;
  date: Date;
  price: string;
  currency: string;
}

/**
 * Recomputes an investment account's holdings from `from` to `to` inside the balance
 * materializer's transaction (which holds the account's lock), writes only the rows that
 * changed, removes the ones no longer true, and returns each day's holdings value in the
 * account's currency (cents), which becomes the day's non-cash balance.
 */
export async function materializeHoldings(
  tx: FinanceTx,
  account: { id: string; familyId: string; currency: string },
  from: string,
  to: string,
): Promise<Map<string, number>> {
  const trades = await tx.$queryRaw<TradeRow[]>`
    SELECT e.date, t.security_id::text AS security_id, t.qty::text AS qty, t.price::text AS price, t.currency
      FROM entries e JOIN trades t ON t.entry_id = e.id
     WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 AND e.date <= ${dateOf(to)}::date
     ORDER BY e.date, e.created_at, e.id`;
  const securityIds = [...new Set(trades.map((trade) => trade.security_id))];
  const converter = createPriceConverter(tx, account.familyId, account.currency);

  const positions: PositionTrade[] = [];
  for (const trade of trades) {
    const date = isoDateOf(trade.date);
    positions.push({
      date,
      securityId: trade.security_id,
      qty: toScaled(trade.qty, QTY_SCALE),
      price: await converter(toScaled(trade.price, PRICE_SCALE), trade.currency, date),
    });
  }

  const prices = new Map<string, Map<string, bigint>>();
  const pricesBefore = new Map<string, { date: string; price: bigint }>();
  if (securityIds.length > 0) {
    // One price per security and day: the account's currency first, else any.
    const rows = await tx.$queryRaw<PriceRow[]>`
      SELECT DISTINCT ON (security_id, date) security_id::text AS security_id, date, price::text AS price, currency
        FROM security_prices
       WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[])
         AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
       ORDER BY security_id, date, (currency = ${account.currency}) DESC, currency`;
    for (const row of rows) {
      const date = isoDateOf(row.date);
      let bySecurity = prices.get(row.security_id);
      if (!bySecurity) prices.set(row.security_id, (bySecurity = new Map()));
      bySecurity.set(date, await converter(toScaled(row.price, PRICE_SCALE), row.currency, date));
    }
    const before = await tx.$queryRaw<PriceRow[]>`
      SELECT DISTINCT ON (security_id) security_id::text AS security_id, date, price::text AS price, currency
        FROM security_prices
       WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[]) AND date < ${dateOf(from)}::date
       ORDER BY security_id, date DESC, (currency = ${account.currency}) DESC, currency`;
    for (const row of before) {
      const date = isoDateOf(row.date);
      pricesBefore.set(row.security_id, { date, price: await converter(toScaled(row.price, PRICE_SCALE), row.currency, date) });
    }
  }

  const { rows, valueByDate } = calculateHoldings({ trades: positions, prices, pricesBefore, from, to, digits: minorUnitDigits(account.currency) });
  await upsertHoldings(tx, account, rows);
  // Rows of the window no longer true: after `to`, in another currency, of a security no longer
  // traded, or before its first trade. Rows before `from` stay: a change there starts an earlier window.
  await tx.$executeRaw`
    WITH firsts AS (
      SELECT t.security_id, min(e.date) AS first_date FROM entries e JOIN trades t ON t.entry_id = e.id
       WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 GROUP BY t.security_id)
    DELETE FROM holdings h
     WHERE h.account_id = ${account.id}::uuid AND h.date >= ${dateOf(from)}::date
       AND (h.date > ${dateOf(to)}::date OR h.currency <> ${account.currency}
            OR NOT EXISTS (SELECT 1 FROM firsts f WHERE f.security_id = h.security_id AND h.date >= f.first_date))`;
  const values = new Map<string, number>();
  for (const [date, cents] of valueByDate) values.set(date, Number(cents));
  return values;
}

/** Removes every holding of the account (it has no entries left). */
export async function clearHoldings(tx: FinanceTx, accountId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM holdings WHERE account_id = ${accountId}::uuid`;
}

/** Unit prices into the account's currency at the family's rate of the day (the latest on or before it); a missing rate fails the sync, never 1. */
function createPriceConverter(tx: FinanceTx, familyId: string, currency: string) {
  const books = new Map<string, Promise<RateBook>>();
  return async (price: bigint, from: string, date: string): Promise<bigint> => {
    if (from === currency) return price;
    let book = books.get(from);
    if (!book) {
      book = storedRatesBetween(tx, familyId, from, currency).then((rates) => createRateBook(rates, from, currency));
      books.set(from, book);
    }
    return convertPrice(price, (await book).rateOn(date));
  };
}

/** One statement for all rows (arrays unnested); unchanged rows are not rewritten. */
async function upsertHoldings(
  tx: FinanceTx,
  account: { id: string; familyId: string; currency: string },
  rows: ReturnType<typeof calculateHoldings>["rows"],
): Promise<void> {
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
        cost_basis_source = EXCLUDED.cost_basis_source, updated_at = now()
      WHERE (holdings.qty, holdings.price, holdings.amount_cents, holdings.avg_cost, holdings.cost_basis_source)
            IS DISTINCT FROM (EXCLUDED.qty, EXCLUDED.price, EXCLUDED.amount_cents, EXCLUDED.avg_cost, EXCLUDED.cost_basis_source)`;
  }
}
