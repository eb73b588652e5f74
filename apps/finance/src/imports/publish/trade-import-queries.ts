import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { todayIso } from "../../ledger/dates";
import { risingIds } from "../../rules/rising-id-sql";
import type { tickerOf } from "../../securities/security-resolver";
import { MAX_HOLDING_ROWS } from "../../trades/trade-repository";
import { DEFAULT_ROW_NAME } from "../parsing/sure-cells";

// The TradeImport publisher's statements, on its staging table (trade_import_stage: a temp table
// dropped at commit, one row per valid import row).

/** A ticker as the file wrote it (`raw`), read as the trades API reads one. */
export type ParsedTicker = ReturnType<typeof tickerOf> & { raw: string };

/** Stages the import's valid rows; tickers, accounts, securities and entry ids are filled in later. */
export async function stageTradeRows(tx: FinanceTx, importId: string): Promise<void> {
  await tx.$executeRaw`
    CREATE TEMP TABLE trade_import_stage ON COMMIT DROP AS
    SELECT r.row_number,
           (r.values->>'date')::date AS date,
           r.values->>'ticker' AS raw_ticker,
           NULLIF(r.values->>'exchange_operating_mic', '') AS mic,
           (r.values->>'qty')::numeric(24, 8) AS qty,
           (r.values->>'price')::numeric(19, 10) AS price,
           r.values->>'currency' AS currency,
           (r.values->>'amount_cents')::bigint AS amount_cents,
           r.values->>'name' AS name,
           r.values->>'investment_activity_label' AS label,
           NULLIF(r.values->>'account', '') AS account_name,
           NULL::text AS ticker, NULL::uuid AS account_id, NULL::uuid AS security_id, NULL::uuid AS entry_id
      FROM import_rows r
     WHERE r.import_id = ${importId}::uuid AND r.values IS NOT NULL`;
}

/** The accounts the rows go to, by name. */
export function stagedTradeAccounts(tx: FinanceTx) {
  return tx.$queryRaw<{ name: string; account_type: string }[]>`
    SELECT a.name, a.account_type::text FROM accounts a WHERE a.id IN (SELECT DISTINCT account_id FROM trade_import_stage) ORDER BY a.name`;
}

export async function stagedRawTickers(tx: FinanceTx): Promise<string[]> {
  const raw = await tx.$queryRaw<{ raw_ticker: string }[]>`SELECT DISTINCT raw_ticker FROM trade_import_stage`;
  return raw.map(({ raw_ticker }) => raw_ticker);
}

