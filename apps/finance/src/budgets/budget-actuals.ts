import type { FinanceDb } from "../db";
import { FLOW_GROUPINGS, groupedFlows } from "../insights/income-statement-flow-queries";
import { classificationOf, missingRatesOf, toTargetCents, type Flows } from "../insights/income-statement-flows";

/** Spending and income of one category (its own entries only) over a period, in the budget's currency's minor units. */
export type CategoryFlows = Flows;

export interface PeriodActuals {
  /** By category id; entries without a category under `null`. */
  byCategory: Map<string | null, CategoryFlows>;
  /** Entries in a currency with no rate to the budget's on or before their day: left out, never taken at 1. */
  missing: { from_currency: string; to_currency: string; entries_count: number }[];
}

/**
 * A period's income and spending per category, as Sure's IncomeStatement::Totals computes them
 * (the rules live in insights/income-statement-flows.ts and its queries, shared with the income
 * statement): a negative amount is income, any other spending, except investment contributions
 * and loan payments, always spending; other currencies converted at the family's rates.
 */
export async function periodActuals(db: FinanceDb, familyId: string, period: { start: string; end: string }, currency: string): Promise<PeriodActuals> {
  const rows = await groupedFlows(db, familyId, period, currency, FLOW_GROUPINGS.category);
  const byCategory = new Map<string | null, CategoryFlows>();
  for (const row of rows) {
    if (row.total === null) continue;
    const cents = toTargetCents(row.total, row.currency, currency);
    const flows = byCategory.get(row.key) ?? { expense: 0n, income: 0n };
    flows[classificationOf(row)] += cents;
    byCategory.set(row.key, flows);
  }
  return { byCategory, missing: missingRatesOf(rows, currency) };
}
