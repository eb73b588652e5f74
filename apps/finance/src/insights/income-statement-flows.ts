// Sure's IncomeStatement rules, here and in income-statement-flow-queries.ts (the entries that
// count, aggregated in SQL): which entries count as income or spending over a period and how other
// currencies are converted. Budgets (budget-actuals.ts) and the income statement (insights) both
// aggregate through `groupedFlows` and classify with these, so the two never disagree.
import { minorUnitDigits } from "@hearth/contracts";
import { roundHalfAwayFromZero } from "../exchange-rates/convert";

export interface Period {
  start: string;
  end: string;
}

/** Income and spending, in minor units of the target currency. */
export interface Flows {
  expense: bigint;
  income: bigint;
}

/** One aggregate row: a group key, the entries' kind, their direction and currency. */
export interface FlowRow {
  key: string | null;
  kind: string | null;
  inflow: boolean;
  currency: string;
  /** Exact sum of |amount| (x rate), in minor units of the entry's currency (null: no rate for any of them). */
  total: string | null;
  /** Entries in the group, converted or not. */
  entries: number;
  /** Entries with no rate to the target currency on or before their day. */
  unconverted: number;
}

/** Sure's classification: contributions and loan payments are spending whatever their sign; otherwise an inflow is income. */
export const classificationOf = (row: Pick<FlowRow, "kind" | "inflow">): keyof Flows =>
  row.kind === "investment_contribution" || row.kind === "loan_payment" ? "expense" : row.inflow ? "income" : "expense";

/** Minor units of the target currency from an exact decimal in minor units of the source, rounded once, half away from zero. */
export function toTargetCents(exact: string, from: string, to: string): bigint {
  const [whole, fraction = ""] = exact.split(".");
  const shift = minorUnitDigits(to) - minorUnitDigits(from) - fraction.length;
  const digits = BigInt(`${whole}${fraction}`);
  return shift >= 0 ? digits * 10n ** BigInt(shift) : roundHalfAwayFromZero(digits, 10n ** BigInt(-shift));
}

/** Entries left out for want of a rate, per currency, sorted by currency (never taken at 1). */
export function missingRatesOf(rows: readonly FlowRow[], currency: string): { from_currency: string; to_currency: string; entries_count: number }[] {
  const missing = new Map<string, number>();
  for (const row of rows) if (row.unconverted > 0) missing.set(row.currency, (missing.get(row.currency) ?? 0) + row.unconverted);
  return [...missing]
    .map(([from, count]) => ({ from_currency: from, to_currency: currency, entries_count: count }))
    .sort((a, b) => a.from_currency.localeCompare(b.from_currency));
}
