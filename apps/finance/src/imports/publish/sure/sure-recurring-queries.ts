import type { FinanceTx } from "../../../db";
import type { SureRecurringTransactionValues } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** A RecurringTransaction record under its new id and its account's and merchant's, with Hearth's identity key. */
export type NewRecurringTransaction = SureRecurringTransactionValues & { id: string; accountId: string | null; merchantId: string | null; identityKey: string };

/** Writes recurring transactions with the import's id, skipping one the family has of the same identity key: how many it wrote. */
export function insertRecurringTransactions(tx: FinanceTx, familyId: string, importId: string, batch: readonly NewRecurringTransaction[]): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO recurring_transactions (id, family_id, account_id, merchant_id, name, amount_cents, currency, expected_day_of_month,
                                        last_occurrence_date, next_expected_date, status, occurrence_count, manual,
                                        expected_amount_min_cents, expected_amount_max_cents, expected_amount_avg_cents, identity_key, import_id,
                                        created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.account_id, t.merchant_id, t.name, t.amount_cents, t.currency, t.day, t.last_date, t.next_date, t.status,
           t.occurrences, t.manual, t.min_cents, t.max_cents, t.avg_cents, t.identity_key, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (r) => r.id)}::uuid[], ${column(batch, (r) => r.accountId)}::uuid[], ${column(batch, (r) => r.merchantId)}::uuid[],
                  ${column(batch, (r) => r.name)}::text[], ${centsColumn(batch, (r) => r.amount_cents)}::bigint[], ${column(batch, (r) => r.currency)}::text[],
                  ${column(batch, (r) => r.expected_day_of_month)}::int[], ${column(batch, (r) => r.last_occurrence_date)}::date[],
                  ${column(batch, (r) => r.next_expected_date)}::date[], ${column(batch, (r) => r.status)}::text[],
                  ${column(batch, (r) => r.occurrence_count)}::int[], ${column(batch, (r) => r.manual)}::boolean[],
                  ${centsColumn(batch, (r) => r.expected_amount_min_cents)}::bigint[], ${centsColumn(batch, (r) => r.expected_amount_max_cents)}::bigint[],
                  ${centsColumn(batch, (r) => r.expected_amount_avg_cents)}::bigint[], ${column(batch, (r) => r.identityKey)}::text[])
           WITH ORDINALITY AS t(id, account_id, merchant_id, name, amount_cents, currency, day, last_date, next_date, status, occurrences, manual,
                                min_cents, max_cents, avg_cents, identity_key, ordinal)
     ORDER BY t.ordinal
    ON CONFLICT (family_id, identity_key) DO NOTHING`;
}
