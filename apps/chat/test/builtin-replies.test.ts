import { randomUUID } from "node:crypto";
import {
  ASSISTANT_TOOLS,
  formatMoney,
  moneyOf,
  type AssistantAccount,
  type AssistantCategory,
  type AssistantRecurringTransaction,
  type AssistantToolName,
  type AssistantTransaction,
  type GetBudgetResult,
  type GetIncomeStatementResult,
  type IncomeStatementGroup,
} from "@hearth/contracts";
import { beforeEach, describe, expect, it } from "vitest";
import type { FamilyFacts, ReplyIo, ToolResult } from "../src/assistant/assistant-types";
import { BUILTIN_MODEL, answerQuestion, createBuiltinAssistant, textOf } from "../src/assistant/builtin";
import { toolsOf } from "../src/assistant/builtin/tool-calls";

// A small ledger in memory behind the tools. Every argument is parsed with the contract's args
// schema and every result with its result schema, so this fake cannot drift from the contract.

const FAMILY: FamilyFacts = { currency: "USD", locale: "en-US", timezone: "America/New_York", today: "2026-11-15" };

type Impl = (args: any) => unknown;

interface Ledger {
  currency: string;
  accounts: AssistantAccount[];
  categories: AssistantCategory[];
  merchants: { id: string; name: string }[];
  tags: { id: string; name: string; color: string }[];
  transactions: AssistantTransaction[];
  recurring: AssistantRecurringTransaction[];
  budgets: Record<string, GetBudgetResult>;
}

interface Call {
  name: string;
  args: unknown;
  result: ToolResult;
}

const ref = (item: { id: string; name: string }) => ({ id: item.id, name: item.name });

