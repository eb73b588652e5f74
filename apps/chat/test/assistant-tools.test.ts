// The assistant's tools against the real finance service, called as chat calls it: a service
// client with caller "chat" and the asking actor's context. A small family is seeded through
// finance's own procedures; each tool's figures, its error results, write-scope gating and
// family isolation are checked on what finance actually answers.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSISTANT_TOOLS, routes, type Actor, type AssistantToolName, type RouteDef } from "@hearth/contracts";
import { createServiceClient, type ServiceCall } from "@hearth/service-kit";
import { createFreshDatabases, freePort, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { createAssistantTools } from "../src/assistant/tools";
import { periodOfMonth } from "@hearth/contracts";
import { currentBudgetMonth } from "../src/assistant/tools/budget-tool";
import type { BoundServiceCall } from "@hearth/service-kit";
import { createFinanceClient } from "../src/finance-client";
import { contextOf, newActor } from "./support";

/** Where finance's `npm start` runs: chat's tests may not import finance, so it runs as its own process, as deployed. */
const FINANCE_DIR = fileURLToPath(new URL("../../finance", import.meta.url));

interface RunningFinance {
  process: ChildProcess;
  databases: FreshDatabases<"finance">;
  url: string;
  internalAuthSecret: string;
}

/** Finance from its own main (migrations applied at start) on a fresh database and a free port, once it answers ready. */
async function startFinanceProcess(): Promise<RunningFinance> {
  const databases = await createFreshDatabases(testPostgresAdminUrl(), ["finance"] as const);
  const port = await freePort();
  const internalAuthSecret = randomBytes(32).toString("hex");
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: FINANCE_DIR,
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      DATABASE_URL: databases.urls.finance,
      INTERNAL_AUTH_SECRET: internalAuthSecret,
      PORT: String(port),
      KAFKA_BROKERS: "",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`finance exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(`${url}/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) return { process: child, databases, url, internalAuthSecret };
    if (Date.now() > deadline) throw new Error("finance was not ready within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopFinanceProcess(finance: RunningFinance): Promise<void> {
  if (finance.process.exitCode === null) {
    const exited = new Promise((resolve) => finance.process.once("exit", resolve));
    finance.process.kill("SIGTERM");
    await exited;
  }
  await finance.databases.drop();
}

let finance: RunningFinance;
let asChat: ServiceCall;
beforeAll(async () => {
  finance = await startFinanceProcess();
  asChat = createServiceClient({ service: "finance", url: finance.url, caller: "chat", internalAuthSecret: finance.internalAuthSecret });
}, 90_000);
afterAll(async () => {
  if (finance) await stopFinanceProcess(finance);
});

/** Finance bound to an actor, as the reply runner binds it. */
const financeFor =
  (actor: Actor): BoundServiceCall =>
  (procedure, kind, input) =>
    asChat(procedure, kind, input, contextOf(actor));

const READ = ["read"] as const;
const WRITE = ["read_write"] as const;

/** The tools of one actor, and a seeding helper calling finance's public routes as them. */
function familyOf(actor: Actor) {
  const call = financeFor(actor);
  const tools = createAssistantTools(createFinanceClient(call));
  const seed = (procedure: keyof typeof routes, input: unknown): Promise<any> =>
    call(procedure, (routes[procedure] as RouteDef).method === "GET" ? "query" : "mutation", input);
  const use = (name: string, args: unknown = {}, scopes: readonly string[] = READ) => tools.call(name, args, scopes) as Promise<any>;
  return { actor, tools, seed, use };
}

/** Waits until the family's syncs in finance have run (balances and holdings are then current). */
async function settled(seed: (procedure: "syncs.list", input: unknown) => Promise<any>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const open = async () => (await seed("syncs.list", { per_page: 100 })).data.some((sync: any) => sync.status === "pending" || sync.status === "syncing");
  while (await open()) {
    if (Date.now() > deadline) throw new Error(`syncs still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 8)}01`;
const month = today.slice(0, 7);

/** A small family: checking and a credit card, labels, this month's transactions, a transfer, a recurring bill. */
async function seededFamily() {
  const family = familyOf(newActor());
  const { seed } = family;
  const account = (name: string, account_type: string, balance: string) =>
    seed("accounts.create", { account: { name, account_type, balance, opening_balance_date: "2024-01-01" } });
  const checking = await account("Everyday checking", "depository", "1000");
  const savings = await account("Rainy day", "depository", "0");
  const card = await account("Travel card", "credit_card", "200");
  const groceries = await seed("categories.create", { category: { name: "Grocery runs" } });
  const salary = await seed("categories.create", { category: { name: "Wages", classification: "income" } });
  const market = await seed("merchants.create", { merchant: { name: "Green Market" } });
  const holiday = await seed("tags.create", { tag: { name: "Holiday" } });
  const add = async (amount: string, nature: "income" | "expense", name: string, extra: Record<string, unknown> = {}) =>
    (await seed("transactions.create", { transaction: { account_id: checking.id, date: monthStart, amount, nature, name, ...extra } })).body;
  const shop = await add("60.25", "expense", "Weekly shop", { category_id: groceries.id, merchant_id: market.id, tag_ids: [holiday.id] });
  const shop2 = await add("39.75", "expense", "Weekly shop", { category_id: groceries.id, merchant_id: market.id });
  const pay = await add("2500", "income", "Paycheck", { category_id: salary.id, notes: "March pay" });
  const misc = await add("15", "expense", "Something");
  await seed("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "300", date: monthStart } });
  const bill = await seed("recurringTransactions.create", {
    recurring_transaction: {
      account_id: checking.id,
      name: "Streaming",
      amount: "12.99",
      currency: "USD",
      expected_day_of_month: 5,
      last_occurrence_date: monthStart,
      next_expected_date: monthStart,
    },
  });
  await settled(seed);
  return { ...family, checking, savings, card, groceries, salary, market, holiday, shop, shop2, pay, misc, bill };
}

describe("assistant tools: specs", () => {
  it("offer the read tools to a read credential and the write tools too only with read_write, as JSON Schemas a model can fill", () => {
    const { tools } = familyOf(newActor());
    const read = tools.specsFor(READ).map((spec) => spec.name);
    expect(read).toEqual(Object.keys(ASSISTANT_TOOLS).filter((name) => ASSISTANT_TOOLS[name as AssistantToolName].access === "read"));
    expect(read).toHaveLength(10);
    expect(read).not.toContain("create_tag");
    const write = tools.specsFor(WRITE);
    expect(write.map((spec) => spec.name)).toEqual([...read, "create_tag", "update_transaction"]);
    const statement = write.find((spec) => spec.name === "get_income_statement")!;
    expect(statement.description).toMatch(/spending/i);
    expect(statement.parameters).toMatchObject({
      type: "object",
      required: ["start_date", "end_date"],
      properties: { start_date: { type: "string", format: "date" }, group_by: { enum: ["category", "merchant", "tag"], default: "category" } },
    });
    // The long regexes zod writes beside a format are left out; "$schema" too.
    expect(JSON.stringify(write.map((spec) => spec.parameters))).not.toMatch(/"pattern":"\^\(\?:|\$schema/);
  });
});

describe("assistant tools: budget months", () => {
  it("name the budget period starting in a month, with the family's month start day", () => {
    expect(periodOfMonth("2025-02", 1)).toEqual({ start: "2025-02-01", end: "2025-02-28" });
    expect(periodOfMonth("2024-12", 15)).toEqual({ start: "2024-12-15", end: "2025-01-14" });
    expect(currentBudgetMonth("2025-03-10", 1)).toBe("2025-03");
    expect(currentBudgetMonth("2025-03-10", 15)).toBe("2025-02");
    expect(currentBudgetMonth("2025-01-14", 15)).toBe("2024-12");
    expect(currentBudgetMonth("2025-01-15", 15)).toBe("2025-01");
  });
});

describe("assistant tools: figures", () => {
  let f: Awaited<ReturnType<typeof seededFamily>>;
  beforeAll(async () => {
    f = await seededFamily();
  });

  it("get_accounts lists each account with its synced balance and names", async () => {
    const { accounts, total_count, truncated } = await f.use("get_accounts");
    expect({ total_count, truncated }).toEqual({ total_count: 3, truncated: false });
    const byName = Object.fromEntries(accounts.map((account: any) => [account.name, account]));
    // 1000 - 60.25 - 39.75 + 2500 - 15 - 300 (to savings)
    expect(byName["Everyday checking"]).toMatchObject({ id: f.checking.id, balance_cents: 308500, balance: "$3,085.00", classification: "asset" });
    expect(byName["Rainy day"]).toMatchObject({ balance_cents: 30000 });
    expect(byName["Travel card"]).toMatchObject({ balance_cents: 20000, classification: "liability", account_type: "credit_card" });
  });

  it("get_balance_sheet adds the accounts up in the family currency", async () => {
    expect(await f.use("get_balance_sheet")).toEqual({
      currency: "USD",
      assets: "$3,385.00",
      assets_cents: 338500,
      liabilities: "$200.00",
      liabilities_cents: 20000,
      net_worth: "$3,185.00",
      net_worth_cents: 318500,
      missing_exchange_rates: [],
    });
  });

  it("get_transactions filters and pages, with amounts as sizes and every related thing named", async () => {
    const groceries = await f.use("get_transactions", { category_ids: [f.groceries.id], per_page: 1 });
    expect(groceries).toMatchObject({ page: 1, per_page: 1, total_count: 2, total_pages: 2 });
    expect(groceries.transactions).toHaveLength(1);
    const all = await f.use("get_transactions", { start_date: monthStart, end_date: today, per_page: 100 });
    const shop = all.transactions.find((row: any) => row.id === f.shop.id);
    expect(shop).toEqual({
      id: f.shop.id,
      date: monthStart,
      name: "Weekly shop",
      amount: "$60.25",
      amount_cents: 6025,
      currency: "USD",
      classification: "expense",
      kind: "standard",
      excluded: false,
      account: { id: f.checking.id, name: "Everyday checking" },
      category: { id: f.groceries.id, name: "Grocery runs" },
      merchant: { id: f.market.id, name: "Green Market" },
      tags: [{ id: f.holiday.id, name: "Holiday" }],
      notes: null,
    });
    expect(all.transactions.find((row: any) => row.id === f.pay.id)).toMatchObject({ classification: "income", amount_cents: 250000, notes: "March pay" });
    const income = await f.use("get_transactions", { type: "income", account_ids: [f.checking.id] });
    expect(income.transactions.map((row: any) => row.name)).toContain("Paycheck");
    expect(income.transactions.every((row: any) => row.classification === "income")).toBe(true);
  });

  it("get_income_statement sums the period by category, merchant or tag, transfers left out", async () => {
    const statement = await f.use("get_income_statement", { start_date: monthStart, end_date: today });
    expect(statement).toMatchObject({
      currency: "USD",
      group_by: "category",
      income_total_cents: 250000,
      spending_total_cents: 6025 + 3975 + 1500,
      net_cents: 250000 - 11500,
      net: "$2,385.00",
    });
    expect(statement.spending.map((group: any) => [group.name, group.amount_cents, group.transactions_count])).toEqual([
      ["Grocery runs", 10000, 2],
      ["Uncategorized", 1500, 1],
    ]);
    expect(statement.income).toEqual([{ id: f.salary.id, name: "Wages", amount: "$2,500.00", amount_cents: 250000, transactions_count: 1 }]);
    const byTag = await f.use("get_income_statement", { start_date: monthStart, end_date: today, group_by: "tag", merchant_id: f.market.id });
    expect(byTag.spending.map((group: any) => [group.name, group.amount_cents])).toEqual([
      ["Holiday", 6025],
      ["Untagged", 3975],
    ]);
  });

  it("get_budget reports the month's budget and the lines with a limit or spending", async () => {
    expect(await f.use("get_budget", { month })).toEqual({ error: "not_found", hint: expect.stringContaining(month) });
    const { body: budget } = await f.seed("budgets.create", { budget: { start_date: monthStart } });
    await f.seed("budgets.update", { id: budget.id, budget: { budgeted_spending: "500", expected_income: "2400" } });
    const lines = (await f.seed("budgetCategories.list", { budget_id: budget.id, category_id: f.groceries.id })).budget_categories;
    await f.seed("budgetCategories.update", { id: lines[0].id, budget_category: { budgeted_spending: "80" } });

    const answer = await f.use("get_budget");
    expect(answer).toMatchObject({
      start_date: monthStart,
      currency: "USD",
      initialized: true,
      budgeted_spending_cents: 50000,
      expected_income_cents: 240000,
      actual_spending_cents: 11500,
      actual_income_cents: 250000,
      available_to_spend_cents: 50000 - 11500,
      allocated_spending_cents: 8000,
      missing_exchange_rates: [],
    });
    expect(answer.categories).toEqual([
      {
        id: f.groceries.id,
        name: "Grocery runs",
        parent: null,
        inherits_parent_budget: false,
        budgeted: "$80.00",
        budgeted_cents: 8000,
        actual_spending: "$100.00",
        actual_spending_cents: 10000,
        available_to_spend: "-$20.00",
        available_to_spend_cents: -2000,
        over_budget: true,
      },
    ]);
    expect(await f.use("get_budget", { month })).toEqual(answer);

    // A subcategory's spending rolls up into its parent's line; its own line names the parent.
    const fruit = await f.seed("categories.create", { category: { name: "Fruit", parent_id: f.groceries.id } });
    await f.seed("transactions.create", {
      transaction: { account_id: f.checking.id, date: monthStart, amount: "5", nature: "expense", name: "Apples", category_id: fruit.id },
    });
    const withFruit = await f.use("get_budget", { month });
    expect(withFruit.actual_spending_cents).toBe(12000);
    expect(withFruit.categories.map((line: any) => [line.name, line.parent?.name ?? null, line.inherits_parent_budget, line.actual_spending_cents])).toEqual([
      ["Grocery runs", null, false, 10500],
      ["Fruit", "Grocery runs", true, 500],
    ]);
  });

  it("get_recurring_transactions, get_categories, get_merchants and get_tags list with ids and names", async () => {
    const recurring = await f.use("get_recurring_transactions");
    expect(recurring).toMatchObject({ total_count: 1, truncated: false });
    expect(recurring.recurring_transactions[0]).toMatchObject({
      id: f.bill.id,
      name: "Streaming",
      amount: "$12.99",
      amount_cents: 1299,
      classification: "expense",
      status: "active",
      manual: true,
      account: { id: f.checking.id, name: "Everyday checking" },
    });
    expect((await f.use("get_recurring_transactions", { status: "inactive" })).recurring_transactions).toEqual([]);

    const categories = await f.use("get_categories");
    expect(categories.categories).toContainEqual({ id: f.groceries.id, name: "Grocery runs", classification: "expense", parent: null });
    expect(categories.total_count).toBe(categories.categories.length);
    const income = await f.use("get_categories", { classification: "income" });
    expect(income.categories.every((category: any) => category.classification === "income")).toBe(true);
    expect(income.categories).toContainEqual(expect.objectContaining({ id: f.salary.id }));

    expect(await f.use("get_merchants", { search: "green" })).toEqual({
      merchants: [{ id: f.market.id, name: "Green Market" }],
      total_count: 1,
      truncated: false,
    });
    expect((await f.use("get_tags")).tags).toEqual([{ id: f.holiday.id, name: "Holiday", color: f.holiday.color }]);
  });
});

describe("assistant tools: holdings", () => {
  it("get_holdings shows the latest day's holdings by default, or a given day's", async () => {
    const { seed, use } = familyOf(newActor());
    const brokerage = await seed("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2026-01-01" },
    });
    expect(await use("get_holdings")).toMatchObject({ date: null, total_count: 0, holdings: [] });
    await seed("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-03-02", qty: 10, price: "100", ticker: "AAPL" } });
    await settled(seed);
    // Holdings are stored for every day up to today: the latest day is today.
    const answer = await use("get_holdings");
    expect(answer).toMatchObject({ date: today, total_count: 1 });
    expect(answer.holdings[0]).toMatchObject({
      account: { id: brokerage.id, name: "Brokerage" },
      security: { ticker: "AAPL" },
      qty: "10.0",
      amount_cents: 100000,
      currency: "USD",
    });
    expect((await use("get_holdings", { date: "2026-03-02", account_id: brokerage.id })).holdings[0]).toMatchObject({
      date: "2026-03-02",
      amount_cents: 100000,
    });
    expect(await use("get_holdings", { date: "2026-03-01" })).toMatchObject({ date: "2026-03-01", total_count: 0, holdings: [] });
  });
});

describe("assistant tools: errors, writes and isolation", () => {
  it("answer an unknown tool, bad arguments and a write without write scope with { error, hint }", async () => {
    const { use } = familyOf(newActor({ scopes: ["read"] }));
    const unknown = await use("get_weather");
    expect(unknown).toEqual({ error: "unknown_tool", hint: expect.stringContaining("get_income_statement") });
    expect(unknown.hint).not.toContain("create_tag");
    expect(await use("__proto__")).toMatchObject({ error: "unknown_tool" });

    const bad = await use("get_income_statement", { start_date: "2025-02-30", group_by: "week" });
    expect(bad.error).toBe("invalid_arguments");
    expect(bad.hint).toMatch(/start_date/);
    expect(bad.hint).toMatch(/end_date/);
    expect(bad.hint).toMatch(/group_by/);
    expect(await use("get_income_statement", { start_date: "2025-03-31", end_date: "2025-03-01" })).toEqual({
      error: "invalid_arguments",
      hint: "end_date: start_date must be on or before end_date",
    });
    expect(await use("get_transactions", { per_page: 1000 })).toMatchObject({ error: "invalid_arguments", hint: expect.stringContaining("per_page") });
    expect(await use("get_transactions", "page 2")).toMatchObject({ error: "invalid_arguments" });
    expect(await use("get_budget", { month: "March" })).toEqual({ error: "invalid_arguments", hint: "month: month must look like 2025-03" });
    // No arguments at all is fine for a tool without required ones.
    expect(await use("get_tags", undefined)).toEqual({ tags: [], total_count: 0, truncated: false });

    const forbidden = await use("create_tag", { name: "Sneaky" }, READ);
    expect(forbidden).toEqual({ error: "forbidden", hint: expect.stringContaining("read_write") });
    expect(await use("update_transaction", { id: "0190a000-0000-7000-8000-000000000001", notes: "x" }, READ)).toMatchObject({ error: "forbidden" });
    expect((await use("get_tags")).tags).toEqual([]);
  });

  it("create_tag and update_transaction write with read_write scope, and finance's refusals come back as results", async () => {
    const f = await seededFamily();
    const created = await f.use("create_tag", { name: "Reimbursable", color: "#4da568" }, WRITE);
    expect(created).toEqual({ tag: { id: expect.any(String), name: "Reimbursable", color: "#4da568" }, message: 'Created the tag "Reimbursable".' });
    expect(await f.use("create_tag", { name: "Reimbursable" }, WRITE)).toEqual({ error: "validation_failed", hint: expect.stringMatching(/taken/i) });

    const updated = await f.use(
      "update_transaction",
      { id: f.misc.id, category_id: f.groceries.id, tag_ids: [created.tag.id, f.holiday.id], notes: "Snacks" },
      WRITE,
    );
    expect(updated.transaction).toMatchObject({
      id: f.misc.id,
      category: { id: f.groceries.id, name: "Grocery runs" },
      notes: "Snacks",
      amount_cents: 1500,
    });
    expect(updated.transaction.tags.map((tag: any) => tag.name).sort()).toEqual(["Holiday", "Reimbursable"]);
    expect(updated.message).toContain("category, tags, notes");
    // Only what is given changes: clearing the notes keeps the category and tags.
    const cleared = await f.use("update_transaction", { id: f.misc.id, notes: null }, WRITE);
    expect(cleared.transaction).toMatchObject({ notes: null, category: { id: f.groceries.id } });
    expect(cleared.transaction.tags).toHaveLength(2);

    expect(await f.use("update_transaction", { id: f.misc.id }, WRITE)).toMatchObject({ error: "invalid_arguments" });
    expect(await f.use("update_transaction", { id: "0190a000-0000-7000-8000-000000000001", notes: "x" }, WRITE)).toMatchObject({ error: "record_not_found" });
    const statement = await f.use("get_income_statement", { start_date: monthStart, end_date: today });
    expect(statement.spending).toEqual([expect.objectContaining({ name: "Grocery runs", amount_cents: 11500, transactions_count: 3 })]);
  });

  it("see only the asking actor's family", async () => {
    const ours = await seededFamily();
    const stranger = familyOf(newActor());
    expect((await stranger.use("get_accounts")).accounts).toEqual([]);
    expect((await stranger.use("get_transactions", { category_ids: [ours.groceries.id] })).total_count).toBe(0);
    expect((await stranger.use("get_transactions")).total_count).toBe(0);
    expect(await stranger.use("get_income_statement", { start_date: monthStart, end_date: today })).toMatchObject({
      income_total_cents: 0,
      spending_total_cents: 0,
      income: [],
      spending: [],
    });
    expect((await stranger.use("get_merchants")).merchants).toEqual([]);
    expect((await stranger.use("get_tags")).tags).toEqual([]);
    expect((await stranger.use("get_recurring_transactions")).recurring_transactions).toEqual([]);
    expect((await stranger.use("get_categories")).categories.map((category: any) => category.id)).not.toContain(ours.groceries.id);
    expect(await stranger.use("update_transaction", { id: ours.shop.id, notes: "mine now" }, WRITE)).toMatchObject({ error: "record_not_found" });
    expect((await ours.use("get_transactions", { category_ids: [ours.groceries.id] })).transactions.map((row: any) => row.notes)).toEqual([null, null]);
  });
});
