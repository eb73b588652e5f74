import type { FinanceTx } from "../../../db";
import { todayIso } from "../../../ledger/dates";
import { MAX_HOLDING_ROWS } from "../../../trades/trade-repository";
import type { SureSecurityValues, SureTradeValues } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** A Trade record under its new id, its account's and its security's, with its fee, name and label settled. */
export type NewTrade = SureTradeValues & { id: string; accountId: string; securityId: string; feeCents: bigint; name: string; label: string | null };

/**
 * The family's securities of these tickers, each record the first of its ticker: a blank name and
 * exchange filled from the file, as Sure's apply_security_metadata does. Answers those found.
 */
export function fillFamilySecurities(tx: FinanceTx, familyId: string, firsts: readonly SureSecurityValues[]) {
  return tx.$queryRaw<{ id: string; ticker: string }[]>`
    UPDATE securities s
       SET name = CASE WHEN (s.name IS NULL OR s.name = s.ticker) AND f.name IS NOT NULL THEN f.name ELSE s.name END,
           exchange_operating_mic = COALESCE(s.exchange_operating_mic, f.mic), updated_at = now()
      FROM unnest(${column(firsts, (t) => t.ticker)}::text[], ${column(firsts, (t) => t.security_name)}::text[],
                  ${column(firsts, (t) => t.exchange_operating_mic)}::text[]) AS f(ticker, name, mic)
     WHERE s.family_id = ${familyId}::uuid AND s.ticker = f.ticker
    RETURNING s.id::text AS id, s.ticker`;
}

/** Writes offline securities of these tickers under the given ids, with the import's id. */
export async function insertSecurities(
  tx: FinanceTx,
  familyId: string,
  importId: string,
  missing: readonly (SureSecurityValues & { id: string })[],
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, name, exchange_operating_mic, offline, kind, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.ticker, t.name, t.mic, true, 'standard', ${importId}::uuid, now(), now()
      FROM unnest(${column(missing, (t) => t.id)}::uuid[], ${column(missing, (t) => t.ticker)}::text[], ${column(missing, (t) => t.security_name)}::text[],
                  ${column(missing, (t) => t.exchange_operating_mic)}::text[]) AS t(id, ticker, name, mic)`;
}

/** Writes each trade's entry (with the import's id), in the file's order, then the trade itself. */
export async function insertTrades(tx: FinanceTx, familyId: string, importId: string, batch: readonly NewTrade[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.account_id, 'trade', t.date, t.name, t.amount_cents, t.currency, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (t) => t.id)}::uuid[], ${column(batch, (t) => t.accountId)}::uuid[], ${column(batch, (t) => t.date)}::date[],
                  ${column(batch, (t) => t.name)}::text[], ${centsColumn(batch, (t) => t.amount_cents)}::bigint[], ${column(batch, (t) => t.currency)}::text[])
           WITH ORDINALITY AS t(id, account_id, date, name, amount_cents, currency, ordinal)
     ORDER BY t.ordinal`;
  await tx.$executeRaw`
    INSERT INTO trades (entry_id, family_id, security_id, qty, price, fee_cents, currency, investment_activity_label, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.security_id, t.qty, t.price, t.fee_cents, t.currency, t.label, now(), now()
      FROM unnest(${column(batch, (t) => t.id)}::uuid[], ${column(batch, (t) => t.securityId)}::uuid[], ${column(batch, (t) => t.qty)}::numeric[],
                  ${column(batch, (t) => t.price)}::numeric[], ${centsColumn(batch, (t) => t.feeCents)}::bigint[], ${column(batch, (t) => t.currency)}::text[],
                  ${column(batch, (t) => t.label)}::text[])
           AS t(id, security_id, qty, price, fee_cents, currency, label)`;
}

/**
 * The names of up to five of these accounts whose daily holdings (securities x days since each
 * one's first trade) would pass MAX_HOLDING_ROWS.
 */
export async function accountsOverHoldingLimit(tx: FinanceTx, accountIds: string[]): Promise<string[]> {
  const over = await tx.$queryRaw<{ name: string }[]>`
    SELECT a.name FROM accounts a
      JOIN (SELECT e.account_id, min(e.date) AS first_date FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id = ANY(${accountIds}::uuid[]) AND t.qty <> 0 GROUP BY e.account_id, t.security_id) f ON f.account_id = a.id
     GROUP BY a.id, a.name
    HAVING sum(GREATEST(${todayIso()}::date - f.first_date + 1, 0)) > ${MAX_HOLDING_ROWS}
     ORDER BY a.name LIMIT 5`;
  return over.map((row) => row.name);
}
