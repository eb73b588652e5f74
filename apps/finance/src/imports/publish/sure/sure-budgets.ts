import { periodContaining } from "@hearth/contracts";
import { lockFamilyBudgets } from "../../family-lock-queries";
import type { SureBudgetCategoryValues, SureBudgetValues } from "../../ndjson";
import { budgetsStartingOn, fillBudgetAmounts, insertBudgets, upsertBudgetLines, type BudgetLine, type PeriodBudget } from "./sure-budget-queries";
import { inBatches, type SurePublishContext } from "./sure-publish-context";

/**
 * import_budgets: a budget per period of the family (its month_start_day): each Budget record
 * is the budget of the period its start date falls in (a file from a family whose months start
 * on another day is laid on this family's periods). A period the family has a budget for keeps
 * it, the file filling only the amounts it left unset; two records of one period are one budget.
 */
async function publishBudgetPeriods(context: SurePublishContext, records: readonly SureBudgetValues[], monthStartDay: number) {
  const { tx, familyId, ids } = context;
  const periods = records.map((record) => ({ ...record, period: periodContaining(record.start_date, monthStartDay) }));
  const starts = [...new Set(periods.map((record) => record.period.start))];
  const existing = await budgetsStartingOn(tx, familyId, starts);
  const byStart = new Map(existing.map((row) => [row.start_date, row.id]));
  const firstOfPeriod = new Map<string, PeriodBudget>();
  for (const record of periods) {
    const id = byStart.get(record.period.start) ?? firstOfPeriod.get(record.period.start)?.id ?? context.newId();
    ids.set("budgets", record.source_id, id);
    if (!firstOfPeriod.has(record.period.start)) firstOfPeriod.set(record.period.start, { ...record, id });
  }
  const firsts = [...firstOfPeriod.values()];
  const made = firsts.filter((record) => !byStart.has(record.period.start));
  const kept = firsts.filter((record) => byStart.has(record.period.start));
  await inBatches(context, made, (batch) => insertBudgets(tx, familyId, context.importId, batch));
  if (kept.length > 0) await fillBudgetAmounts(tx, kept);
  await context.linesDone(records.length - made.length);
  return { budgets: made.length, budgets_reused: records.length - made.length };
}

/**
 * import_budget_categories: a budget's limit for a category, both by their new ids; a budget
 * that has a line for the category takes the file's amount (Sure's find_or_initialize_by). The
 * family's other categories get their zero lines when the budget is next read, as always.
 */
async function publishBudgetLines(context: SurePublishContext, records: readonly SureBudgetCategoryValues[]) {
  const { tx, familyId, ids } = context;
  const byPair = new Map<string, BudgetLine>();
  for (const record of records) {
    const budgetId = ids.required("budgets", record.budget_id, record.line);
    const categoryId = ids.required("categories", record.category_id, record.line);
    byPair.set(`${budgetId}:${categoryId}`, { ...record, id: context.newId(), budgetId, categoryId });
  }
  const lines = [...byPair.values()];
  await inBatches(context, lines, (batch) => upsertBudgetLines(tx, familyId, context.importId, batch));
  await context.linesDone(records.length - lines.length);
  return { budget_categories: lines.length };
}

/** Budgets, then their lines, under the budgets' lock (what makes a family's budgets and lines takes it). */
export async function publishBudgets(
  context: SurePublishContext,
  budgets: readonly SureBudgetValues[],
  lines: readonly SureBudgetCategoryValues[],
  monthStartDay: number,
) {
  if (budgets.length === 0 && lines.length === 0) return { budgets: 0, budgets_reused: 0, budget_categories: 0 };
  await lockFamilyBudgets(context.tx, context.familyId);
  return { ...(await publishBudgetPeriods(context, budgets, monthStartDay)), ...(await publishBudgetLines(context, lines)) };
}
