import { describe, expect, it } from "vitest";
import { GetTransactionsArgsSchema, GetTransactionsResultSchema, minorUnitDigits, type AssistantTransaction } from "@hearth/contracts";
import { findLargestExpenses } from "../src/assistant/builtin/largest-expenses";
import type { Tools } from "../src/assistant/builtin/tool-calls";

const ACCOUNT = { id: "00000000-0000-4000-8000-000000000999", name: "Checking" };
const expense = (i: number, cents: number, currency: string, date: string): AssistantTransaction => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  date,
  name: `Expense ${i}`,
  amount: String(cents),
  amount_cents: cents,
  currency,
  classification: "expense",
  kind: "standard",
  excluded: false,
  account: ACCOUNT,
  category: null,
  merchant: null,
  tags: [],
  notes: null,
});

/** get_transactions as finance answers it (checked against the contract): newest first, min_amount in each row's own currency's major units. */
function ledgerTools(rows: AssistantTransaction[]): Tools {
  return {
    async call(name: string, raw: unknown) {
      expect(name).toBe("get_transactions");
      const args = GetTransactionsArgsSchema.parse(raw);
      const matching = rows.filter((t) => args.min_amount === undefined || t.amount_cents >= args.min_amount * 10 ** minorUnitDigits(t.currency));
      const perPage = args.per_page ?? 25;
      const page = args.page ?? 1;
      return GetTransactionsResultSchema.parse({
        page,
        per_page: perPage,
        total_count: matching.length,
        total_pages: Math.ceil(matching.length / perPage),
        transactions: matching.slice((page - 1) * perPage, page * perPage),
      });
    },
  } as unknown as Tools;
}

const NOVEMBER = { start: "2026-11-01", end: "2026-11-30", label: "this month", fullEnd: "2026-11-30" };

describe("largest expenses in a family with two currencies (found by review)", () => {
  it("ranks only the family's currency: a $5,000 expense behind 100 newer ¥10,000 ones is found, the yen are mentioned, not ranked", async () => {
    const rows = [...Array.from({ length: 100 }, (_, i) => expense(i, 10_000, "JPY", "2026-11-20")), expense(500, 500_000, "USD", "2026-11-01")];
    for (let i = 0; i < 6; i++) rows.push(expense(600 + i, 1_000 + i, "USD", "2026-11-02"));
    const { expenses, otherCurrencies } = await findLargestExpenses(ledgerTools(rows), NOVEMBER, 3, "USD");
    expect(expenses.map((t) => [t.amount_cents, t.currency])).toEqual([
      [500_000, "USD"],
      [1_005, "USD"],
      [1_004, "USD"],
    ]);
    expect(otherCurrencies).toEqual(["JPY"]);
  });

  it("with one currency, raises the floor until the page holds every expense above it", async () => {
    const rows = Array.from({ length: 340 }, (_, i) => expense(i, ((i * 7919) % 100_000) + 1, "USD", "2026-11-15"));
    const { expenses } = await findLargestExpenses(ledgerTools(rows), NOVEMBER, 5, "USD");
    const expected = [...rows].sort((a, b) => b.amount_cents - a.amount_cents).slice(0, 5);
    expect(expenses.map((t) => t.amount_cents)).toEqual(expected.map((t) => t.amount_cents));
  });

  const largest = async (rows: AssistantTransaction[], count: number) => {
    const found = await findLargestExpenses(ledgerTools(rows), NOVEMBER, count, "USD");
    return { amounts: found.expenses.map((t) => t.amount_cents), complete: found.complete };
  };

  it("finds an old large expense behind newer small ones in its currency and many in another (found by the second review)", async () => {
    const rows = [
      ...Array.from({ length: 3 }, (_, i) => expense(700 + i, 10, "USD", "2026-11-28")),
      ...Array.from({ length: 150 }, (_, i) => expense(i, 10_000, "JPY", "2026-11-20")),
      expense(900, 500_000, "USD", "2026-11-01"),
    ];
    expect(await largest(rows, 3)).toEqual({ amounts: [500_000, 10, 10], complete: true });
  });

  it("reads past 600 newer expenses in another currency", async () => {
    const rows = [
      ...Array.from({ length: 600 }, (_, i) => expense(i, 10_000, "JPY", "2026-11-20")),
      ...Array.from({ length: 3 }, (_, i) => expense(800 + i, 500_000, "USD", "2026-11-02")),
    ];
    expect(await largest(rows, 3)).toEqual({ amounts: [500_000, 500_000, 500_000], complete: true });
  });

  it("with many equal amounts, keeps reading the floored query instead of stopping at the first page", async () => {
    const rows = [...Array.from({ length: 300 }, (_, i) => expense(i, 1_000, "USD", "2026-11-20")), expense(900, 500_000, "USD", "2026-11-01")];
    expect(await largest(rows, 3)).toEqual({ amounts: [500_000, 1_000, 1_000], complete: true });
  });

  it("says when it ran out of calls before it could be sure", async () => {
    const rows = [...Array.from({ length: 2_000 }, (_, i) => expense(i, 10_000, "JPY", "2026-11-20")), expense(900, 500_000, "USD", "2026-11-01")];
    expect(await largest(rows, 3)).toEqual({ amounts: [], complete: false });
  });
});
