// The income statement's answer from its aggregate rows: per group and in total, income and
// spending in the family's currency, largest first. Pure, so its arithmetic is tested directly.
import { AppError, type GetIncomeStatementResult, type IncomeStatementGroup, type IncomeStatementGroupBy } from "@hearth/contracts";
import { pairOf } from "../ledger/money";
import { classificationOf, missingRatesOf, toTargetCents, type FlowRow } from "./income-statement-flows";

/** What a group without a category, merchant or tag is called. */
export const NONE_NAMES: Record<IncomeStatementGroupBy, string> = { category: "Uncategorized", merchant: "No merchant", tag: "Untagged" };

interface Tally {
  cents: bigint;
  count: number;
}

type Side = "income" | "expense";

/** Converted sums and counts per key and side; entries with no rate are left out of both. */
function tally(rows: readonly FlowRow[], currency: string): Map<string | null, Record<Side, Tally>> {
  const byKey = new Map<string | null, Record<Side, Tally>>();
  for (const row of rows) {
    if (row.total === null) continue;
    const sides = byKey.get(row.key) ?? { income: { cents: 0n, count: 0 }, expense: { cents: 0n, count: 0 } };
    const side = sides[classificationOf(row)];
    side.cents += toTargetCents(row.total, row.currency, currency);
    side.count += row.entries - row.unconverted;
    byKey.set(row.key, sides);
  }
  return byKey;
}

const LARGEST = BigInt(Number.MAX_SAFE_INTEGER);

/** Figures past JSON's exact integers (an entry converted at an extreme rate) are a clear 422, not a 500 on the way out. */
function showable(cents: bigint): bigint {
  if (cents > LARGEST || cents < -LARGEST)
    throw AppError.validation(["These amounts exceed the largest that can be shown exactly; check the period's exchange rates"]);
  return cents;
}

export function incomeStatementOf(input: {
  period: { start: string; end: string };
  currency: string;
  groupBy: IncomeStatementGroupBy;
  grouped: readonly FlowRow[];
  /** Rows counting each entry once, when `grouped` may count one several times (tags). */
  totals: readonly FlowRow[] | null;
  names: ReadonlyMap<string, string>;
}): GetIncomeStatementResult {
  const { currency } = input;
  const groups = tally(input.grouped, currency);
  const groupsOf = (side: Side): IncomeStatementGroup[] =>
    [...groups]
      .filter(([, sides]) => sides[side].count > 0)
      .map(([key, sides]) => ({
        id: key,
        name: key === null ? NONE_NAMES[input.groupBy] : (input.names.get(key) ?? "Unknown"),
        ...pairOf("amount", showable(sides[side].cents), currency),
        transactions_count: sides[side].count,
      }))
      .sort((a, b) => b.amount_cents - a.amount_cents || a.name.localeCompare(b.name));
  let income = 0n;
  let spending = 0n;
  for (const sides of tally(input.totals ?? input.grouped, currency).values()) {
    income += sides.income.cents;
    spending += sides.expense.cents;
  }
  return {
    start_date: input.period.start,
    end_date: input.period.end,
    currency,
    group_by: input.groupBy,
    ...pairOf("income_total", showable(income), currency),
    ...pairOf("spending_total", showable(spending), currency),
    ...pairOf("net", showable(income - spending), currency),
    income: groupsOf("income"),
    spending: groupsOf("expense"),
    missing_exchange_rates: missingRatesOf(input.totals ?? input.grouped, currency),
  };
}