function makeLedger() {
  const currency = "USD";
  const category = (name: string, classification: "income" | "expense", parent: AssistantCategory | null = null): AssistantCategory => ({
    id: randomUUID(),
    name,
    classification,
    parent: parent ? ref(parent) : null,
  });
  const food = category("Food", "expense");
  const groceries = category("Groceries", "expense", food);
  const restaurants = category("Restaurants", "expense", food);
  const foodOther = category("Other", "expense", food);
  const transport = category("Transport", "expense");
  const transportOther = category("Other", "expense", transport);
  const salary = category("Salary", "income");
  const rent = category("Rent", "expense");
  const shopping = category("Shopping", "expense");
  const misc = category("Misc", "expense");
  const merchant = (name: string) => ({ id: randomUUID(), name });
  const wholeFoods = merchant("Whole Foods");
  const chipotle = merchant("Chipotle");
  const acme = merchant("Acme Corp");
  const landlord = merchant("Landlord");
  const amazon = merchant("Amazon");
  const tag = (name: string) => ({ id: randomUUID(), name, color: "#e99537" });
  const vacation = tag("Vacation");
  const gifts = tag("Gifts");

  const account = (name: string, type: string, classification: "asset" | "liability", cents: number, subtype: string | null = null): AssistantAccount => ({
    id: randomUUID(),
    name,
    account_type: type,
    subtype,
    classification,
    status: "active",
    currency,
    ...moneyOf("balance", cents, currency),
    institution_name: null,
  });
  const checking = account("Chase Checking", "depository", "asset", 234_567, "checking");
  const savings = account("Ally Savings", "depository", "asset", 1_000_000, "savings");
  const visa = account("Visa Signature", "credit_card", "liability", 51_230);

  let sequence = 0;
  const transaction = (
    date: string,
    cents: number,
    options: Partial<Pick<AssistantTransaction, "classification" | "kind" | "excluded">> & {
      category?: AssistantCategory;
      merchant?: { id: string; name: string };
      tags?: { id: string; name: string }[];
      name?: string;
    } = {},
  ): AssistantTransaction => ({
    id: randomUUID(),
    date,
    name: options.name ?? options.merchant?.name ?? `Transaction ${++sequence}`,
    ...moneyOf("amount", cents, currency),
    currency,
    classification: options.classification ?? "expense",
    kind: options.kind ?? "standard",
    excluded: options.excluded ?? false,
    account: ref(checking),
    category: options.category ? ref(options.category) : null,
    merchant: options.merchant ? ref(options.merchant) : null,
    tags: (options.tags ?? []).map(ref),
    notes: null,
  });

  // A deterministic spread of expenses in September, for the largest-expenses search.
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647);
  const september = Array.from({ length: 340 }, (_, index) =>
    transaction(`2026-09-${String((index % 30) + 1).padStart(2, "0")}`, (random() % 90_000) + 100, { category: misc }),
  );

  const transactions = [
    transaction("2026-10-03", 12_345, { category: groceries, merchant: wholeFoods }),
    transaction("2026-10-20", 6_789, { category: groceries, merchant: wholeFoods }),
    transaction("2026-10-21", 500, { category: groceries, merchant: wholeFoods, classification: "income", name: "Refund" }),
    transaction("2026-11-02", 5_000, { category: groceries, merchant: wholeFoods }),
    transaction("2026-10-05", 2_510, { category: restaurants, merchant: chipotle }),
    transaction("2026-10-08", 1_000, { category: food, name: "Farmers market" }),
    transaction("2026-10-31", 500_000, { category: salary, merchant: acme, classification: "income" }),
    transaction("2026-10-01", 150_000, { category: rent, merchant: landlord }),
    transaction("2026-11-01", 150_000, { category: rent, merchant: landlord }),
    transaction("2026-03-10", 20_000, { category: shopping, merchant: amazon, tags: [vacation] }),
    transaction("2026-03-12", 30_000, { category: shopping, merchant: amazon, tags: [vacation, gifts] }),
    transaction("2026-10-15", 100_000, { kind: "funds_movement", name: "To savings" }),
    transaction("2026-10-16", 99_900, { excluded: true, category: shopping, name: "Excluded" }),
    transaction("2026-10-17", 80_000, { kind: "cc_payment", name: "Card payment" }),
    ...september,
  ];

  const recurring = (name: string, cents: number, next: string, options: { classification?: "income" | "expense"; status?: "active" | "inactive" } = {}) =>
    ({
      id: randomUUID(),
      name,
      ...moneyOf("amount", cents, currency),
      currency,
      classification: options.classification ?? "expense",
      status: options.status ?? "active",
      expected_day_of_month: Number(next.slice(8)),
      next_expected_date: next,
      last_occurrence_date: "2026-10-20",
      occurrence_count: 6,
      manual: false,
      account: ref(checking),
      merchant: null,
    }) satisfies AssistantRecurringTransaction;

  const line = (category: AssistantCategory, budgeted: number, spent: number) => ({
    id: category.id,
    name: category.name,
    parent: category.parent,
    inherits_parent_budget: false,
    ...moneyOf("budgeted", budgeted, currency),
    ...moneyOf("actual_spending", spent, currency),
    ...moneyOf("available_to_spend", budgeted - spent, currency),
    over_budget: spent > budgeted,
  });

  const november: GetBudgetResult = {
    name: "November 2026",
    start_date: "2026-11-01",
    end_date: "2026-11-30",
    currency,
    initialized: true,
    ...moneyOf("budgeted_spending", 300_000, currency),
    ...moneyOf("expected_income", 500_000, currency),
    ...moneyOf("allocated_spending", 250_000, currency),
    ...moneyOf("actual_spending", 155_000, currency),
    ...moneyOf("actual_income", 0, currency),
    ...moneyOf("available_to_spend", 145_000, currency),
    categories: [line(groceries, 40_000, 5_000), line(restaurants, 2_000, 2_510), line(rent, 150_000, 150_000)],
    missing_exchange_rates: [],
  };

  const ledger: Ledger = {
    currency,
    accounts: [checking, savings, visa],
    categories: [food, groceries, restaurants, foodOther, transport, transportOther, salary, rent, shopping, misc],
    merchants: [wholeFoods, chipotle, acme, landlord, amazon],
    tags: [vacation, gifts],
    transactions,
    recurring: [
      recurring("Netflix", 1_599, "2026-11-20"),
      recurring("Rent", 150_000, "2026-12-01"),
      recurring("Acme salary", 500_000, "2026-11-30", { classification: "income" }),
      recurring("Gym", 4_000, "2027-01-05"),
      recurring("Old magazine", 999, "2026-11-18", { status: "inactive" }),
    ],
    budgets: { "2026-11": november },
  };
  return { ledger, ids: { food, groceries, restaurants, salary, wholeFoods, vacation, september } };
}

