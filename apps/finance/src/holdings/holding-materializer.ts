import { randomBytes } from "node:crypto";
import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rates";
import { dateOf, isoDateOf } from "../ledger/dates";
import { PRICE_SCALE, convertPrice, toScaled } from "./fixed-point";
import { calculateHoldings, type HoldingDay, type PositionTrade, type PriceSeries } from "./holding-calculator";

/**
 * Rows come back as a few long comma-joined texts (one per column, per security where grouped):
 * splitting a text is far cheaper than parsing a Postgres array or many rows, and integers in
 * text stay exact at any size. A missing value (a price in the account's currency, no avg cost)
 * is an empty field, so the columns stay aligned.
 */
interface TradeColumns {
  days: string;
  security_ids: string;
  /** Quantity x 10^8. */
  qtys: string;
  /** Price x 10^4. */
  prices: string;
  currencies: string;
}
interface PriceColumns {
  security_id: string;
  days: string;
  prices: string;
  currencies: string;
}
interface StoredColumns {
  security_id: string;
  days: string;
  qtys: string;
  prices: string;
  amounts: string;
  avg_costs: string;
}

const fieldsOf = (text: string | null): string[] => (text === null ? [] : text.split(","));

/** One security's stored rows of the window, as decimal texts of scaled integers ("" for no avg cost). */
interface StoredSeries {
  qtys: string[];
  prices: string[];
  amounts: string[];
  avgCosts: string[];
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
  // A long window sorts a few hundred thousand prices and rows: in memory, not in temporary files (this transaction only).
  await tx.$executeRaw`SELECT set_config('work_mem', '64MB', true)`;
  // One row of arrays (prices rounded half away from zero to 10^-4, as toScaled would).
  const [trades] = await tx.$queryRaw<TradeColumns[]>`
    SELECT string_agg((o.date - DATE '1970-01-01')::text, ',') AS days, string_agg(o.security_id::text, ',') AS security_ids,
           string_agg(round(o.qty * 100000000)::text, ',') AS qtys, string_agg(round(o.price * 10000)::text, ',') AS prices,
           string_agg(coalesce(NULLIF(o.currency, ${account.currency}), ''), ',') AS currencies
      FROM (SELECT e.date, t.security_id, t.qty, t.price, t.currency
              FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 AND e.date <= ${dateOf(to)}::date
             ORDER BY e.date, e.created_at, e.id) AS o`;
  const tradeDays = fieldsOf(trades!.days);
  const tradeSecurities = fieldsOf(trades!.security_ids);
  const tradeQtys = fieldsOf(trades!.qtys);
  const tradePrices = fieldsOf(trades!.prices);
  const tradeCurrencies = fieldsOf(trades!.currencies);
  const securityIds = [...new Set(tradeSecurities)];
  const convert = createPriceConverter(tx, account.familyId, account.currency);

