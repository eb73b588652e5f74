import { Prisma } from "../generated/prisma/client";
import { afterId, type ExportScope } from "./export-scope";
import { amountSql, jsonTimeSql } from "./sql-format";
import { recordSection } from "./sure-record";

/** Recurring transactions by id; one of an account being deleted goes with it. */
const recurringRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT r.id::text AS k0, r.id::text AS id, r.account_id::text AS account_id, r.merchant_id::text AS merchant_id, r.amount_cents, r.currency,
         r.expected_day_of_month, r.last_occurrence_date::text AS last_occurrence_date, r.next_expected_date::text AS next_expected_date,
         r.status, r.occurrence_count, r.name, r.manual,
         r.expected_amount_min_cents, r.expected_amount_max_cents, r.expected_amount_avg_cents, r.created_at, r.updated_at
    FROM recurring_transactions r
    LEFT JOIN accounts a ON a.id = r.account_id
   WHERE r.family_id = ${scope.familyId}::uuid
         AND (r.account_id IS NULL OR (a.status <> 'pending_deletion' AND a.family_id = r.family_id))
         ${afterId("r.id", after)}
   ORDER BY r.id
   LIMIT ${limit}`;

const money = (cents: string) => amountSql(Prisma.raw(cents), Prisma.sql`r.currency`);

/** RecurringTransaction records: Sure's serialize_recurring_transaction_for_export (no family_id). */
export const recurringRecords = recordSection(
  "RecurringTransaction",
  1,
  recurringRows,
  Prisma.sql`r.id, r.account_id, r.merchant_id, ${money("r.amount_cents")} AS amount, r.currency, r.expected_day_of_month,
    r.last_occurrence_date, r.next_expected_date, r.status, r.occurrence_count, r.name, r.manual,
    ${money("r.expected_amount_min_cents")} AS expected_amount_min, ${money("r.expected_amount_max_cents")} AS expected_amount_max,
    ${money("r.expected_amount_avg_cents")} AS expected_amount_avg,
    ${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`,
);
