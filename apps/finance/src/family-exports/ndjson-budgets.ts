import { Prisma } from "../generated/prisma/client";
import { afterId, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { amountText, jsonTime, optionalAmountText } from "./sure-values";

interface BudgetRow {
  id: string;
  start_date: string;
  end_date: string;
  budgeted_spending_cents: bigint | null;
  expected_income_cents: bigint | null;
  currency: string;
  created_at: Date;
  updated_at: Date;
}

/** Budget records: Sure's budget.as_json (shared budgets: no user_id), by start date (unique per family). */
export async function* budgetRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<BudgetRow>(
    scope,
    "all.ndjson:Budget",
    (after, limit) => Prisma.sql`
      SELECT b.id::text AS id, b.start_date::text AS start_date, b.end_date::text AS end_date,
             b.budgeted_spending_cents, b.expected_income_cents, b.currency, b.created_at, b.updated_at
        FROM budgets b
       WHERE b.family_id = ${scope.familyId}::uuid ${after === null ? Prisma.empty : Prisma.sql`AND b.start_date > ${after.start_date}::date`}
       ORDER BY b.start_date
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((b) => ({
      type: "Budget",
      data: {
        id: b.id,
        family_id: scope.familyId,
        start_date: b.start_date,
        end_date: b.end_date,
        budgeted_spending: optionalAmountText(b.budgeted_spending_cents, b.currency),
        expected_income: optionalAmountText(b.expected_income_cents, b.currency),
        currency: b.currency,
        created_at: jsonTime(b.created_at),
        updated_at: jsonTime(b.updated_at),
      },
    }));
  }
}

interface BudgetCategoryRow {
  id: string;
  budget_id: string;
  category_id: string;
  budgeted_spending_cents: bigint;
  currency: string;
  created_at: Date;
  updated_at: Date;
}

/** BudgetCategory records: Sure's budget_category.as_json, by id. */
export async function* budgetCategoryRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<BudgetCategoryRow>(
    scope,
    "all.ndjson:BudgetCategory",
    (after, limit) => Prisma.sql`
      SELECT bc.id::text AS id, bc.budget_id::text AS budget_id, bc.category_id::text AS category_id,
             bc.budgeted_spending_cents, bc.currency, bc.created_at, bc.updated_at
        FROM budget_categories bc
       WHERE bc.family_id = ${scope.familyId}::uuid ${afterId("bc.id", after)}
       ORDER BY bc.id
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((bc) => ({
      type: "BudgetCategory",
      data: {
        id: bc.id,
        budget_id: bc.budget_id,
        category_id: bc.category_id,
        budgeted_spending: amountText(bc.budgeted_spending_cents, bc.currency),
        currency: bc.currency,
        created_at: jsonTime(bc.created_at),
        updated_at: jsonTime(bc.updated_at),
      },
    }));
  }
}