/** Sure's income statement over the in-memory transactions (one currency). */
function incomeStatement(ledger: Ledger, args: any): GetIncomeStatementResult {
  const counted = ledger.transactions.filter(
    (t) =>
      t.date >= args.start_date &&
      t.date <= args.end_date &&
      !t.excluded &&
      !["funds_movement", "cc_payment", "one_time"].includes(t.kind) &&
      (args.category_id === undefined || (t.category?.id ?? null) === args.category_id) &&
      (args.merchant_id === undefined || t.merchant?.id === args.merchant_id) &&
      (args.tag_id === undefined || t.tags.some((tag) => tag.id === args.tag_id)),
  );
  const keysOf = (t: AssistantTransaction): { id: string | null; name: string }[] => {
    if (args.group_by === "category") return [t.category ?? { id: null, name: "Uncategorized" }];
    if (args.group_by === "merchant") return [t.merchant ?? { id: null, name: "No merchant" }];
    return t.tags.length > 0 ? t.tags : [{ id: null, name: "Untagged" }];
  };
  const side = (classification: "income" | "expense"): IncomeStatementGroup[] => {
    const groups = new Map<string | null, { name: string; cents: number; count: number }>();
    for (const t of counted.filter((t) => t.classification === classification)) {
      for (const key of keysOf(t)) {
        const group = groups.get(key.id) ?? { name: key.name, cents: 0, count: 0 };
        group.cents += t.amount_cents;
        group.count += 1;
        groups.set(key.id, group);
      }
    }
    return [...groups]
      .map(([id, group]) => ({ id, name: group.name, ...moneyOf("amount", group.cents, ledger.currency), transactions_count: group.count }))
      .sort((a, b) => b.amount_cents - a.amount_cents);
  };
  const total = (classification: "income" | "expense") =>
    counted.filter((t) => t.classification === classification).reduce((sum, t) => sum + t.amount_cents, 0);
  const income = total("income");
  const spending = total("expense");
  return {
    start_date: args.start_date,
    end_date: args.end_date,
    currency: ledger.currency,
    group_by: args.group_by,
    ...moneyOf("income_total", income, ledger.currency),
    ...moneyOf("spending_total", spending, ledger.currency),
    ...moneyOf("net", income - spending, ledger.currency),
    income: side("income"),
    spending: side("expense"),
    missing_exchange_rates: [],
  };
}

function implementations(ledger: Ledger): Partial<Record<AssistantToolName, Impl>> {
  const list = { truncated: false };
  return {
    get_accounts: () => ({ accounts: ledger.accounts, total_count: ledger.accounts.length, ...list }),
    get_categories: () => ({ categories: ledger.categories, total_count: ledger.categories.length, ...list }),
    get_merchants: (args) => {
      const merchants = ledger.merchants.filter((m) => args.search === undefined || m.name.toLowerCase().includes(args.search.toLowerCase()));
      return { merchants, total_count: merchants.length, ...list };
    },
    get_tags: () => ({ tags: ledger.tags, total_count: ledger.tags.length, ...list }),
    get_balance_sheet: () => {
      const sum = (classification: string) => ledger.accounts.filter((a) => a.classification === classification).reduce((s, a) => s + a.balance_cents, 0);
      const assets = sum("asset");
      const liabilities = sum("liability");
      return {
        currency: ledger.currency,
        ...moneyOf("net_worth", assets - liabilities, ledger.currency),
        ...moneyOf("assets", assets, ledger.currency),
        ...moneyOf("liabilities", liabilities, ledger.currency),
        missing_exchange_rates: [],
      };
    },
    get_income_statement: (args) => incomeStatement(ledger, args),
    get_budget: (args) => {
      const month = args.month ?? FAMILY.today.slice(0, 7);
      return ledger.budgets[month] ?? { error: "not_found", hint: `No budget for ${month}` };
    },
    get_recurring_transactions: (args) => {
      const rows = ledger.recurring.filter((r) => args.status === "all" || r.status === args.status);
      return { recurring_transactions: rows, total_count: rows.length, ...list };
    },
    get_transactions: (args) => {
      const rows = ledger.transactions
        .filter((t) => (args.start_date === undefined || t.date >= args.start_date) && (args.end_date === undefined || t.date <= args.end_date))
        .filter((t) => args.type === undefined || t.classification === args.type)
        .filter((t) => args.min_amount === undefined || t.amount_cents >= Math.round(args.min_amount * 100))
        .sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
      const from = (args.page - 1) * args.per_page;
      return {
        page: args.page,
        per_page: args.per_page,
        total_count: rows.length,
        total_pages: Math.ceil(rows.length / args.per_page),
        transactions: rows.slice(from, from + args.per_page),
      };
    },
  };
}

