import { classificationOf } from "../../../balances/balance-calculator";
import { addDays, todayIso, yearsBefore } from "../../../ledger/dates";
import type { SureAccountValues, SureNdjsonRecords } from "../../ndjson";
import { insertAccounts, insertOpeningBalances, type OpeningBalance } from "./sure-account-queries";
import { chunksOf, inBatches, type SurePublishContext } from "./sure-publish-context";

export interface AccountsOutcome {
  accounts: number;
  /** Opening-anchor valuations made from an account's balance (Sure's OpeningBalanceManager). */
  opening_balances: number;
}

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
  const accounts = records.Account.map((account) => ({ ...account, id: context.newId(), classification: classificationOf(account.account_type) }));
  for (const account of accounts) context.ids.set("accounts", account.source_id, account.id);

  await inBatches(context, accounts, (batch) => insertAccounts(tx, familyId, importId, batch));

  // Sure's skip_opening_balance_import?: an opening anchor in the file, or an authoritative history, makes none.
  const anchored = new Set(records.Valuation.filter((valuation) => valuation.kind === "opening_anchor").map((valuation) => valuation.account_id));
  const oldest = oldestActivityByAccount(records);
  const openings = accounts
    .filter((account) => !account.skip_opening_balance && !anchored.has(account.source_id))
    .map((account): OpeningBalance => ({
      id: context.newId(),
      accountId: account.id,
      date: openingDateOf(account, oldest.get(account.source_id)),
      cents: account.balance_cents,
      currency: account.currency,
    }));
  for (const batch of chunksOf(openings)) await insertOpeningBalances(tx, familyId, importId, batch);
  return { accounts: accounts.length, opening_balances: openings.length };
}
