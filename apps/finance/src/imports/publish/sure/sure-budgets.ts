import { periodContaining } from "../../../budgets/budget-periods";
import type { SureBudgetCategoryValues, SureBudgetValues } from "../../ndjson";
import { centsColumn, column, inBatches, type SurePublishContext } from "./sure-publish-context";

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
  const existing = await tx.$queryRaw<{ id: string; start_date: string }[]>`
    SELECT id::text AS id, start_date::text AS start_date FROM budgets WHERE family_id = ${familyId}::uuid AND start_date = ANY(${starts}::date[])`;
  const byStart = new Map(existing.map((row) => [row.start_date, row.id]));
  const firstOfPeriod = new Map<string, (typeof periods)[number] & { id: string }>();
  for (const record of periods) {
    const id = byStart.get(record.period.start) ?? firstOfPeriod.get(record.period.start)?.id ?? context.newId();
    ids.set("budgets", record.source_id, id);
    if (!firstOfPeriod.has(record.period.start)) firstOfPeriod.set(record.period.start, { ...record, id });
  }
  const firsts = [...firstOfPeriod.values()];
  const made = firsts.filter((record) => !byStart.has(record.period.start));
  const kept = firsts.filter((record) => byStart.has(record.period.start));
  await inBatches(
    context,
    made,
    (batch) =>
      tx.$executeRaw`
      INSERT INTO budgets (id, family_id, start_date, end_date, budgeted_spending_cents, expected_income_cents, currency, import_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.start_date, t.end_date, t.spending, t.income, t.currency, ${context.importId}::uuid, now(), now()
        FROM unnest(${column(batch, (b) => b.id)}::uuid[], ${column(batch, (b) => b.period.start)}::date[], ${column(batch, (b) => b.period.end)}::date[],
                    ${centsColumn(batch, (b) => b.budgeted_spending_cents)}::bigint[], ${centsColumn(batch, (b) => b.expected_income_cents)}::bigint[],
                    ${column(batch, (b) => b.currency)}::text[])
             WITH ORDINALITY AS t(id, start_date, end_date, spending, income, currency, ordinal)
       ORDER BY t.ordinal`,
  );
  if (kept.length > 0) {
    await tx.$executeRaw`
      UPDATE budgets b SET budgeted_spending_cents = COALESCE(b.budgeted_spending_cents, f.spending),
                           expected_income_cents = COALESCE(b.expected_income_cents, f.income), updated_at = now()
        FROM unnest(${column(kept, (b) => b.id)}::uuid[], ${centsColumn(kept, (b) => b.budgeted_spending_cents)}::bigint[],
                    ${centsColumn(kept, (b) => b.expected_income_cents)}::bigint[]) AS f(id, spending, income)
       WHERE b.id = f.id`;
  }
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
  const byPair = new Map<string, SureBudgetCategoryValues & { id: string; budgetId: string; categoryId: string }>();
  for (const record of records) {
    const budgetId = ids.required("budgets", record.budget_id, record.line);
    const categoryId = ids.required("categories", record.category_id, record.line);
    byPair.set(`${budgetId}:${categoryId}`, { ...record, id: context.newId(), budgetId, categoryId });
  }
  const lines = [...byPair.values()];
  await inBatches(
    context,
    lines,
    (batch) =>
      tx.$executeRaw`
      INSERT INTO budget_categories (id, family_id, budget_id, category_id, budgeted_spending_cents, currency, import_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.budget_id, t.category_id, t.spending, t.currency, ${context.importId}::uuid, now(), now()
        FROM unnest(${column(batch, (l) => l.id)}::uuid[], ${column(batch, (l) => l.budgetId)}::uuid[], ${column(batch, (l) => l.categoryId)}::uuid[],
                    ${centsColumn(batch, (l) => l.budgeted_spending_cents)}::bigint[], ${column(batch, (l) => l.currency)}::text[])
             WITH ORDINALITY AS t(id, budget_id, category_id, spending, currency, ordinal)
       ORDER BY t.ordinal
      ON CONFLICT (budget_id, category_id) DO UPDATE
        SET budgeted_spending_cents = EXCLUDED.budgeted_spending_cents, currency = EXCLUDED.currency, updated_at = now()`,
  );
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
  await context.tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`budgets:${context.familyId}`}, 0))`;
  return { ...(await publishBudgetPeriods(context, budgets, monthStartDay)), ...(await publishBudgetLines(context, lines)) };
}