/** The tools over a ledger, recording each call; `overrides` answer in place of the ledger (errors, bad shapes). */
function fakeTools(ledger: Ledger, overrides: Partial<Record<AssistantToolName, Impl>> = {}) {
  const impls = { ...implementations(ledger), ...overrides };
  const calls: Call[] = [];
  const callTool = async (name: string, args: unknown): Promise<ToolResult> => {
    const def = ASSISTANT_TOOLS[name as AssistantToolName];
    const impl = impls[name as AssistantToolName];
    let result: ToolResult;
    if (!def || !impl) result = { error: "unknown_tool", hint: `No tool ${name}` };
    else {
      const parsed = def.args.safeParse(args);
      if (!parsed.success) result = { error: "invalid_arguments", hint: parsed.error.message };
      else {
        const answer = impl(parsed.data) as ToolResult;
        // The ledger's own answers must satisfy the contract; overrides may be deliberately wrong.
        result = name in overrides || "error" in answer ? answer : (def.result.parse(answer) as ToolResult);
      }
    }
    calls.push({ name, args, result });
    return result;
  };
  return { callTool, calls };
}

/** The reply's text to a question, and the tool calls it made. */
async function ask(question: string, ledger: Ledger, options: { family?: FamilyFacts; overrides?: Partial<Record<AssistantToolName, Impl>> } = {}) {
  const tools = fakeTools(ledger, options.overrides);
  const answer = await answerQuestion(question, toolsOf({ callTool: tools.callTool, signal: new AbortController().signal }), options.family ?? FAMILY);
  // Intl puts thin spaces around a range's dash ("Oct 1 – 31"): plain spaces here keep the expected sentences readable.
  const text = textOf(answer).replaceAll("\u2009", " ");
  return { text, calls: tools.calls, names: tools.calls.map((call) => call.name) };
}

const usd = (cents: number) => formatMoney(cents, "USD", "en-US");
const lastResult = (calls: Call[], name: string) => calls.filter((call) => call.name === name).at(-1)!.result as any;

let fixture: ReturnType<typeof makeLedger>;
beforeEach(() => {
  fixture = makeLedger();
});

describe("net worth", () => {
  it("says the balance sheet's figures in one call", async () => {
    const { text, calls, names } = await ask("What's my net worth?", fixture.ledger);
    const sheet = lastResult(calls, "get_balance_sheet");
    expect(names).toEqual(["get_balance_sheet"]);
    expect(sheet.net_worth_cents).toBe(234_567 + 1_000_000 - 51_230);
    expect(text).toBe(
      `Your net worth is ${usd(sheet.net_worth_cents)}: ${usd(sheet.assets_cents)} in assets and ${usd(sheet.liabilities_cents)} in liabilities.`,
    );
    expect(text).toContain("$11,833.37");
  });

  it("writes figures in the family's locale and currency", async () => {
    const ledger = { ...fixture.ledger, currency: "EUR" };
    ledger.accounts = ledger.accounts.map((account) => ({ ...account, currency: "EUR" }));
    const { text } = await ask("net worth?", ledger, { family: { ...FAMILY, currency: "EUR", locale: "de-DE" } });
    expect(text).toContain(formatMoney(1_183_337, "EUR", "de-DE"));
    expect(text).toContain("11.833,37\u00a0€");
  });

  it("falls back to en-US for a locale Intl does not know", async () => {
    const { text } = await ask("net worth", fixture.ledger, { family: { ...FAMILY, locale: "zz-invalid-locale-$$" } });
    expect(text).toContain("$11,833.37");
  });
});

describe("account balances", () => {
  it("answers one account by its whole name or a word of it", async () => {
    expect((await ask("What's the balance of Chase Checking?", fixture.ledger)).text).toBe("Your Chase Checking balance is $2,345.67.");
    const checking = await ask("What's the balance of my checking account?", fixture.ledger);
    expect(checking.text).toBe(`Your Chase Checking balance is ${usd(lastResult(checking.calls, "get_accounts").accounts[0].balance_cents)}.`);
    expect(checking.names).toEqual(["get_accounts"]);
    expect((await ask("how much is in savings", fixture.ledger)).text).toBe("Your Ally Savings balance is $10,000.00.");
  });

  it("says what is owed on a liability", async () => {
    expect((await ask("How much do I owe on my Visa?", fixture.ledger)).text).toBe("You owe $512.30 on Visa Signature.");
  });

  it("lists every account when none is named", async () => {
    const { text } = await ask("What are my account balances?", fixture.ledger);
    expect(text).toBe(["Your account balances:", "- Chase Checking: $2,345.67", "- Ally Savings: $10,000.00", "- Visa Signature: $512.30 owed"].join("\n"));
  });

  it("says plainly when the named account is not there", async () => {
    const { text } = await ask("How much is in my Monzo account?", fixture.ledger);
    expect(text).toBe("I couldn't find an account called 'monzo'. Your accounts are Chase Checking, Ally Savings and Visa Signature.");
  });
});

