import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { risingIds } from "../rules/rising-id-sql";
import { positionKeyOf } from "./holding-ids";
import type { PositionSpan } from "./position-spans";

/** The account whose holdings are materialized. */
export type HoldingsAccount = { id: string; familyId: string; currency: string };

/**
 * Rows come back as a few long comma-joined texts (one per column): splitting a text is far
 * cheaper than parsing a Postgres array or many rows, and integers in text stay exact at any
 * size. A missing value (a price in the account's currency, no avg cost, an open end) is an
 * empty field, so the columns stay aligned.
 */
export interface TradeColumns {
  days: string | null;
  security_ids: string | null;
  /** Quantity x 10^8. */
  qtys: string | null;
  /** Price x 10^4. */
  prices: string | null;
  currencies: string | null;
}
export interface SpanColumns {
  ids: string | null;
  /** `${security_id}|${currency}|${start day}`: what a computed span is matched by. */
  keys: string | null;
  /** `${end day}|${qty}|${avg cost}|${trade price}|${trade price day}`, scaled integers: what decides a rewrite. */
  figures: string | null;
}

/** A long window sorts a few hundred thousand prices: in memory, not in temporary files (this transaction only). */
export async function sortInMemory(tx: FinanceTx): Promise<void> {
  await tx.$executeRaw`SELECT set_config('work_mem', '64MB', true)`;
}

/** The account's trades that move a quantity (from `since` on, null: all), in the order same-day trades apply. */
export async function tradeColumns(tx: FinanceTx, account: HoldingsAccount, since: string | null): Promise<TradeColumns> {
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
  return trades!;
}

export interface StartColumns {
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

/** Per security: its trades before `from` summed, and its stored spans before `from` (how many, and the last). */
export function windowStartColumns(tx: FinanceTx, account: HoldingsAccount, from: string): Promise<StartColumns[]> {
  return tx.$queryRaw<StartColumns[]>`
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
}

/** Removes every holding of the account (it has no entries left). */
export async function clearHoldings(tx: FinanceTx, accountId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM holding_spans WHERE account_id = ${accountId}::uuid`;
}

/** The account's stored spans (those starting on or after `from`; null: all). */
export async function storedSpanColumns(tx: FinanceTx, accountId: string, from: string | null): Promise<SpanColumns> {
  const inWindow = from === null ? Prisma.empty : Prisma.sql`AND start_date >= ${dateOf(from)}::date`;
  const [stored] = await tx.$queryRaw<SpanColumns[]>`
    SELECT string_agg(id::text, ',') AS ids,
           string_agg(security_id::text || '|' || currency || '|' || (start_date - DATE '1970-01-01')::text, ',') AS keys,
           string_agg(coalesce((end_date - DATE '1970-01-01')::text, '') || '|' || round(qty * 100000000)::text || '|' ||
                      coalesce(round(avg_cost * 10000)::text, '') || '|' || round(trade_price * 10000)::text || '|' ||
                      (trade_price_date - DATE '1970-01-01')::text, ',') AS figures
      FROM holding_spans WHERE account_id = ${accountId}::uuid ${inWindow}`;
  return stored!;
}

export async function deleteSpans(tx: FinanceTx, ids: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM holding_spans WHERE id = ANY(${ids}::uuid[])`;
}

/** A stored span's new end day (null: open). */
export interface SpanEnd {
  securityId: string;
  startDay: number;
  endDay: number | null;
}

export async function moveSpanEnds(tx: FinanceTx, account: HoldingsAccount, moved: SpanEnd[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE holding_spans s SET end_date = DATE '1970-01-01' + NULLIF(m.end_day, '')::int, updated_at = now()
      FROM unnest(${moved.map((span) => span.securityId)}::uuid[], ${moved.map((span) => span.startDay)}::int[],
                  ${moved.map((span) => (span.endDay === null ? "" : String(span.endDay)))}::text[]) AS m(security_id, start_day, end_day)
     WHERE s.account_id = ${account.id}::uuid AND s.currency = ${account.currency} AND s.security_id = m.security_id
       AND s.start_date = DATE '1970-01-01' + m.start_day`;
}

/**
 * One statement per 20,000 spans. Each column travels as one comma-joined text of scaled integers
 * (securities as an index into a short list, days as day numbers), which Postgres splits and
 * scales back exactly. The ids rise (rising-id-sql.ts): the primary key's index grows at its right
 * edge instead of taking random inserts, and no random number is drawn per row.
 */
export async function upsertSpans(tx: FinanceTx, account: HoldingsAccount, spans: PositionSpan[]): Promise<void> {
  const BATCH = 20_000;
  for (let start = 0; start < spans.length; start += BATCH) {
    const batch = spans.slice(start, start + BATCH);
    const securityIds = [...new Set(batch.map((span) => span.securityId))];
    const positionKeys = securityIds.map((securityId) => positionKeyOf(account.id, securityId, account.currency));
    const securityIndex = new Map(securityIds.map((id, index) => [id, index + 1]));
    const column = (value: (span: PositionSpan) => string) => batch.map(value).join(",");
    await tx.$executeRaw`
      INSERT INTO holding_spans (id, family_id, account_id, security_id, currency, position_key, start_date, end_date, qty, avg_cost, trade_price, trade_price_date, created_at, updated_at)
      SELECT ${risingIds()(Prisma.sql`t.n`)}, ${account.familyId}::uuid, ${account.id}::uuid, (${securityIds}::uuid[])[t.security::int],
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
