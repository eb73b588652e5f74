// Sure's Balance records over Hearth's model, where balances are derived from entries by the sync
// and a valuation sets a day's total: a recorded day the imported entries do not give becomes a
// reconciliation of its balance. Pure: the publish computes the balances (as the sync will) and
// writes what this answers.
import type { DailyBalance } from "../../../balances/balance-calculator";

/** An account's recorded balance at the end of a day (minor units of the account's currency). */
export interface RecordedBalance {
  date: string;
  cents: bigint;
}

/**
 * The recorded balances that need a reconciliation, oldest first: walking the recorded days in
 * order, each is compared with the computed balance moved by the reconciliations made so far (a
 * valuation sets the day's total, so the days after it move with it until the next valuation).
 * `computed` are the account's daily rows without them (consecutive days; after the last, the
 * last; before the first there is no balance, and a reconciliation there starts the account's
 * history, from 0); `valuationDays` the days a valuation of the account is on already (the file's
 * own, the opening anchor): such a day keeps it.
 */
export function reconciliationsFor<T extends RecordedBalance>(
  recorded: readonly T[],
  computed: readonly DailyBalance[],
  valuationDays: ReadonlySet<string>,
): T[] {
  const totals = new Map(computed.map((row) => [row.date, BigInt(row.endCashCents) + BigInt(row.endNonCashCents)]));
  const first = computed[0];
  const last = computed.at(-1);
  const computedOn = (date: string): bigint => totals.get(date) ?? (last !== undefined && date > last.date ? totals.get(last.date)! : 0n);

  const byDay = new Map(recorded.map((balance) => [balance.date, balance]));
  const days = [...new Set([...byDay.keys(), ...valuationDays])].sort();
  const reconciliations: T[] = [];
  let moved = 0n;
  for (const date of days) {
    if (valuationDays.has(date)) {
      moved = 0n;
      continue;
    }
    const balance = byDay.get(date)!;
    const unbalanced = reconciliations.length === 0 && (first === undefined || date < first.date);
    if (!unbalanced && computedOn(date) + moved === balance.cents) continue;
    reconciliations.push(balance);
    moved = balance.cents - computedOn(date);
  }
  return reconciliations;
}