describe("spending and income", () => {
  it("spending on a category last month equals the statement's figure for it", async () => {
    const { text, calls, names } = await ask("How much did we spend on groceries last month?", fixture.ledger);
    expect(names).toEqual(["get_categories", "get_income_statement"]);
    expect(calls[1]!.args).toEqual({ start_date: "2026-10-01", end_date: "2026-10-31", group_by: "category" });
    // The figure the API reports for the category on its own (filtered by its id) is the one said.
    const filtered = incomeStatement(fixture.ledger, {
      start_date: "2026-10-01",
      end_date: "2026-10-31",
      group_by: "category",
      category_id: fixture.ids.groceries.id,
    });
    expect(filtered.spending_total_cents).toBe(12_345 + 6_789);
    expect(text).toBe(
      `You spent ${usd(filtered.spending_total_cents)} on Groceries last month (Oct 1 – 31, 2026), across 2 transactions. You also received ${usd(filtered.income_total_cents)} from Groceries in that period.`,
    );
  });

  it("a parent category's figure includes its subcategories, broken down", async () => {
    const { text } = await ask("What did we spend on Food last month?", fixture.ledger);
    const period = { start_date: "2026-10-01", end_date: "2026-10-31", group_by: "category" };
    const of = (id: string) => incomeStatement(fixture.ledger, { ...period, category_id: id }).spending_total_cents;
    const [own, groceries, restaurants] = [of(fixture.ids.food.id), of(fixture.ids.groceries.id), of(fixture.ids.restaurants.id)];
    expect(text).toBe(
      `You spent ${usd(own + groceries + restaurants)} on Food last month (Oct 1 – 31, 2026), across 4 transactions. That includes ${usd(groceries)} in Groceries and ${usd(restaurants)} in Restaurants, besides ${usd(own)} in Food itself. You also received $5.00 from Food in that period.`,
    );
    expect(text).toContain("$226.44");
  });

  it("spending at a merchant asks the merchants first and filters the statement to it", async () => {
    const { text, calls, names } = await ask("How much did I spend at Whole Foods' this year?", fixture.ledger);
    expect(names).toEqual(["get_merchants", "get_income_statement"]);
    const statement = lastResult(calls, "get_income_statement");
    expect(calls[1]!.args).toMatchObject({ merchant_id: fixture.ids.wholeFoods.id, group_by: "merchant", start_date: "2026-01-01", end_date: "2026-11-15" });
    expect(statement.spending_total_cents).toBe(12_345 + 6_789 + 5_000);
    expect(text.startsWith(`You spent ${usd(statement.spending_total_cents)} at Whole Foods this year (Jan 1 – Nov 15, 2026), across 3 transactions.`)).toBe(
      true,
    );
  });

  it("spending on a tag in a named month", async () => {
    const { text, calls, names } = await ask("How much did we spend on things tagged vacation in March?", fixture.ledger);
    expect(names).toEqual(["get_tags", "get_income_statement"]);
    expect(lastResult(calls, "get_income_statement").spending_total_cents).toBe(50_000);
    expect(text).toBe("You spent $500.00 on things tagged Vacation in March 2026 (Mar 1 – 31, 2026), across 2 transactions.");
  });

  it("total spending with no name is one call and names the largest categories", async () => {
    const { text, calls, names } = await ask("How much did I spend last month?", fixture.ledger);
    expect(names).toEqual(["get_income_statement"]);
    const statement = lastResult(calls, "get_income_statement");
    expect(statement.spending_total_cents).toBe(150_000 + 12_345 + 6_789 + 2_510 + 1_000);
    expect(text).toBe(
      `You spent ${usd(statement.spending_total_cents)} in total last month (Oct 1 – 31, 2026). The largest categories were Rent ($1,500.00), Groceries ($191.34) and Restaurants ($25.10).`,
    );
  });

  it("income with no name, and from an income category (whatever the verb)", async () => {
    const income = await ask("What was our income last month?", fixture.ledger);
    expect(income.text).toBe(
      `Your income was ${usd(lastResult(income.calls, "get_income_statement").income_total_cents)} last month (Oct 1 – 31, 2026). The largest categories were Salary ($5,000.00) and Groceries ($5.00).`,
    );
    expect(income.text).toContain("$5,005.00");
    const salary = await ask("How much did we get from Salary in October?", fixture.ledger);
    expect(salary.text).toBe("You received $5,000.00 from Salary in October 2026 (Oct 1 – 31, 2026), across 1 transaction.");
  });

  it("cash flow says income, spending and the net the statement reports", async () => {
    const { text, calls } = await ask("How much did we save last month?", fixture.ledger);
    const statement = lastResult(calls, "get_income_statement");
    expect(statement.net_cents).toBe(500_500 - 172_644);
    expect(text).toBe(`You earned $5,005.00 and spent $1,726.44 last month (Oct 1 – 31, 2026), so you saved ${usd(statement.net_cents)}.`);
  });

  it("defaults to this month so far", async () => {
    const { text, calls } = await ask("How much have we spent on rent?", fixture.ledger);
    expect(calls.at(-1)!.args).toMatchObject({ start_date: "2026-11-01", end_date: "2026-11-15" });
    expect(text).toBe("You spent $1,500.00 on Rent this month (Nov 1 – 15, 2026), across 1 transaction.");
  });

  it("says which currencies were left out for want of a rate", async () => {
    const statement = incomeStatement(fixture.ledger, { start_date: "2026-10-01", end_date: "2026-10-31", group_by: "category" });
    const missing = [
      { from_currency: "GBP", to_currency: "USD", entries_count: 2 },
      { from_currency: "EUR", to_currency: "USD", entries_count: 1 },
    ];
    const { text } = await ask("How much did I spend last month?", fixture.ledger, {
      overrides: { get_income_statement: () => ({ ...statement, missing_exchange_rates: missing }) },
    });
    expect(text.endsWith("Amounts in EUR and GBP are left out because there is no exchange rate to USD.")).toBe(true);
  });

  it("says it couldn't find a name that is nowhere, without a statement call", async () => {
    const { text, names } = await ask("How much did I spend on pizza last month?", fixture.ledger);
    expect(text).toBe("I couldn't find a category, merchant or tag called 'pizza'.");
    expect(names).toEqual(["get_categories", "get_merchants", "get_tags"]);
  });

  it("asks which one when a name is ambiguous", async () => {
    const { text } = await ask("How much did I spend on other last month?", fixture.ledger);
    expect(text).toBe("'Other' could be more than one category: Food › Other and Transport › Other. Which one do you mean?");
  });

  it("a period with nothing in it is $0.00, not an error", async () => {
    const { text } = await ask("How much did we spend on groceries in 2020?", fixture.ledger);
    expect(text).toBe("You spent $0.00 on Groceries in 2020 (Jan 1 – Dec 31, 2020).");
  });
});