/** Each row's ticker, and its exchange unless the row's exchange column gave one. */
export async function setStagedTickers(tx: FinanceTx, parsed: readonly ParsedTicker[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET ticker = t.ticker, mic = COALESCE(s.mic, t.mic)
      FROM unnest(${parsed.map((t) => t.raw)}::text[], ${parsed.map((t) => t.ticker)}::text[], ${parsed.map((t) => t.exchangeOperatingMic)}::text[])
           AS t(raw, ticker, mic)
     WHERE s.raw_ticker = t.raw`;
}

/**
 * Makes an offline security for each ticker the family has none of, with the exchange of the
 * ticker's first row and the import's id: how many it made.
 */
export async function createStagedSecurities(tx: FinanceTx, familyId: string, importId: string): Promise<number> {
  const ids = risingIds();
  return tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, exchange_operating_mic, offline, kind, import_id, created_at, updated_at)
    SELECT ${ids(Prisma.sql`row_number() OVER (ORDER BY first_row)`)}, ${familyId}::uuid, ticker, mic, true, 'standard', ${importId}::uuid, now(), now()
      FROM (SELECT DISTINCT ON (ticker) ticker, mic, row_number AS first_row FROM trade_import_stage ORDER BY ticker, row_number) firsts
     WHERE NOT EXISTS (SELECT 1 FROM securities x WHERE x.family_id = ${familyId}::uuid AND x.ticker = firsts.ticker)
     ORDER BY first_row
    ON CONFLICT (family_id, ticker) DO NOTHING`;
}

/** Each row's security: the family's of its ticker. */
export async function linkStagedSecurities(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET security_id = x.id FROM securities x WHERE x.family_id = ${familyId}::uuid AND x.ticker = s.ticker`;
}

/** The quantities and tickers of rows the file gave no name. */
export function unnamedQuantities(tx: FinanceTx) {
  return tx.$queryRaw<{ qty: string; ticker: string }[]>`
    SELECT DISTINCT qty::text AS qty, ticker FROM trade_import_stage WHERE name = ${DEFAULT_ROW_NAME}`;
}

/** Names the rows the file gave no name: `names[i]` for the rows of `pairs[i]`'s quantity and ticker. */
export async function setUnnamedRowNames(tx: FinanceTx, pairs: readonly { qty: string; ticker: string }[], names: string[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET name = n.name
      FROM unnest(${pairs.map((p) => p.qty)}::text[], ${pairs.map((p) => p.ticker)}::text[], ${names}::text[]) AS n(qty, ticker, name)
     WHERE s.name = ${DEFAULT_ROW_NAME} AND s.qty::text = n.qty AND s.ticker = n.ticker`;
}

/** Duplicates, one for one, then ids for the rest (rising, as Prisma's UUIDv7 ids do). */
export async function keepNewTrades(tx: FinanceTx): Promise<void> {
  const ids = risingIds();
  await tx.$executeRaw`
    WITH ranked AS (
      SELECT row_number, account_id, date, security_id, qty, price,
             row_number() OVER (PARTITION BY account_id, date, security_id, qty, price ORDER BY row_number) AS rank
        FROM trade_import_stage),
    existing AS (
      SELECT k.account_id, k.date, k.security_id, k.qty, k.price, count(e.id) AS n
        FROM (SELECT DISTINCT account_id, date, security_id, qty, price FROM trade_import_stage) k
        JOIN entries e ON e.account_id = k.account_id AND e.date = k.date AND e.kind = 'trade'
        JOIN trades t ON t.entry_id = e.id AND t.security_id = k.security_id AND t.qty = k.qty AND t.price = k.price
       GROUP BY 1, 2, 3, 4, 5),
    kept AS (
      SELECT r.row_number, row_number() OVER (ORDER BY r.row_number) AS ordinal
        FROM ranked r
        LEFT JOIN existing x ON x.account_id = r.account_id AND x.date = r.date AND x.security_id = r.security_id
                            AND x.qty = r.qty AND x.price = r.price
       WHERE r.rank > COALESCE(x.n, 0))
    UPDATE trade_import_stage s SET entry_id = ${ids(Prisma.sql`k.ordinal`)} FROM kept k WHERE k.row_number = s.row_number`;
}

/** The last row number staged, how many rows got an entry id, and how many were staged. */
export async function stagedTradeCounts(tx: FinanceTx): Promise<{ last: number; kept: number; total: number }> {
  const [bounds] = await tx.$queryRaw<{ last: number | null; kept: number; total: number }[]>`
    SELECT max(row_number) AS last, count(entry_id)::int AS kept, count(*)::int AS total FROM trade_import_stage`;
  return { last: bounds?.last ?? 0, kept: bounds?.kept ?? 0, total: bounds?.total ?? 0 };
}

/** Writes the entries, then the trades, of the kept rows numbered after `from`, up to `to`, with the import's id. */
export async function insertStagedTrades(tx: FinanceTx, familyId: string, importId: string, from: number, to: number): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT entry_id, ${familyId}::uuid, account_id, 'trade', date, name, amount_cents, currency, ${importId}::uuid, now(), now()
      FROM trade_import_stage WHERE entry_id IS NOT NULL AND row_number > ${from} AND row_number <= ${to}
     ORDER BY row_number`;
  await tx.$executeRaw`
    INSERT INTO trades (entry_id, family_id, security_id, qty, price, fee_cents, currency, investment_activity_label, created_at, updated_at)
    SELECT entry_id, ${familyId}::uuid, security_id, qty, price, 0, currency, label, now(), now()
      FROM trade_import_stage WHERE entry_id IS NOT NULL AND row_number > ${from} AND row_number <= ${to}
     ORDER BY row_number`;
}

/**
 * The names of the accounts written to whose daily holdings (securities x days since each one's
 * first trade) would pass MAX_HOLDING_ROWS: each sync of an account computes them all.
 */
export async function accountsOverHoldingLimit(tx: FinanceTx): Promise<string[]> {
  const over = await tx.$queryRaw<{ name: string }[]>`
    SELECT a.name FROM accounts a
      JOIN (SELECT e.account_id, min(e.date) AS first_date FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id IN (SELECT DISTINCT account_id FROM trade_import_stage WHERE entry_id IS NOT NULL) AND t.qty <> 0
             GROUP BY e.account_id, t.security_id) f ON f.account_id = a.id
     GROUP BY a.id, a.name
    HAVING sum(GREATEST(${todayIso()}::date - f.first_date + 1, 0)) > ${MAX_HOLDING_ROWS}
     ORDER BY a.name`;
  return over.map((row) => row.name);
}

/** Each account written to, with the first day written: where its sync starts. */
export function stagedTradeWindows(tx: FinanceTx) {
  return tx.$queryRaw<{ account_id: string; first: Date }[]>`
    SELECT account_id, min(date) AS first FROM trade_import_stage WHERE entry_id IS NOT NULL GROUP BY account_id`;
}
