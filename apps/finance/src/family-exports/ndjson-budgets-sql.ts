import { Prisma } from "../generated/prisma/client";
import { amountSql, col, timestampFields, token, tokenCol } from "./export-format-sql";
import type { ExportScope } from "./export-scope";
import { recordSection } from "./sure-record";

const money = (cents: string) => token(amountSql(col(cents), col("currency")));

/** Budgets by start date (unique per family). */
const budgetRows = (scope: ExportScope) => Prisma.sql`
  SELECT b.start_date::text AS start_date, b.id::text AS id, b.family_id::text AS family_id, b.end_date::text AS end_date,
         b.budgeted_spending_cents, b.expected_income_cents, b.currency, b.created_at, b.updated_at
    FROM budgets b
   WHERE b.family_id = ${scope.familyId}::uuid
   ORDER BY b.start_date`;

/** Budget records: Sure's budget.as_json (shared budgets: no user_id); an amount not set yet is null. */
export const budgetRecords = recordSection("Budget", budgetRows, {
  id: tokenCol("id"),
  family_id: tokenCol("family_id"),
  start_date: tokenCol("start_date"),
  end_date: tokenCol("end_date"),
  budgeted_spending: money("budgeted_spending_cents"),
  expected_income: money("expected_income_cents"),
  currency: col("currency"),
  ...timestampFields(),
});

const budgetCategoryRows = (scope: ExportScope) => Prisma.sql`
  SELECT bc.id::text AS id, bc.budget_id::text AS budget_id, bc.category_id::text AS category_id,
         bc.budgeted_spending_cents, bc.currency, bc.created_at, bc.updated_at
    FROM budget_categories bc
   WHERE bc.family_id = ${scope.familyId}::uuid
   ORDER BY bc.id`;

/** BudgetCategory records: Sure's budget_category.as_json, by id. */
export const budgetCategoryRecords = recordSection("BudgetCategory", budgetCategoryRows, {
  id: tokenCol("id"),
  budget_id: tokenCol("budget_id"),
  category_id: tokenCol("category_id"),
  budgeted_spending: money("budgeted_spending_cents"),
  currency: col("currency"),
  ...timestampFields(),
});