describe("budget", () => {
  it("says spent, budgeted and left, and what is over", async () => {
    const { text, calls, names } = await ask("How are we doing on the budget?", fixture.ledger);
    expect(names).toEqual(["get_budget"]);
    const budget = lastResult(calls, "get_budget");
    expect(text).toBe(
      `In November 2026 (Nov 1 – 30, 2026) you've spent ${usd(budget.actual_spending_cents)} of your ${usd(budget.budgeted_spending_cents)} budget, so ${usd(budget.available_to_spend_cents)} is left. Over budget: Restaurants ($25.10 of $20.00).`,
    );
  });

  it("answers a budgeted category's line", async () => {
    const { text } = await ask("Am I over budget on restaurants?", fixture.ledger);
    expect(text).toBe("For Restaurants in November 2026 (Nov 1 – 30, 2026): you've spent $25.10 of $20.00 budgeted, so you're $5.10 over.");
  });

  it("leaves the current month to the tool (it knows the month start day), also when the period is not one month", async () => {
    expect((await ask("How is the budget this year?", fixture.ledger)).calls[0]!.args).toEqual({});
    expect((await ask("How is the budget this month?", fixture.ledger)).calls[0]!.args).toEqual({});
    expect((await ask("budget in November", fixture.ledger)).calls[0]!.args).toEqual({});
    expect((await ask("budget in March", fixture.ledger)).calls[0]!.args).toEqual({ month: "2026-03" });
  });

  it("asks for the named month and says when there is no budget for it", async () => {
    const { text, calls } = await ask("How did we do on the budget last month?", fixture.ledger);
    expect(calls[0]!.args).toEqual({ month: "2026-10" });
    expect(text).toBe("You don't have a budget for October 2026.");
  });
});

