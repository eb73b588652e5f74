import { Prisma } from "../generated/prisma/client";
import { amountSql, col, timestampFields, token, tokenCol } from "./export-format-sql";
import type { ExportScope } from "./export-scope";
import { recordSection } from "./sure-record";

/** Recurring transactions by id; one of an account being deleted goes with it. */
const recurringRows = (scope: ExportScope) => Prisma.sql`
  SELECT r.id::text AS id, r.account_id::text AS account_id, r.merchant_id::text AS merchant_id, r.amount_cents, r.currency,
         r.expected_day_of_month, r.last_occurrence_date::text AS last_occurrence_date, r.next_expected_date::text AS next_expected_date,
         r.status, r.occurrence_count, r.name, r.manual,
         r.expected_amount_min_cents, r.expected_amount_max_cents, r.expected_amount_avg_cents, r.created_at, r.updated_at
    FROM recurring_transactions r
    LEFT JOIN accounts a ON a.id = r.account_id
   WHERE r.family_id = ${scope.familyId}::uuid
         AND (r.account_id IS NULL OR (a.status <> 'pending_deletion' AND a.family_id = r.family_id))
   ORDER BY r.id`;

const money = (cents: string) => token(amountSql(col(cents), col("currency")));

/** RecurringTransaction records: Sure's serialize_recurring_transaction_for_export (no family_id). */
export const recurringRecords = recordSection("RecurringTransaction", recurringRows, {
  id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  merchant_id: tokenCol("merchant_id"),
  amount: money("amount_cents"),
  currency: col("currency"),
  expected_day_of_month: col("expected_day_of_month"),
  last_occurrence_date: tokenCol("last_occurrence_date"),
  next_expected_date: tokenCol("next_expected_date"),
  status: col("status"),
  occurrence_count: col("occurrence_count"),
  name: col("name"),
  manual: col("manual"),
  expected_amount_min: money("expected_amount_min_cents"),
  expected_amount_max: money("expected_amount_max_cents"),
  expected_amount_avg: money("expected_amount_avg_cents"),
  ...timestampFields(),
});
