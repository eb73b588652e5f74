import { randomBytes } from "node:crypto";
import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { avgCostOf, calculateHoldings, type PositionStart, type PositionTrade } from "./holding-calculator";
import { positionKeyOf } from "./holding-ids";
import { createPriceConverter, loadPriceWindow, type PriceConverter } from "./holding-prices";
import { positionSpans, type PositionSpan } from "./position-spans";

/**
 * Rows come back as a few long comma-joined texts (one per column): splitting a text is far
 * cheaper than parsing a Postgres array or many rows, and integers in text stay exact at any
 * size. A missing value (a price in the account's currency, no avg cost, an open end) is an
 * empty field, so the columns stay aligned.
 */
interface TradeColumns {
  days: string | null;
  security_ids: string | null;
  /** Quantity x 10^8. */
  qtys: string | null;
  /** Price x 10^4. */
  prices: string | null;
  currencies: string | null;
}
interface SpanColumns {
  ids: string | null;
  /** `${security_id}|${currency}|${start day}`: what a computed span is matched by. */
  keys: string | null;
  /** `${end day}|${qty}|${avg cost}|${trade price}|${trade price day}`, scaled integers: what decides a rewrite. */
  figures: string | null;
}

const fieldsOf = (text: string | null): string[] => (text === null ? [] : text.split(","));

type Account = { id: string; familyId: string; currency: string };

/**
 * Recomputes an investment account's holdings inside the balance materializer's transaction
 * (which holds the account's lock): the spans of its positions, writing only those that changed,
 * and each day's holdings value from `from` to `to` in the account's currency (cents), which is
 * the day's non-cash balance. A window that starts mid-history (`full` false) reads the trades from
 * `from` on and the positions the earlier ones left, summed in the database, and rewrites only the
 * spans from `from` on: a backdated trade costs its window, not the account's whole history.
 */
export async function materializeHoldings(tx: FinanceTx, account: Account, window: { from: string; to: string; full: boolean }): Promise<Map<string, number>> {
  const { from, to } = window;
  // A long window sorts a few hundred thousand prices: in memory, not in temporary files (this transaction only).
  await tx.$executeRaw`SELECT set_config('work_mem', '64MB', true)`;
  const convert = createPriceConverter(tx, account.familyId, account.currency);
  const partial = window.full ? null : await windowStart(tx, account, from);
  const trades = await loadTrades(tx, account, partial ? from : null, convert);
  if (partial && !trades.foreign) {
    await writeChangedSpans(tx, account, positionSpans(trades.list, partial.positions), { from, carriedIn: partial.carriedIn });
  } else if (partial) {
    // A trade in another currency: its converted price is only known trade by trade, so the positions before are not summed.
    return materializeHoldings(tx, account, { ...window, full: true });
  } else {
    await writeChangedSpans(tx, account, positionSpans(trades.list), null);
  }

  const windowTrades = trades.list.filter((trade) => trade.date <= to);
  const securityIds = [...new Set([...windowTrades.map((trade) => trade.securityId), ...(partial?.positions.keys() ?? [])])];
  const { prices, pricesBefore } = await loadPriceWindow(tx, account, securityIds, from, to, convert);
  const { valueByDate } = calculateHoldings({
    trades: windowTrades,
    ...(partial ? { positionsBefore: partial.positions } : {}),
    prices,
    pricesBefore,
    from,
    to,
    withRows: false,
    digits: minorUnitDigits(account.currency),
  });
  const values = new Map<string, number>();
  for (const [date, cents] of valueByDate) values.set(date, Number(cents));
  return values;
}