describe("upcoming bills", () => {
  it("lists the active bills of the next 30 days with their total", async () => {
    const { text, names } = await ask("What bills are coming up?", fixture.ledger);
    expect(names).toEqual(["get_recurring_transactions"]);
    expect(text).toBe(
      ["You have 2 bills due in the next 30 days (Nov 15 – Dec 14, 2026), $1,515.99 in all:", "- Netflix: $15.99 on Nov 20", "- Rent: $1,500.00 on Dec 1"].join(
        "\n",
      ),
    );
  });

  it("looks in a named period ahead", async () => {
    expect((await ask("bills due next month", fixture.ledger)).text).toBe(
      ["You have 1 bill due next month (Dec 1 – 31, 2026), $1,500.00 in all:", "- Rent: $1,500.00 on Dec 1"].join("\n"),
    );
    expect((await ask("any bills this week?", fixture.ledger)).text).toBe("You have no bills due this week (Nov 15, 2026).");
  });
});

describe("largest expenses", () => {
  it("finds the true largest among hundreds in a few calls", async () => {
    const { text, calls, names } = await ask("What were my 5 largest expenses in September?", fixture.ledger);
    const expected = [...fixture.ids.september].sort((a, b) => b.amount_cents - a.amount_cents || b.date.localeCompare(a.date)).slice(0, 5);
    expect(names.every((name) => name === "get_transactions")).toBe(true);
    expect(names.length).toBeGreaterThan(1);
    expect(names.length).toBeLessThanOrEqual(5);
    const lines = text.split("\n");
    expect(lines[0]).toBe("Your 5 largest expenses in September 2026 (Sep 1 – 30, 2026) were:");
    expect(lines.slice(1).map((line) => line.split(":")[0])).toEqual(expected.map((t) => `- ${usd(t.amount_cents)}`));
    expect(calls.length).toBe(names.length);
  });

  it("leaves out transfers, payments and excluded transactions", async () => {
    const { text, names } = await ask("top 3 expenses last month", fixture.ledger);
    expect(names).toEqual(["get_transactions"]);
    expect(text).toBe(
      [
        "Your 3 largest expenses last month (Oct 1 – 31, 2026) were:",
        "- $1,500.00: Landlord on Oct 1 (Rent)",
        "- $123.45: Whole Foods on Oct 3 (Groceries)",
        "- $67.89: Whole Foods on Oct 20 (Groceries)",
      ].join("\n"),
    );
  });

  it("says when there were none", async () => {
    expect((await ask("biggest purchases yesterday", fixture.ledger)).text).toBe("You had no expenses yesterday (Nov 14, 2026).");
  });
});

describe("what it cannot answer", () => {
  it("lists what it can answer, calling no tool", async () => {
    const { text, names } = await ask("What's the weather like tomorrow?", fixture.ledger);
    expect(names).toEqual([]);
    expect(text.split("\n")[0]).toBe("Sorry, I can't answer that one. I can answer questions like these:");
    expect(text).toContain("- What's my net worth?");
    expect((await ask("help", fixture.ledger)).text.split("\n")[0]).toBe("I can answer questions about your money, such as:");
  });

  it.each(["", "🎉".repeat(5_000), "on ".repeat(10_000), "\u0000"])("answers hostile input %#", async (question) => {
    const { text } = await ask(question, fixture.ledger);
    expect(text.length).toBeGreaterThan(0);
  });
});

describe("tool failures", () => {
  it.each([
    ["an { error, hint } answer", { error: "upstream_unavailable", hint: "Try again" }],
    ["a result not of the contract's shape", { net_worth: 12 }],
  ])("says it couldn't get the data on %s, never throwing", async (_label, answer) => {
    const { text } = await ask("What's my net worth?", fixture.ledger, { overrides: { get_balance_sheet: () => answer } });
    expect(text).toBe("Sorry, I couldn't get your balance sheet just now, so I can't answer that. Please try again in a moment.");
  });

  it("a failing name list stops the answer the same way", async () => {
    const { text, names } = await ask("spent on groceries", fixture.ledger, { overrides: { get_categories: () => ({ error: "boom", hint: "" }) } });
    expect(names).toEqual(["get_categories"]);
    expect(text).toBe("Sorry, I couldn't get your categories just now, so I can't answer that. Please try again in a moment.");
  });
});