  const positions: PositionTrade[] = [];
  for (let i = 0; i < tradeDays.length; i++) {
    const date = dayNumberToIso(Number(tradeDays[i]));
    const currency = tradeCurrencies[i];
    const price = BigInt(tradePrices[i]!);
    positions.push({ date, securityId: tradeSecurities[i]!, qty: BigInt(tradeQtys[i]!), price: currency ? await convert(price, currency, date) : price });
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
  const prices = new Map<string, PriceSeries>();
  const pricesBefore = new Map<string, { date: string; price: bigint }>();
  if (securityIds.length === 0) return { prices, pricesBefore };
  // Prices rounded half away from zero to 10^-4, as toScaled rounds them.
  const series = await tx.$queryRaw<PriceColumns[]>`
    SELECT security_id::text AS security_id, string_agg((date - DATE '1970-01-01')::text, ',' ORDER BY date) AS days,
           string_agg(round(price * 10000)::text, ',' ORDER BY date) AS prices,
           string_agg(coalesce(NULLIF(currency, ${account.currency}), ''), ',' ORDER BY date) AS currencies
      FROM (SELECT DISTINCT ON (security_id, date) security_id, date, price, currency
              FROM security_prices
             WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[])
               AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
             ORDER BY security_id, date, (currency = ${account.currency}) DESC, currency) AS daily
     GROUP BY security_id`;
  for (const row of series) {
    const days = fieldsOf(row.days).map(Number);
    const scaled = fieldsOf(row.prices);
    const currencies = fieldsOf(row.currencies);
    const converted: bigint[] = new Array<bigint>(days.length);
    for (let i = 0; i < days.length; i++) {
      const price = BigInt(scaled[i]!);
      const currency = currencies[i];
      converted[i] = currency ? await convert(price, currency, dayNumberToIso(days[i]!)) : price;
    }
    prices.set(row.security_id, { days, prices: converted });
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
  const stored = await tx.$queryRaw<StoredColumns[]>`
    SELECT security_id::text AS security_id, string_agg((date - DATE '1970-01-01')::text, ',') AS days, string_agg(round(qty * 100000000)::text, ',') AS qtys,
           string_agg(round(price * 10000)::text, ',') AS prices, string_agg(amount_cents::text, ',') AS amounts,
           string_agg(coalesce(round(avg_cost * 10000)::text, ''), ',') AS avg_costs
      FROM holdings
     WHERE account_id = ${account.id}::uuid AND currency = ${account.currency} AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
     GROUP BY security_id`;
  const fromDay = isoToDayNumber(from);
  const bySecurity = new Map<string, { series: StoredSeries; index: Int32Array }>();
  for (const columns of stored) {
    const series: StoredSeries = {
      qtys: fieldsOf(columns.qtys),
      prices: fieldsOf(columns.prices),
      amounts: fieldsOf(columns.amounts),
      avgCosts: fieldsOf(columns.avg_costs),
    };
    // Position of each day's stored row in the columns (-1: none), by day offset in the window.
    const index = new Int32Array(isoToDayNumber(to) - fromDay + 1).fill(-1);
    const days = fieldsOf(columns.days);
    for (let i = 0; i < days.length; i++) index[Number(days[i]) - fromDay] = i;
    bySecurity.set(columns.security_id, { series, index });
  }
  const changed: HoldingDay[] = [];
  for (const row of rows) {
    const stored = bySecurity.get(row.securityId);
    const offset = isoToDayNumber(row.date) - fromDay;
    const at = stored ? stored.index[offset]! : -1;
    if (at >= 0) {
      stored!.index[offset] = -1; // seen: what is left at the end is stale
      const { qtys, prices, amounts, avgCosts } = stored!.series;
      const same =
        qtys[at] === row.qty.toString() &&
        prices[at] === row.price.toString() &&
        amounts[at] === row.amountCents.toString() &&
        avgCosts[at] === (row.avgCost === null ? "" : row.avgCost.toString());
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

/**
 * The first 24 hex digits of a UUIDv7 (RFC 9562): the time in milliseconds, then random bits.
 * A statement's rows append their ordinal, so their ids rise: the primary key's index grows at
 * its right edge instead of taking random inserts, and no random number is drawn per row.
 */
function idPrefix(): string {
  const time = Date.now().toString(16).padStart(12, "0");
  const random = randomBytes(5).toString("hex"); // 40 random bits: 3 + 3 + 4 hex digits below
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 10)}0`;
}

/**
 * One statement per 20,000 rows. Each column travels as one comma-joined text of scaled integers
 * (securities as an index into a short list, days as day numbers), which Postgres splits and
 * scales back exactly: far less to serialise than one array element per value.
 */
async function upsertHoldings(tx: FinanceTx, account: Account, rows: HoldingDay[]): Promise<void> {
  const BATCH = 20_000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const securityIds = [...new Set(batch.map((row) => row.securityId))];
    const securityIndex = new Map(securityIds.map((id, index) => [id, index + 1]));
    const column = (value: (row: HoldingDay) => string) => batch.map(value).join(",");
    await tx.$executeRaw`
      INSERT INTO holdings (id, family_id, account_id, security_id, date, qty, price, amount_cents, currency, avg_cost, cost_basis_source, created_at, updated_at)
      SELECT (${idPrefix()} || lpad(to_hex(t.n), 8, '0'))::uuid, ${account.familyId}::uuid, ${account.id}::uuid, (${securityIds}::uuid[])[t.security::int], DATE '1970-01-01' + t.day::int,
             t.qty::numeric * 0.00000001, t.price::numeric * 0.0001, t.amount_cents::bigint, ${account.currency},
             NULLIF(t.avg_cost, '')::numeric * 0.0001, CASE WHEN t.avg_cost = '' THEN NULL ELSE 'calculated' END, now(), now()
        FROM unnest(string_to_array(${column((row) => String(securityIndex.get(row.securityId)))}, ','), string_to_array(${column((row) => String(isoToDayNumber(row.date)))}, ','),
                    string_to_array(${column((row) => row.qty.toString())}, ','), string_to_array(${column((row) => row.price.toString())}, ','),
                    string_to_array(${column((row) => row.amountCents.toString())}, ','), string_to_array(${column((row) => (row.avgCost === null ? "" : row.avgCost.toString()))}, ','))
             WITH ORDINALITY AS t(security, day, qty, price, amount_cents, avg_cost, n)
      ON CONFLICT (account_id, date, security_id, currency) DO UPDATE SET
        qty = EXCLUDED.qty, price = EXCLUDED.price, amount_cents = EXCLUDED.amount_cents, avg_cost = EXCLUDED.avg_cost,
        cost_basis_source = EXCLUDED.cost_basis_source, updated_at = now()`;
  }
}
