import type { FinanceTx } from "../db";
import { monthsBefore } from "./next-expected-date";

/** Sure's should_be_inactive?: an automatic row is stale after 2 months without an occurrence, a manual one after 6. */
export const STALE_AFTER_MONTHS = { automatic: 2, manual: 6 } as const;

/**
 * Sure's Cleaner#cleanup_stale_transactions: an active row whose last occurrence is older than
 * its threshold becomes inactive, unless a matching transaction (its account or else the
 * family's, its currency, its amount or a manual row's expected range, a day within 2 of the
 * expected day, its merchant or else its name) happened since the threshold. Sure compares the
 * last occurrence date with a time of today, so a date on the threshold day counts as older.
 * Returns how many became inactive.
 */
export async function markStaleInactive(tx: FinanceTx, familyId: string, today: string): Promise<number> {
  const automatic = monthsBefore(today, STALE_AFTER_MONTHS.automatic);
  const manual = monthsBefore(today, STALE_AFTER_MONTHS.manual);
  return tx.$executeRaw`
    UPDATE recurring_transactions r SET status = 'inactive', updated_at = now()
     WHERE r.family_id = ${familyId}::uuid AND r.status = 'active'
       AND r.last_occurrence_date <= CASE WHEN r.manual THEN ${manual}::date ELSE ${automatic}::date END
       AND NOT EXISTS (
         SELECT 1 FROM entries e
          WHERE e.family_id = r.family_id AND e.kind = 'transaction' AND e.currency = r.currency
            AND (r.account_id IS NULL OR e.account_id = r.account_id)
            AND e.date >= CASE WHEN r.manual THEN ${manual}::date ELSE ${automatic}::date END
            AND CASE WHEN r.manual AND r.expected_amount_min_cents IS NOT NULL AND r.expected_amount_max_cents IS NOT NULL
                     THEN e.amount_cents BETWEEN r.expected_amount_min_cents AND r.expected_amount_max_cents
                     ELSE e.amount_cents = r.amount_cents END
            -- Sure's day_of_month_scope: a plain range of days, not the month's circle.
            AND EXTRACT(DAY FROM e.date) BETWEEN GREATEST(r.expected_day_of_month - 2, 1) AND LEAST(r.expected_day_of_month + 2, 31)
            AND CASE WHEN r.merchant_id IS NOT NULL THEN e.merchant_id = r.merchant_id ELSE e.name = r.name END)`;
}

/**
 * Rows whose account is being deleted (a deleted account or merchant takes its rows with it: the
 * foreign keys cascade, as Sure's do; the checks for them stay as a guard). Returns how many went.
 */
export async function removeOrphans(tx: FinanceTx, familyId: string): Promise<number> {
  return tx.$executeRaw`
    DELETE FROM recurring_transactions r
     WHERE r.family_id = ${familyId}::uuid
       AND ((r.account_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id AND a.status <> 'pending_deletion'))
         OR (r.merchant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM merchants m WHERE m.id = r.merchant_id)))`;
}