describe("the provider", () => {
  function io(question: string, ledger: Ledger, overrides: Partial<ReplyIo> = {}) {
    const tools = fakeTools(ledger);
    const deltas: string[] = [];
    const replyIo: ReplyIo = {
      history: [
        { role: "user", content: "What's my net worth?" },
        { role: "assistant", content: "Your net worth is …" },
        { role: "user", content: question },
      ],
      tools: Object.entries(ASSISTANT_TOOLS).map(([name, def]) => ({ name, description: def.description, parameters: {} })),
      callTool: tools.callTool,
      onText: (delta) => deltas.push(delta),
      family: FAMILY,
      signal: new AbortController().signal,
      ...overrides,
    };
    return { replyIo, deltas, calls: tools.calls };
  }

  it("answers to hearth-builtin and streams the last question's answer piece by piece", async () => {
    const provider = createBuiltinAssistant();
    expect(provider.models).toEqual([BUILTIN_MODEL]);
    expect(BUILTIN_MODEL).toBe("hearth-builtin");
    const { replyIo, deltas, calls } = io("What bills are coming up?", fixture.ledger);
    const { content } = await provider.reply(BUILTIN_MODEL, replyIo);
    expect(calls.map((call) => call.name)).toEqual(["get_recurring_transactions"]);
    expect(deltas.length).toBe(3);
    expect(deltas.join("")).toBe(content);
    expect(content).toContain("- Netflix: $15.99 on Nov 20");
  });

  it("rejects without calling anything when already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("timed out"));
    const { replyIo, deltas, calls } = io("What's my net worth?", fixture.ledger, { signal: controller.signal });
    await expect(createBuiltinAssistant().reply(BUILTIN_MODEL, replyIo)).rejects.toThrow("timed out");
    expect(calls).toEqual([]);
    expect(deltas).toEqual([]);
  });

  it("stops when aborted during a tool call, writing nothing", async () => {
    const controller = new AbortController();
    const { replyIo, deltas } = io("How much did we spend on groceries last month?", fixture.ledger);
    const callTool = async (name: string, args: unknown) => {
      const result = await replyIo.callTool(name, args);
      controller.abort(new Error("chat deleted"));
      return result;
    };
    await expect(createBuiltinAssistant().reply(BUILTIN_MODEL, { ...replyIo, callTool, signal: controller.signal })).rejects.toThrow("chat deleted");
    expect(deltas).toEqual([]);
  });

  it("passes on a tool call's rejection (the runner rejects only when aborted)", async () => {
    const { replyIo } = io("What's my net worth?", fixture.ledger, { callTool: () => Promise.reject(new Error("aborted")) });
    await expect(createBuiltinAssistant().reply(BUILTIN_MODEL, replyIo)).rejects.toThrow("aborted");
  });

  it("with no user turn answers what it can do", async () => {
    const { replyIo } = io("", fixture.ledger, { history: [] });
    const { content } = await createBuiltinAssistant().reply(BUILTIN_MODEL, replyIo);
    expect(content.startsWith("I can answer questions about your money")).toBe(true);
  });

  it("adds little time of its own: 100 questions in a row", async () => {
    const questions = [
      "What's my net worth?",
      "How much did we spend on groceries last month?",
      "What did I spend at Amazon this year?",
      "What bills are coming up?",
      "How are we doing on the budget?",
      "Top 5 expenses in September",
      "What's the balance of my checking account?",
      "How much did we save last month?",
      "How much on things tagged vacation in March?",
      "What's the weather?",
    ];
    const durations: number[] = [];
    for (let round = 0; round < 100; round++) {
      const started = performance.now();
      await ask(questions[round % questions.length]!, fixture.ledger);
      durations.push(performance.now() - started);
    }
    durations.sort((a, b) => a - b);
    // Includes the in-memory fake's own work (sorting 354 transactions, parsing results); the tools' real time is the services'.
    expect(durations[94]!).toBeLessThan(50);
  });
});
