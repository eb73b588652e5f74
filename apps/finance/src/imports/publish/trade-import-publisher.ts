import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { QTY_SCALE, toScaled } from "../../holdings/fixed-point";
import { todayIso } from "../../ledger/dates";
import { risingIds } from "../../rules/sql-ids";
import { tickerOf } from "../../securities/security-resolver";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import { tradeName } from "../../trades/trade-amounts";
import { MAX_HOLDING_ROWS, assertTakesTrades } from "../../trades/trade-repository";
import { DEFAULT_ROW_NAME } from "../parsing/sure-cells";
import { PublishError } from "./publish-error";
import { resolveStagedAccounts } from "./staged-accounts";
import type { PublishTarget } from "./transaction-import-publisher";

export interface TradePublishOutcome {
  trades: number;
  securities_created: number;
  skipped_duplicates: number;
}

/** Rows per INSERT: progress is reported between them. */
const INSERT_BATCH = 1_000;

/** Sure's Account#supports_trades?, as the trades API checks it. */
function takesTrades(account: { accountType: string }): boolean {
  try {
    assertTakesTrades(account);
    return true;
  } catch {
    return false;
  }
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

/**
 * Publishes a TradeImport inside the caller's transaction (all or nothing), set-based, as Sure's
 * TradeImport#import! does: each row a trade on the import's account (or the account its row
 * names, which must exist and take trades), its security found by ticker or made offline for the
 * family (Sure's resolver without a provider), amount = signed qty x price (the parser signed
 * both), label Buy/Sell by the quantity's sign. A row without a name is named as the trades API
 * names a trade ("Buy 10.0 shares of AAPL") rather than Sure's "Imported item". Duplicates are
 * skipped one for one: a row is one while the account has more trades of the same day, security,
 * quantity and price than earlier identical rows claimed (Sure's TradeImport has no such check).
 */
export async function publishTradeImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<TradePublishOutcome> {
  const { id: importId, familyId } = target;
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

  await resolveAccounts(tx, target);
  const securitiesCreated = await resolveSecurities(tx, familyId, importId);
  await nameUnnamedRows(tx);

  // Duplicates, one for one, then ids for the rest (rising, as Prisma's UUIDv7 ids do).
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

  const [bounds] = await tx.$queryRaw<{ last: number | null; kept: number; total: number }[]>`
    SELECT max(row_number) AS last, count(entry_id)::int AS kept, count(*)::int AS total FROM trade_import_stage`;
  const last = bounds?.last ?? 0;
  for (let from = 0; from < last; from += INSERT_BATCH) {
    const to = from + INSERT_BATCH;
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
    await onProgress(Math.min(to, last));
  }

  await assertHoldingsWithinLimit(tx);
  // Holdings follow from these syncs; trades are no transactions, so the transaction count stays.
  const windows = await tx.$queryRaw<{ account_id: string; first: Date }[]>`
    SELECT account_id, min(date) AS first FROM trade_import_stage WHERE entry_id IS NOT NULL GROUP BY account_id`;
  for (const window of windows) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
  const kept = bounds?.kept ?? 0;
  return { trades: kept, securities_created: securitiesCreated, skipped_duplicates: (bounds?.total ?? 0) - kept };
}

/**
 * Accounts: the import's, else each row's by name (the oldest of a name, as the transaction
 * publisher resolves it). Every one must take trades (investment or crypto).
 */
async function resolveAccounts(tx: FinanceTx, target: PublishTarget): Promise<void> {
  await resolveStagedAccounts(tx, "trade_import_stage", target);
  const accounts = await tx.$queryRaw<{ name: string; account_type: string }[]>`
    SELECT a.name, a.account_type::text FROM accounts a WHERE a.id IN (SELECT DISTINCT account_id FROM trade_import_stage) ORDER BY a.name`;
  const refused = accounts.filter((account) => !takesTrades({ accountType: account.account_type }));
  if (refused.length > 0) {
    const named = refused.map((account) => `"${account.name}" (${account.account_type})`).join(", ");
    throw new PublishError(`Trades go to investment or crypto accounts only, not ${named}`);
  }
}

/**
 * Securities by ticker, as the trades API reads one ("aapl|XNAS" is AAPL on XNAS; the row's
 * exchange column wins): the family's, else made offline with the exchange of the ticker's first
 * row and the import's id (its revert removes it). The family holds one security per ticker, so rows naming other exchanges share it.
 */
async function resolveSecurities(tx: FinanceTx, familyId: string, importId: string): Promise<number> {
  const raw = await tx.$queryRaw<{ raw_ticker: string }[]>`SELECT DISTINCT raw_ticker FROM trade_import_stage`;
  const parsed = raw.map(({ raw_ticker }) => ({ raw: raw_ticker, ...tickerOf(raw_ticker) }));
  const blank = parsed.filter((ticker) => ticker.ticker === "");
  if (blank.length > 0) throw new PublishError(`Ticker can't be blank: ${quoted(blank.map((ticker) => ticker.raw))}`);
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET ticker = t.ticker, mic = COALESCE(s.mic, t.mic)
      FROM unnest(${parsed.map((t) => t.raw)}::text[], ${parsed.map((t) => t.ticker)}::text[], ${parsed.map((t) => t.exchangeOperatingMic)}::text[])
           AS t(raw, ticker, mic)
     WHERE s.raw_ticker = t.raw`;
  const ids = risingIds();
  const created = await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, exchange_operating_mic, offline, kind, import_id, created_at, updated_at)
    SELECT ${ids(Prisma.sql`row_number() OVER (ORDER BY first_row)`)}, ${familyId}::uuid, ticker, mic, true, 'standard', ${importId}::uuid, now(), now()
      FROM (SELECT DISTINCT ON (ticker) ticker, mic, row_number AS first_row FROM trade_import_stage ORDER BY ticker, row_number) firsts
     WHERE NOT EXISTS (SELECT 1 FROM securities x WHERE x.family_id = ${familyId}::uuid AND x.ticker = firsts.ticker)
     ORDER BY first_row
    ON CONFLICT (family_id, ticker) DO NOTHING`;
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET security_id = x.id FROM securities x WHERE x.family_id = ${familyId}::uuid AND x.ticker = s.ticker`;
  return created;
}

/** Rows the file gave no name: the trades API's name, from the quantity's sign and the ticker as stored. */
async function nameUnnamedRows(tx: FinanceTx): Promise<void> {
  const pairs = await tx.$queryRaw<{ qty: string; ticker: string }[]>`
    SELECT DISTINCT qty::text AS qty, ticker FROM trade_import_stage WHERE name = ${DEFAULT_ROW_NAME}`;
  if (pairs.length === 0) return;
  const names = pairs.map(({ qty, ticker }) => {
    const signedQty = toScaled(qty, QTY_SCALE);
    return tradeName(signedQty < 0n ? "sell" : "buy", signedQty, ticker);
  });
  await tx.$executeRaw`
    UPDATE trade_import_stage s SET name = n.name
      FROM unnest(${pairs.map((p) => p.qty)}::text[], ${pairs.map((p) => p.ticker)}::text[], ${names}::text[]) AS n(qty, ticker, name)
     WHERE s.name = ${DEFAULT_ROW_NAME} AND s.qty::text = n.qty AND s.ticker = n.ticker`;
}

/**
 * The trades API's bound on daily holdings (securities x days since each one's first trade),
 * checked for every account the import wrote to: each sync of the account computes them all.
 */
async function assertHoldingsWithinLimit(tx: FinanceTx): Promise<void> {
  const over = await tx.$queryRaw<{ name: string }[]>`
    SELECT a.name FROM accounts a
      JOIN (SELECT e.account_id, min(e.date) AS first_date FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id IN (SELECT DISTINCT account_id FROM trade_import_stage WHERE entry_id IS NOT NULL) AND t.qty <> 0
             GROUP BY e.account_id, t.security_id) f ON f.account_id = a.id
     GROUP BY a.id, a.name
    HAVING sum(GREATEST(${todayIso()}::date - f.first_date + 1, 0)) > ${MAX_HOLDING_ROWS}
     ORDER BY a.name`;
  if (over.length > 0) {
    throw new PublishError(
      `An account holds at most ${MAX_HOLDING_ROWS.toLocaleString("en")} daily holdings (securities x days since each one's first trade): ${quoted(over.map((row) => row.name))} would hold more`,
    );
  }
}
