import { Prisma } from "../generated/prisma/client";
import { afterId, type ExportScope } from "./export-scope";
import { amountSql, jsonTimeSql } from "./sql-format";
import { recordSection } from "./sure-record";

const timestamps = Prisma.sql`${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`;
const money = (cents: string) => amountSql(Prisma.raw(cents), Prisma.sql`r.currency`);

/** Budgets by start date (k0; unique per family). */
const budgetRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT b.start_date::text AS k0, b.id::text AS id, b.family_id::text AS family_id, b.end_date::text AS end_date,
         b.budgeted_spending_cents, b.expected_income_cents, b.currency, b.created_at, b.updated_at
    FROM budgets b
   WHERE b.family_id = ${scope.familyId}::uuid ${after === null ? Prisma.empty : Prisma.sql`AND b.start_date > ${after[0]}::date`}
   ORDER BY b.start_date
   LIMIT ${limit}`;

/** Budget records: Sure's budget.as_json (shared budgets: no user_id); an amount not set yet is null. */
export const budgetRecords = recordSection(
  "Budget",
  1,
  budgetRows,
  Prisma.sql`r.id, r.family_id, r.k0 AS start_date, r.end_date, ${money("r.budgeted_spending_cents")} AS budgeted_spending,
    ${money("r.expected_income_cents")} AS expected_income, r.currency, ${timestamps}`,
);

const budgetCategoryRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT bc.id::text AS k0, bc.id::text AS id, bc.budget_id::text AS budget_id, bc.category_id::text AS category_id,
         bc.budgeted_spending_cents, bc.currency, bc.created_at, bc.updated_at
    FROM budget_categories bc
   WHERE bc.family_id = ${scope.familyId}::uuid ${afterId("bc.id", after)}
   ORDER BY bc.id
   LIMIT ${limit}`;

/** BudgetCategory records: Sure's budget_category.as_json, by id. */
export const budgetCategoryRecords = recordSection(
  "BudgetCategory",
  1,
  budgetCategoryRows,
  Prisma.sql`r.id, r.budget_id, r.category_id, ${money("r.budgeted_spending_cents")} AS budgeted_spending, r.currency, ${timestamps}`,
);
