import type { BudgetPeriod } from "@hearth/contracts";
import type { FinanceTx } from "../../../db";
import type { SureBudgetCategoryValues, SureBudgetValues } from "../../ndjson";
import { centsColumn, column } from "./sure-publish-context";

/** A Budget record laid on one of the family's periods, under the id of that period's budget. */
export type PeriodBudget = SureBudgetValues & { id: string; period: BudgetPeriod };
/** A BudgetCategory record under its new id and the new ids of its budget and category. */
export type BudgetLine = SureBudgetCategoryValues & { id: string; budgetId: string; categoryId: string };

/** The family's budgets of the periods starting on these days. */
export function budgetsStartingOn(tx: FinanceTx, familyId: string, starts: string[]) {
  return tx.$queryRaw<{ id: string; start_date: string }[]>`
    SELECT id::text AS id, start_date::text AS start_date FROM budgets WHERE family_id = ${familyId}::uuid AND start_date = ANY(${starts}::date[])`;
}

/** Writes budgets of the file's periods, with the import's id, in the file's order. */
export async function insertBudgets(tx: FinanceTx, familyId: string, importId: string, batch: readonly PeriodBudget[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO budgets (id, family_id, start_date, end_date, budgeted_spending_cents, expected_income_cents, currency, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.start_date, t.end_date, t.spending, t.income, t.currency, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (b) => b.id)}::uuid[], ${column(batch, (b) => b.period.start)}::date[], ${column(batch, (b) => b.period.end)}::date[],
                  ${centsColumn(batch, (b) => b.budgeted_spending_cents)}::bigint[], ${centsColumn(batch, (b) => b.expected_income_cents)}::bigint[],
                  ${column(batch, (b) => b.currency)}::text[])
           WITH ORDINALITY AS t(id, start_date, end_date, spending, income, currency, ordinal)
     ORDER BY t.ordinal`;
}

/** Fills the amounts the family's budgets left unset from the file's. */
export async function fillBudgetAmounts(tx: FinanceTx, kept: readonly PeriodBudget[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE budgets b SET budgeted_spending_cents = COALESCE(b.budgeted_spending_cents, f.spending),
                         expected_income_cents = COALESCE(b.expected_income_cents, f.income), updated_at = now()
      FROM unnest(${column(kept, (b) => b.id)}::uuid[], ${centsColumn(kept, (b) => b.budgeted_spending_cents)}::bigint[],
                  ${centsColumn(kept, (b) => b.expected_income_cents)}::bigint[]) AS f(id, spending, income)
     WHERE b.id = f.id`;
}

/** Writes budget lines with the import's id; a budget's line for the category takes the file's amount (Sure's find_or_initialize_by). */
export async function upsertBudgetLines(tx: FinanceTx, familyId: string, importId: string, batch: readonly BudgetLine[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO budget_categories (id, family_id, budget_id, category_id, budgeted_spending_cents, currency, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.budget_id, t.category_id, t.spending, t.currency, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (l) => l.id)}::uuid[], ${column(batch, (l) => l.budgetId)}::uuid[], ${column(batch, (l) => l.categoryId)}::uuid[],
                  ${centsColumn(batch, (l) => l.budgeted_spending_cents)}::bigint[], ${column(batch, (l) => l.currency)}::text[])
           WITH ORDINALITY AS t(id, budget_id, category_id, spending, currency, ordinal)
     ORDER BY t.ordinal
    ON CONFLICT (budget_id, category_id) DO UPDATE
      SET budgeted_spending_cents = EXCLUDED.budgeted_spending_cents, currency = EXCLUDED.currency, updated_at = now()`;
}
