import type { RecurringTransaction } from "@hearth/contracts";
import { isoDateOf } from "../ledger/dates";
import { displayOf } from "../ledger/money";
import type { RecurringRow } from "./recurring-repository";

/** An expected amount's display string and minor units, both null while it is unknown (Sure's `&.format`). */
function expected(cents: bigint | null, currency: string): [string | null, number | null] {
  return cents === null ? [null, null] : [displayOf(cents, currency), Number(cents)];
}

/** Sure's _recurring_transaction.json.jbuilder, amounts as the spec's money pairs. */
export function toRecurringResource(row: RecurringRow): RecurringTransaction {
  const [min, minCents] = expected(row.expected_amount_min_cents, row.currency);
  const [max, maxCents] = expected(row.expected_amount_max_cents, row.currency);
  const [avg, avgCents] = expected(row.expected_amount_avg_cents, row.currency);
  return {
    id: row.id,
    amount: displayOf(row.amount_cents, row.currency),
    amount_cents: Number(row.amount_cents),
    currency: row.currency,
    expected_day_of_month: row.expected_day_of_month,
    last_occurrence_date: isoDateOf(row.last_occurrence_date),
    next_expected_date: isoDateOf(row.next_expected_date),
    status: row.status as RecurringTransaction["status"],
    occurrence_count: row.occurrence_count,
    name: row.name,
    manual: row.manual,
    expected_amount_min: min,
    expected_amount_min_cents: minCents,
    expected_amount_max: max,
    expected_amount_max_cents: maxCents,
    expected_amount_avg: avg,
    expected_amount_avg_cents: avgCents,
    account: row.account_id && row.account_name !== null ? { id: row.account_id, name: row.account_name, account_type: row.account_type } : null,
    merchant: row.merchant_id && row.merchant_name !== null ? { id: row.merchant_id, name: row.merchant_name } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
