import { classificationOf } from "../../../balances/balance-calculator";
import { addDays, todayIso, yearsBefore } from "../../../ledger/dates";
import type { SureAccountValues, SureNdjsonRecords } from "../../ndjson";
import { centsColumn, chunksOf, column, inBatches, type SurePublishContext } from "./sure-publish-context";

export interface AccountsOutcome {
  accounts: number;
  /** Opening-anchor valuations made from an account's balance (Sure's OpeningBalanceManager). */
  opening_balances: number;
}

/** The name Hearth gives an opening anchor (as accounts.create makes it). */
const OPENING_BALANCE_NAME = "Opening balance";

/**
 * Sure's oldest_import_entry_dates_by_account: each account's earliest activity in the file
 * (balances, transactions, trades, holdings, valuations), which its opening balance must precede.
 */
function oldestActivityByAccount(records: SureNdjsonRecords): Map<string, string> {
  const oldest = new Map<string, string>();
  const dated = [...records.Balance, ...records.Transaction, ...records.Trade, ...records.Holding, ...records.Valuation];
  for (const { account_id: accountId, date } of dated) {
    const known = oldest.get(accountId);
    if (known === undefined || date < known) oldest.set(accountId, date);
  }
  return oldest;
}

/**
 * Sure's opening_balance_date_for, then OpeningBalanceManager's default: the earlier of the
 * file's opening date and the day before the account's first activity; neither, two years ago.
 */
function openingDateOf(account: SureAccountValues, oldestActivity: string | undefined): string {
  const candidates = [account.opening_balance_date, oldestActivity === undefined ? null : addDays(oldestActivity, -1)].filter(
    (date): date is string => date !== null,
  );
  if (candidates.length === 0) return yearsBefore(todayIso(), 2);
  return candidates.reduce((earliest, date) => (date < earliest ? date : earliest));
}

/**
 * Family::DataImporter#import_accounts: every Account record becomes an account of the family,
 * carrying the import's id (its revert removes it). Its balance, as Sure does, becomes an
 * opening-anchor valuation before the account's first activity, unless the file gives the
 * account an opening anchor of its own or says its balance history is authoritative. The
 * balance columns hold the file's figures until the queued sync recomputes them.
 */
export async function publishAccounts(context: SurePublishContext, records: SureNdjsonRecords): Promise<AccountsOutcome> {
  const { tx, familyId, importId } = context;
  const accounts = records.Account.map((account) => ({ ...account, id: context.newId() }));
  for (const account of accounts) context.ids.set("accounts", account.source_id, account.id);

  await inBatches(
    context,
    accounts,
    (batch) =>
      tx.$executeRaw`
      INSERT INTO accounts (id, family_id, name, account_type, subtype, classification, currency, status, institution_name, institution_domain,
                            balance_cents, cash_balance_cents, import_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.name, t.account_type::"AccountType", t.subtype, t.classification::"AccountClassification", t.currency,
             t.status::"AccountStatus", t.institution_name, t.institution_domain, t.balance_cents, t.cash_balance_cents, ${importId}::uuid, now(), now()
        FROM unnest(${column(batch, (a) => a.id)}::uuid[], ${column(batch, (a) => a.name)}::text[], ${column(batch, (a) => a.account_type)}::text[],
                    ${column(batch, (a) => a.subtype)}::text[], ${column(batch, (a) => classificationOf(a.account_type))}::text[],
                    ${column(batch, (a) => a.currency)}::text[], ${column(batch, (a) => a.status)}::text[],
                    ${column(batch, (a) => a.institution_name)}::text[], ${column(batch, (a) => a.institution_domain)}::text[],
                    ${centsColumn(batch, (a) => a.balance_cents)}::bigint[], ${centsColumn(batch, (a) => a.cash_balance_cents)}::bigint[])
             WITH ORDINALITY AS t(id, name, account_type, subtype, classification, currency, status, institution_name, institution_domain,
                                  balance_cents, cash_balance_cents, ordinal)
       ORDER BY t.ordinal`,
  );

  // Sure's skip_opening_balance_import?: an opening anchor in the file, or an authoritative history, makes none.
  const anchored = new Set(records.Valuation.filter((valuation) => valuation.kind === "opening_anchor").map((valuation) => valuation.account_id));
  const oldest = oldestActivityByAccount(records);
  const openings = accounts
    .filter((account) => !account.skip_opening_balance && !anchored.has(account.source_id))
    .map((account) => ({
      id: context.newId(),
      accountId: account.id,
      date: openingDateOf(account, oldest.get(account.source_id)),
      cents: account.balance_cents,
      currency: account.currency,
    }));
  for (const batch of chunksOf(openings)) {
    await tx.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, valuation_kind, date, name, amount_cents, currency, import_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.account_id, 'valuation', 'opening_anchor', t.date, ${OPENING_BALANCE_NAME}, t.cents, t.currency, ${importId}::uuid, now(), now()
        FROM unnest(${column(batch, (o) => o.id)}::uuid[], ${column(batch, (o) => o.accountId)}::uuid[], ${column(batch, (o) => o.date)}::date[],
                    ${centsColumn(batch, (o) => o.cents)}::bigint[], ${column(batch, (o) => o.currency)}::text[])
             AS t(id, account_id, date, cents, currency)`;
  }
  return { accounts: accounts.length, opening_balances: openings.length };
}
