import { Prisma } from "../generated/prisma/client";
import { afterId, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { amountText, jsonTime, optionalAmountText } from "./sure-values";

interface RecurringRow {
  id: string;
  account_id: string | null;
  merchant_id: string | null;
  amount_cents: bigint;
  currency: string;
  expected_day_of_month: number;
  last_occurrence_date: string;
  next_expected_date: string;
  status: string;
  occurrence_count: number;
  name: string | null;
  manual: boolean;
  expected_amount_min_cents: bigint | null;
  expected_amount_max_cents: bigint | null;
  expected_amount_avg_cents: bigint | null;
  created_at: Date;
  updated_at: Date;
}

/** RecurringTransaction records: Sure's serialize_recurring_transaction_for_export (no family_id), by id. */
export async function* recurringRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<RecurringRow>(
    scope,
    "all.ndjson:RecurringTransaction",
    (after, limit) => Prisma.sql`
      SELECT r.id::text AS id, r.account_id::text AS account_id, r.merchant_id::text AS merchant_id, r.amount_cents, r.currency,
             r.expected_day_of_month, r.last_occurrence_date::text AS last_occurrence_date, r.next_expected_date::text AS next_expected_date,
             r.status, r.occurrence_count, r.name, r.manual,
             r.expected_amount_min_cents, r.expected_amount_max_cents, r.expected_amount_avg_cents, r.created_at, r.updated_at
        FROM recurring_transactions r
        LEFT JOIN accounts a ON a.id = r.account_id
       WHERE r.family_id = ${scope.familyId}::uuid
             AND (r.account_id IS NULL OR (a.status <> 'pending_deletion' AND a.family_id = r.family_id))
             ${afterId("r.id", after)}
       ORDER BY r.id
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((r) => ({
      type: "RecurringTransaction",
      data: {
        id: r.id,
        account_id: r.account_id,
        merchant_id: r.merchant_id,
        amount: amountText(r.amount_cents, r.currency),
        currency: r.currency,
        expected_day_of_month: r.expected_day_of_month,
        last_occurrence_date: r.last_occurrence_date,
        next_expected_date: r.next_expected_date,
        status: r.status,
        occurrence_count: r.occurrence_count,
        name: r.name,
        manual: r.manual,
        expected_amount_min: optionalAmountText(r.expected_amount_min_cents, r.currency),
        expected_amount_max: optionalAmountText(r.expected_amount_max_cents, r.currency),
        expected_amount_avg: optionalAmountText(r.expected_amount_avg_cents, r.currency),
        created_at: jsonTime(r.created_at),
        updated_at: jsonTime(r.updated_at),
      },
    }));
  }
}