/** The account's trades that move a quantity (from `since` on, null: all), in the order same-day trades apply, prices in the account's currency. */
async function loadTrades(tx: FinanceTx, account: Account, since: string | null, convert: PriceConverter) {
  const after = since === null ? Prisma.empty : Prisma.sql`AND e.date >= ${dateOf(since)}::date`;
  // Prices rounded half away from zero to 10^-4, as toScaled would.
  const [trades] = await tx.$queryRaw<TradeColumns[]>`
    SELECT string_agg((o.date - DATE '1970-01-01')::text, ',') AS days, string_agg(o.security_id::text, ',') AS security_ids,
           string_agg(round(o.qty * 100000000)::text, ',') AS qtys, string_agg(round(o.price * 10000)::text, ',') AS prices,
           string_agg(coalesce(NULLIF(o.currency, ${account.currency}), ''), ',') AS currencies
      FROM (SELECT e.date, t.security_id, t.qty, t.price, t.currency
              FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 ${after}
             ORDER BY e.date, e.created_at, e.id) AS o`;
  const days = fieldsOf(trades!.days);
  const securities = fieldsOf(trades!.security_ids);
  const qtys = fieldsOf(trades!.qtys);
  const prices = fieldsOf(trades!.prices);
  const currencies = fieldsOf(trades!.currencies);
  const list: PositionTrade[] = new Array<PositionTrade>(days.length);
  let foreign = false;
  for (let i = 0; i < days.length; i++) {
    const date = dayNumberToIso(Number(days[i]));
    const currency = currencies[i];
    const price = BigInt(prices[i]!);
    if (currency) foreign = true;
    list[i] = { date, securityId: securities[i]!, qty: BigInt(qtys[i]!), price: currency ? await convert(price, currency, date) : price };
  }
  return { list, foreign };
}

interface StartColumns {
  security_id: string;
  /** Null: the security has stored spans before the window but no trades there. */
  qty: string | null;
  bought_qty: string | null;
  bought_cost: string | null;
  price: string | null;
  price_day: number | null;
  trade_days: number;
  /** A trade before the window, or a stored span, in another currency than the account's. */
  foreign: boolean;
  /** How many stored spans start before the window, and the last of them (null: none), which covers the day before it. */
  spans: number;
  carried_start: number | null;
  carried_end: number | null;
  carried_qty: string | null;
  carried_avg_cost: string | null;
}

/**
 * Where a window starting at `from` begins: each security's position after the trades before it
 * (summed here, exactly: scaled integers, as the calculator adds them) and the stored span that
 * covers the day before, whose end the window's trades may move. Null when the stored spans
 * before the window do not match those trades (a sync that failed left them stale, or the
 * position was never synced in full) or a trade is in another currency: the caller then
 * recomputes everything. Matching: per security, as many spans before `from` as trade days, the
 * last starting on the last trade day with the sums' quantity and average cost, and no span of a
 * security without trades before `from`.
 */
async function windowStart(tx: FinanceTx, account: Account, from: string) {
  const rows = await tx.$queryRaw<StartColumns[]>`
    WITH before AS (
      SELECT t.security_id, sum(round(t.qty * 100000000))::text AS qty,
             coalesce(sum(round(t.qty * 100000000)) FILTER (WHERE t.qty > 0), 0)::text AS bought_qty,
             coalesce(sum(round(t.qty * 100000000) * round(t.price * 10000)) FILTER (WHERE t.qty > 0), 0)::text AS bought_cost,
             (array_agg(round(t.price * 10000)::text ORDER BY e.date DESC, e.created_at DESC, e.id DESC))[1] AS price,
             max(e.date) - DATE '1970-01-01' AS price_day,
             count(DISTINCT e.date)::int AS trade_days,
             bool_or(t.currency <> ${account.currency}) AS foreign
        FROM entries e JOIN trades t ON t.entry_id = e.id
       WHERE e.account_id = ${account.id}::uuid AND t.qty <> 0 AND e.date < ${dateOf(from)}::date
       GROUP BY t.security_id
    ), stored AS (
      SELECT security_id, count(*)::int AS spans, bool_or(currency <> ${account.currency}) AS other_currency,
             (array_agg(start_date - DATE '1970-01-01' ORDER BY start_date DESC))[1] AS carried_start,
             (array_agg(end_date - DATE '1970-01-01' ORDER BY start_date DESC))[1] AS carried_end,
             (array_agg(round(qty * 100000000)::text ORDER BY start_date DESC))[1] AS carried_qty,
             (array_agg(round(avg_cost * 10000)::text ORDER BY start_date DESC))[1] AS carried_avg_cost
        FROM holding_spans
       WHERE account_id = ${account.id}::uuid AND start_date < ${dateOf(from)}::date
       GROUP BY security_id
    )
    SELECT coalesce(b.security_id, st.security_id)::text AS security_id, b.qty, b.bought_qty, b.bought_cost, b.price, b.price_day,
           coalesce(b.trade_days, 0) AS trade_days, coalesce(b.foreign, false) OR coalesce(st.other_currency, false) AS foreign, coalesce(st.spans, 0) AS spans,
           st.carried_start, st.carried_end, st.carried_qty, st.carried_avg_cost
      FROM before b FULL JOIN stored st ON st.security_id = b.security_id`;
  const positions = new Map<string, PositionStart>();
  const carriedIn = new Map<string, { startDay: number; endDay: number | null }>();
  const dayBefore = isoToDayNumber(from) - 1;
  for (const row of rows) {
    if (row.foreign || row.qty === null || row.carried_start === null || row.spans !== row.trade_days) return null;
    const start: PositionStart = {
      qty: BigInt(row.qty),
      boughtQty: BigInt(row.bought_qty!),
      boughtCost: BigInt(row.bought_cost!),
      price: BigInt(row.price!),
      priceDay: row.price_day!,
    };
    const avgCost = avgCostOf(start.boughtQty, start.boughtCost);
    const matches =
      row.carried_start === start.priceDay &&
      (row.carried_end === null || row.carried_end >= dayBefore) &&
      row.carried_qty === start.qty.toString() &&
      row.carried_avg_cost === (avgCost === null ? null : avgCost.toString());
    if (!matches) return null;
    positions.set(row.security_id, start);
    carriedIn.set(row.security_id, { startDay: row.carried_start, endDay: row.carried_end });
  }
  return { positions, carriedIn };
}

