import { moveOpeningAnchorFirst, balanceReadsIn } from "../../../balances/balance-materializer-queries";
import { computeBalances } from "../../../balances/balance-materializer";
import { MissingExchangeRate } from "../../../exchange-rates/rate-book";
import { todayIso } from "../../../ledger/dates";
import type { SureAccountValues, SureBalanceValues, SureNdjsonRecords } from "../../ndjson";
import { reconciliationsFor } from "./balance-history";
import { importValuationDays } from "./sure-balance-queries";
import { chunksOf, type SurePublishContext } from "./sure-publish-context";
import { insertValuations } from "./sure-valuation-queries";

/** What a reconciliation the import makes from a Balance record is called. */
const RECONCILIATION_NAME = "Imported balance";

/**
 * Sure's Balance records per account, the last of a day winning (Sure's upsert by account, date
 * and currency): only those in the account's currency, the only one Hearth keeps balances in.
 */
function recordedByAccount(records: SureNdjsonRecords): Map<SureAccountValues, (SureBalanceValues & { cents: bigint })[]> {
  const accounts = new Map(records.Account.map((account) => [account.source_id, account]));
  const days = new Map<SureAccountValues, Map<string, SureBalanceValues & { cents: bigint }>>();
  for (const balance of records.Balance) {
    const account = accounts.get(balance.account_id)!;
    if (balance.currency !== account.currency) continue;
    const byDay = days.get(account) ?? new Map<string, SureBalanceValues & { cents: bigint }>();
    byDay.set(balance.date, { ...balance, cents: balance.balance_cents });
    days.set(account, byDay);
  }
  return new Map([...days].map(([account, byDay]) => [account, [...byDay.values()]]));
}

/**
 * import_balances over Hearth's model, where balances are the sync's computation from entries:
 * after every entry of the file is written, each account's balances are computed as the sync
 * will (read-only, in this transaction), and a recorded day they miss becomes a reconciliation
 * (a valuation) of its balance, with the import's id, so the queued sync, and every later one,
 * derives the recorded history. A file without Balance records, or a Hearth export of a family
 * whose balances its entries give, makes none. An account whose entries need an exchange rate the
 * family lacks is left to its sync, which fails naming the rate.
 */
export async function publishBalanceHistory(context: SurePublishContext, records: SureNdjsonRecords) {
  const { tx, familyId, importId } = context;
  const today = todayIso();
  const recorded = [...recordedByAccount(records)].map(([account, balances]) => ({
    account,
    balances,
    id: context.ids.required("accounts", account.source_id, account.line),
  }));
  // The sync first moves an opening anchor before any older entry: computed as it will be.
  for (const { id } of recorded) await moveOpeningAnchorFirst(tx, id);
  const valuationDays = await importValuationDays(tx, familyId, importId);
  const rows = [];
  for (const { account, balances, id } of recorded) {
    let computed;
    try {
      computed = await computeBalances(
        balanceReadsIn(tx, id),
        { id, familyId, currency: account.currency, accountType: account.account_type },
        { windowStart: null, today, anchorMoved: false },
      );
    } catch (err) {
      if (err instanceof MissingExchangeRate) continue;
      throw err;
    }
    for (const balance of reconciliationsFor(balances, computed?.rows ?? [], valuationDays.get(id) ?? new Set())) {
      rows.push({ ...balance, id: context.newId(), accountId: id, amount_cents: balance.cents, name: RECONCILIATION_NAME, kind: "reconciliation" as const });
    }
  }
  for (const batch of chunksOf(rows)) await insertValuations(tx, familyId, importId, batch);
  await context.linesDone(records.Balance.length);
  return { balance_reconciliations: rows.length };
}