/** Removes every holding of the account (it has no entries left). */
export async function clearHoldings(tx: FinanceTx, accountId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM holding_spans WHERE account_id = ${accountId}::uuid`;
}

const keyOf = (securityId: string, currency: string, startDay: number) => `${securityId}|${currency}|${startDay}`;
const figuresOf = (span: PositionSpan) => `${span.endDay ?? ""}|${span.qty}|${span.avgCost ?? ""}|${span.tradePrice}|${span.tradePriceDay}`;

/**
 * Compares the computed spans with the stored ones (in memory, by security, currency and start
 * day), deletes those no longer true (a trade removed or moved, another currency) and writes the
 * new and changed ones: a sync that changes little writes little, and a re-sync of the same
 * trades writes nothing. A window (`scope`) compares only the spans from its first day on, and
 * ends each security's span carried into it where that security's first span in the window starts.
 */
async function writeChangedSpans(
  tx: FinanceTx,
  account: Account,
  spans: PositionSpan[],
  scope: { from: string; carriedIn: Map<string, { startDay: number; endDay: number | null }> } | null,
): Promise<void> {
  const inWindow = scope === null ? Prisma.empty : Prisma.sql`AND start_date >= ${dateOf(scope.from)}::date`;
  const [stored] = await tx.$queryRaw<SpanColumns[]>`
    SELECT string_agg(id::text, ',') AS ids,
           string_agg(security_id::text || '|' || currency || '|' || (start_date - DATE '1970-01-01')::text, ',') AS keys,
           string_agg(coalesce((end_date - DATE '1970-01-01')::text, '') || '|' || round(qty * 100000000)::text || '|' ||
                      coalesce(round(avg_cost * 10000)::text, '') || '|' || round(trade_price * 10000)::text || '|' ||
                      (trade_price_date - DATE '1970-01-01')::text, ',') AS figures
      FROM holding_spans WHERE account_id = ${account.id}::uuid ${inWindow}`;
  const ids = fieldsOf(stored!.ids);
  const keys = fieldsOf(stored!.keys);
  const figures = fieldsOf(stored!.figures);
  const storedByKey = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) storedByKey.set(keys[i]!, i);

  const changed: PositionSpan[] = [];
  const firstStart = new Map<string, number>();
  for (const span of spans) {
    if (!firstStart.has(span.securityId)) firstStart.set(span.securityId, span.startDay);
    const key = keyOf(span.securityId, account.currency, span.startDay);
    const at = storedByKey.get(key);
    if (at !== undefined) {
      storedByKey.delete(key); // seen: what is left at the end is stale
      if (figures[at] === figuresOf(span)) continue;
    }
    changed.push(span);
  }
  const stale = [...storedByKey.values()].map((at) => ids[at]!);
  if (stale.length > 0) await tx.$executeRaw`DELETE FROM holding_spans WHERE id = ANY(${stale}::uuid[])`;
  await upsertSpans(tx, account, changed);
  // The spans carried into the window now end the day before their security's next trade (open without one).
  const moved: { securityId: string; startDay: number; endDay: number | null }[] = [];
  for (const [securityId, carried] of scope?.carriedIn ?? []) {
    const next = firstStart.get(securityId);
    const endDay = next === undefined ? null : next - 1;
    if (endDay !== carried.endDay) moved.push({ securityId, startDay: carried.startDay, endDay });
  }
  if (moved.length > 0) {
    await tx.$executeRaw`
      UPDATE holding_spans s SET end_date = DATE '1970-01-01' + NULLIF(m.end_day, '')::int, updated_at = now()
        FROM unnest(${moved.map((span) => span.securityId)}::uuid[], ${moved.map((span) => span.startDay)}::int[],
                    ${moved.map((span) => (span.endDay === null ? "" : String(span.endDay)))}::text[]) AS m(security_id, start_day, end_day)
       WHERE s.account_id = ${account.id}::uuid AND s.currency = ${account.currency} AND s.security_id = m.security_id
         AND s.start_date = DATE '1970-01-01' + m.start_day`;
  }
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
 * One statement per 20,000 spans. Each column travels as one comma-joined text of scaled integers
 * (securities as an index into a short list, days as day numbers), which Postgres splits and
 * scales back exactly.
 */
async function upsertSpans(tx: FinanceTx, account: Account, spans: PositionSpan[]): Promise<void> {
  const BATCH = 20_000;
  for (let start = 0; start < spans.length; start += BATCH) {
    const batch = spans.slice(start, start + BATCH);
    const securityIds = [...new Set(batch.map((span) => span.securityId))];
    const positionKeys = securityIds.map((securityId) => positionKeyOf(account.id, securityId, account.currency));
    const securityIndex = new Map(securityIds.map((id, index) => [id, index + 1]));
    const column = (value: (span: PositionSpan) => string) => batch.map(value).join(",");
    await tx.$executeRaw`
      INSERT INTO holding_spans (id, family_id, account_id, security_id, currency, position_key, start_date, end_date, qty, avg_cost, trade_price, trade_price_date, created_at, updated_at)
      SELECT (${idPrefix()} || lpad(to_hex(t.n), 8, '0'))::uuid, ${account.familyId}::uuid, ${account.id}::uuid, (${securityIds}::uuid[])[t.security::int],
             ${account.currency}, (${positionKeys}::uuid[])[t.security::int], DATE '1970-01-01' + t.start_day::int, DATE '1970-01-01' + NULLIF(t.end_day, '')::int,
             t.qty::numeric * 0.00000001, NULLIF(t.avg_cost, '')::numeric * 0.0001, t.trade_price::numeric * 0.0001, DATE '1970-01-01' + t.trade_price_day::int, now(), now()
        FROM unnest(string_to_array(${column((span) => String(securityIndex.get(span.securityId)))}, ','),
                    string_to_array(${column((span) => String(span.startDay))}, ','), string_to_array(${column((span) => (span.endDay === null ? "" : String(span.endDay)))}, ','),
                    string_to_array(${column((span) => span.qty.toString())}, ','), string_to_array(${column((span) => (span.avgCost === null ? "" : span.avgCost.toString()))}, ','),
                    string_to_array(${column((span) => span.tradePrice.toString())}, ','), string_to_array(${column((span) => String(span.tradePriceDay))}, ','))
             WITH ORDINALITY AS t(security, start_day, end_day, qty, avg_cost, trade_price, trade_price_day, n)
      ON CONFLICT (account_id, security_id, currency, start_date) DO UPDATE SET
        end_date = EXCLUDED.end_date, qty = EXCLUDED.qty, avg_cost = EXCLUDED.avg_cost, trade_price = EXCLUDED.trade_price,
        trade_price_date = EXCLUDED.trade_price_date, updated_at = now()`;
  }
}
