import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountCollectionSchema,
  BalanceSheetSchema,
  BudgetCategoryCollectionSchema,
  BudgetCategorySchema,
  BudgetSchema,
  CategoryCollectionSchema,
  ChatDetailSchema,
  FamilySettingsSchema,
  MessageResponseSchema,
  RecurringTransactionCollectionSchema,
  TransactionCollectionSchema,
  centsOf,
  formatMoney,
  type BudgetCategory,
  type Message,
  type Transaction,
} from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

/**
 * The built-in assistant's figures checked against the ledger: a family's hand-made ledger is
 * written through the public API, each kind of question the assistant understands is asked, and
 * every figure in its sentence must equal what the public API reports for the same thing,
 * computed here from the API's own answers (transactions summed in integer cents) and formatted
 * in the family's currency and locale. Where the assistant's figure is defined differently from
 * the raw list (the income statement leaves out excluded entries and transfers), the same rule is
 * applied here; each such place says so. A few figures are also checked against the ledger as
 * written, so the API side cannot agree with the assistant by being wrong the same way.
 */

// ---- Days, relative to today in UTC (the assistant's today for a family without a timezone) ----

const TODAY = new Date().toISOString().slice(0, 10);
const YEAR = Number(TODAY.slice(0, 4));
const MONTH = Number(TODAY.slice(5, 7));
/** A calendar day from UTC parts; months and days out of range roll over (day 0 is the last of the month before). */
const dayOf = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Period {
  start: string;
  end: string;
}
/** Named periods as the assistant reads them (periods.ts): "this ..." ends today, "last month" is whole. */
const LAST_MONTH: Period = { start: dayOf(YEAR, MONTH - 1, 1), end: dayOf(YEAR, MONTH, 0) };
const THIS_MONTH: Period = { start: dayOf(YEAR, MONTH, 1), end: TODAY };
const THIS_YEAR: Period = { start: dayOf(YEAR, 1, 1), end: TODAY };
/** Bills with no period named: the 30 days from today, today included. */
const NEXT_30_DAYS: Period = { start: TODAY, end: addDays(TODAY, 29) };
/** Days 1 to 28 exist in every month, so last month's entries never spill over. */
const lastMonthDay = (day: number) => dayOf(YEAR, MONTH - 1, day);
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const LAST_MONTH_NAME = `${MONTH_NAMES[Number(LAST_MONTH.start.slice(5, 7)) - 1]} ${LAST_MONTH.start.slice(0, 4)}`;

const within = (period: Period, day: string) => period.start <= day && day <= period.end;

// ---- The hand-made ledger ----

type AccountKey = "checking" | "savings";

/** One transaction as written through POST /api/v1/transactions (names of categories, merchants resolved when written). */
interface LedgerRow {
  name: string;
  account: AccountKey;
  date: string;
  /** The amount's size, as typed. */
  amount: string;
  nature: "expense" | "income";
  category: string;
  merchant?: string;
  vacation?: boolean;
  excluded?: boolean;
}

const ACCOUNTS: Record<AccountKey, { name: string; balance: string }> = {
  checking: { name: "Joint Checking", balance: "5000.00" },
  savings: { name: "Emergency Savings", balance: "12000.00" },
};
/** Before every entry below, so each one moves its account's balance. */
const OPENING_DATE = dayOf(YEAR - 1, 1, 1);
const PETS = "Pets";
const VET = "Vet";
const MERCHANTS = ["Corner Grocer", "Paws Market", "City Power"];
const VACATION = "Vacation";

/**
 * Every amount differs, so no two expenses tie in a ranking and the recurring detection (which
 * wants three of one amount) finds no pattern while the test runs. The excluded pet camera and
 * the 1,000.00 transfer (below) are larger than any real expense last month: counted by mistake,
 * they would show in every figure that covers last month.
 */
const LEDGER: LedgerRow[] = [
  // Last year, and never last month (in January that is last December).
  {
    name: "Corner Grocer",
    account: "checking",
    date: dayOf(YEAR - 1, 11, 15),
    amount: "300.00",
    nature: "expense",
    category: "Groceries",
    merchant: "Corner Grocer",
  },
  // This year's first day (in this month or last month early in the year).
  { name: "Corner Grocer", account: "checking", date: THIS_YEAR.start, amount: "57.10", nature: "expense", category: "Groceries", merchant: "Corner Grocer" },
  // Last month.
  { name: "Salary", account: "checking", date: lastMonthDay(3), amount: "3150.00", nature: "income", category: "Salary" },
  { name: "Paws Market", account: "checking", date: lastMonthDay(3), amount: "41.50", nature: "expense", category: PETS, merchant: "Paws Market" },
  { name: "Paws Market", account: "checking", date: lastMonthDay(10), amount: "18.25", nature: "expense", category: PETS, merchant: "Paws Market" },
  { name: "Corner Grocer", account: "checking", date: lastMonthDay(10), amount: "152.40", nature: "expense", category: "Groceries", merchant: "Corner Grocer" },
  { name: "Hotel Alpina", account: "checking", date: lastMonthDay(12), amount: "480.00", nature: "expense", category: "Travel", vacation: true },
  { name: "Alpine Rail", account: "checking", date: lastMonthDay(13), amount: "96.80", nature: "expense", category: "Transportation", vacation: true },
  {
    name: "Pet camera",
    account: "checking",
    date: lastMonthDay(15),
    amount: "249.00",
    nature: "expense",
    category: PETS,
    merchant: "Paws Market",
    vacation: true,
    excluded: true,
  },
  { name: "Vet visit", account: "checking", date: lastMonthDay(20), amount: "135.00", nature: "expense", category: VET },
  { name: "Paws Market refund", account: "checking", date: lastMonthDay(21), amount: "10.00", nature: "income", category: PETS, merchant: "Paws Market" },
  { name: "Savings interest", account: "savings", date: lastMonthDay(25), amount: "12.34", nature: "income", category: "Interest & Dividends" },
  // This month: on its first day and today, both never in the future.
  { name: "Salary", account: "checking", date: THIS_MONTH.start, amount: "3200.00", nature: "income", category: "Salary" },
  { name: "Paws Market", account: "checking", date: THIS_MONTH.start, amount: "62.75", nature: "expense", category: PETS, merchant: "Paws Market" },
  { name: "Corner Grocer", account: "checking", date: TODAY, amount: "84.20", nature: "expense", category: "Groceries", merchant: "Corner Grocer" },
  { name: "Vet visit", account: "checking", date: TODAY, amount: "22.00", nature: "expense", category: VET },
  { name: "City Power", account: "checking", date: TODAY, amount: "97.31", nature: "expense", category: "Utilities", merchant: "City Power" },
  // Tagged Vacation, but not in the month the tag question names.
  { name: "Airport taxi", account: "checking", date: TODAY, amount: "45.60", nature: "expense", category: "Transportation", vacation: true },
];
const TRANSFER = { from: "checking", to: "savings", amount: "1000.00", date: lastMonthDay(15) } as const;

/** Manual recurring transactions; only the first two are bills due in the next 30 days. */
const RECURRING = [
  { name: "Streamly", amount: "15.99", next: addDays(TODAY, 3) },
  { name: "Home Insurance", amount: "120.00", next: addDays(TODAY, 20) },
  // Due after the window.
  { name: "Gym", amount: "45.00", next: addDays(TODAY, 40) },
  // Income (negative, as Sure stores it), not a bill.
  { name: "Paycheck", amount: "-2000.00", next: addDays(TODAY, 5) },
  // Inactive.
  { name: "Old Magazine", amount: "9.99", next: addDays(TODAY, 2), status: "inactive" },
] as const;

const BUDGET = { total: "1500.00", limits: { [PETS]: "50.00", Groceries: "400.00", Utilities: "90.00" } as Record<string, string> };

/** Minor units of a typed amount (USD in this family). */
const centsOfAmount = (amount: string) => Number(centsOf(amount, "USD"));

/** The ledger's own sum for rows that count (not excluded), from what was typed: the anchor for the API's figures. */
function ledgerCents(matches: (row: LedgerRow) => boolean): number {
  return LEDGER.filter((row) => !row.excluded && matches(row)).reduce((sum, row) => sum + centsOfAmount(row.amount), 0);
}

// ---- The system, the family and their API ----

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let locale: string;
let currency: string;
const ids = {
  accounts: {} as Record<AccountKey, string>,
  categories: new Map<string, string>(),
  merchants: new Map<string, string>(),
  vacation: "",
  budget: "",
};

const money = (cents: number) => formatMoney(cents, currency, locale);

async function get(path: string, who = user): Promise<unknown> {
  const res = await api.get(path, { apiKey: who.readKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

async function post(path: string, body: unknown, who = user): Promise<{ id: string } & Record<string, unknown>> {
  const res = await api.post(path, body, { apiKey: who.writeKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function patch(path: string, body: unknown, who = user): Promise<void> {
  const res = await api.patch(path, body, { apiKey: who.writeKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
}

/** Every sync the family queued has finished: balances and budgets are current. */
async function settled(who: TestUser): Promise<void> {
  await eventually(async () => {
    const body = (await get("/api/v1/syncs?per_page=100", who)) as { data: { status: string }[] };
    expect(body.data.filter((sync) => sync.status === "pending" || sync.status === "syncing")).toEqual([]);
  });
}

/** GET /api/v1/transactions with filters, every page. */
async function transactions(filters: Record<string, string>): Promise<Transaction[]> {
  const rows: Transaction[] = [];
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({ ...filters, per_page: "100", page: String(page) });
    const body = TransactionCollectionSchema.parse(await get(`/api/v1/transactions?${query.toString()}`));
    rows.push(...body.transactions);
    if (page >= body.pagination.total_pages) break;
  }
  // Everything is in the family's currency: the statement's conversions play no part in these sums.
  for (const row of rows) expect(row.currency).toBe(currency);
  return rows;
}

const inPeriod = (period: Period) => ({ start_date: period.start, end_date: period.end });

/**
 * The side of the income statement a listed transaction is on, by the statement's own rule
 * (finance's incomeStatementScope, as Sure's IncomeStatement): excluded entries and transfers or
 * payments between the family's accounts (funds_movement, cc_payment, one_time) are on neither;
 * contributions and loan payments are spending whatever their sign; otherwise an inflow is income.
 * The transactions list has them all (the transfer's two halves, the excluded entry), so by
 * definition its raw sum differs: this rule, not the raw sum, is what the assistant says.
 */
function statementSide(transaction: Transaction): "income" | "spending" | null {
  if (transaction.excluded || ["funds_movement", "cc_payment", "one_time"].includes(transaction.kind)) return null;
  if (transaction.kind === "investment_contribution" || transaction.kind === "loan_payment") return "spending";
  return transaction.signed_amount_cents > 0 ? "income" : "spending";
}

function sideRows(rows: readonly Transaction[], side: "income" | "spending"): Transaction[] {
  return rows.filter((transaction) => statementSide(transaction) === side);
}

const centsSum = (rows: readonly Transaction[]) => rows.reduce((sum, transaction) => sum + transaction.amount_cents, 0);

/** The statement's groups by category from listed transactions: largest first, then by name; no category is "Uncategorized". */
function categoryGroups(rows: readonly Transaction[]): { name: string; cents: number }[] {
  const byName = new Map<string, number>();
  for (const row of rows) byName.set(row.category?.name ?? "Uncategorized", (byName.get(row.category?.name ?? "Uncategorized") ?? 0) + row.amount_cents);
  return [...byName].map(([name, cents]) => ({ name, cents })).sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name));
}

/** "a, b and c", as answers list things. */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);
/** A period's days as answers write them in the family's locale ("Apr 1 – 30, 2026"). */
function daysText(period: Period, inLocale = locale): string {
  const format = new Intl.DateTimeFormat(inLocale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return period.start === period.end ? format.format(utcDay(period.start)) : format.formatRange(utcDay(period.start), utcDay(period.end));
}
/** A day without its year ("Apr 12"). */
const shortDay = (day: string) => new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(utcDay(day));

const transactionsText = (count: number) => (count === 1 ? "1 transaction" : `${count} transactions`);

// ---- Asking ----

async function newChat(who = user): Promise<string> {
  return (await post("/api/v1/chats", { title: "Ledger questions" }, who)).id;
}

/** Asks the built-in assistant in a new chat, waits for the answer to end and returns it. */
async function ask(content: string, who = user): Promise<Message> {
  const chatId = await newChat(who);
  const question = MessageResponseSchema.parse(await post(`/api/v1/chats/${chatId}/messages`, { content, model: "hearth-builtin" }, who));
  const ended = await eventually(async () => {
    const state = MessageResponseSchema.parse(await get(`/api/v1/chats/${chatId}/messages/${question.id}`, who));
    if (state.ai_response_status === "pending") throw new Error("still pending");
    return state;
  });
  expect(ended).toMatchObject({ ai_response_status: "complete", ai_response_message: null });
  const chat = ChatDetailSchema.parse(await get(`/api/v1/chats/${chatId}?per_page=100`, who));
  const answer = chat.messages.find((message) => message.type === "assistant_message");
  expect(answer, `no answer to "${content}"`).toBeDefined();
  return answer!;
}

const toolNames = (answer: Message) => (answer.tool_calls ?? []).map((call) => call.function_name);
const toolCall = (answer: Message, name: string) => answer.tool_calls?.find((call) => call.function_name === name);

// ---- Writing the ledger ----

async function writeLedger(): Promise<void> {
  // A new family starts with Sure's default categories (Groceries, Salary, Travel...); Pets and its Vet are ours.
  const pets = await post("/api/v1/categories", { category: { name: PETS, classification: "expense" } });
  await post("/api/v1/categories", { category: { name: VET, parent_id: pets.id } });
  const categories = CategoryCollectionSchema.parse(await get("/api/v1/categories?per_page=100")).categories;
  for (const category of categories) ids.categories.set(category.name, category.id);
  expect(ids.categories.get(VET)).toBeDefined();

  for (const key of ["checking", "savings"] as const) {
    const { name, balance } = ACCOUNTS[key];
    ids.accounts[key] = (await post("/api/v1/accounts", { account: { name, account_type: "depository", balance, opening_balance_date: OPENING_DATE } })).id;
  }
  for (const name of MERCHANTS) ids.merchants.set(name, (await post("/api/v1/merchants", { merchant: { name } })).id);
  ids.vacation = (await post("/api/v1/tags", { tag: { name: VACATION } })).id;

  for (const row of LEDGER) {
    const categoryId = ids.categories.get(row.category);
    expect(categoryId, row.category).toBeDefined();
    await post("/api/v1/transactions", {
      transaction: {
        account_id: ids.accounts[row.account],
        date: row.date,
        amount: row.amount,
        name: row.name,
        nature: row.nature,
        category_id: categoryId,
        ...(row.merchant && { merchant_id: ids.merchants.get(row.merchant) }),
        ...(row.vacation && { tag_ids: [ids.vacation] }),
        ...(row.excluded && { excluded: true }),
      },
    });
  }
  await post("/api/v1/transfers", {
    transfer: { from_account_id: ids.accounts[TRANSFER.from], to_account_id: ids.accounts[TRANSFER.to], amount: TRANSFER.amount, date: TRANSFER.date },
  });

  for (const bill of RECURRING) {
    await post("/api/v1/recurring_transactions", {
      recurring_transaction: {
        account_id: ids.accounts.checking,
        name: bill.name,
        amount: bill.amount,
        currency: "USD",
        expected_day_of_month: Number(bill.next.slice(8, 10)),
        last_occurrence_date: addDays(TODAY, -20),
        next_expected_date: bill.next,
        ...("status" in bill && { status: bill.status }),
      },
    });
  }

  // This month's budget, made after the categories so it has a line for each.
  ids.budget = (await post("/api/v1/budgets", { budget: { start_date: TODAY } })).id;
  await patch(`/api/v1/budgets/${ids.budget}`, { budget: { budgeted_spending: BUDGET.total } });
  const lines = BudgetCategoryCollectionSchema.parse(await get(`/api/v1/budget_categories?budget_id=${ids.budget}&per_page=100`)).budget_categories;
  for (const [name, limit] of Object.entries(BUDGET.limits)) {
    const line = lines.find((candidate) => candidate.category.name === name);
    expect(line, name).toBeDefined();
    await patch(`/api/v1/budget_categories/${line!.id}`, { budget_category: { budgeted_spending: limit } });
  }
  await settled(user);
}

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "ledger-asker", { ai: true });
  const settings = FamilySettingsSchema.parse(await get("/api/v1/family_settings"));
  ({ locale, currency } = settings);
  expect(currency).toBe("USD");
  await writeLedger();
});
afterAll(async () => system?.stop());

// ---- The questions ----

describe("each kind of question the built-in assistant understands, checked against the API", () => {
  it("net worth: the balance sheet's net worth, assets and liabilities", async () => {
    const sheet = BalanceSheetSchema.parse(await get("/api/v1/balance_sheet"));
    const cents = (pair: { amount: string; currency: string }) => Number(centsOf(pair.amount, pair.currency));
    // The sheet agrees with the accounts it is made of (two assets, no liability).
    const accounts = AccountCollectionSchema.parse(await get("/api/v1/accounts?per_page=100")).accounts;
    expect(cents(sheet.net_worth)).toBe(accounts.reduce((sum, account) => sum + account.balance_cents, 0));
    expect(cents(sheet.liabilities)).toBe(0);

    const answer = await ask("What is our net worth?");
    expect(answer.content).toBe(
      `Your net worth is ${money(cents(sheet.net_worth))}: ${money(cents(sheet.assets))} in assets and ${money(cents(sheet.liabilities))} in liabilities.`,
    );
    expect(toolNames(answer)).toEqual(["get_balance_sheet"]);
  });

  it("balance of an account by name: that account's balance from GET /api/v1/accounts", async () => {
    const accounts = AccountCollectionSchema.parse(await get("/api/v1/accounts?per_page=100")).accounts;
    for (const key of ["savings", "checking"] as const) {
      const account = accounts.find((candidate) => candidate.id === ids.accounts[key])!;
      const answer = await ask(`What is the balance of ${account.name}?`);
      expect(answer.content).toBe(`Your ${account.name} balance is ${formatMoney(account.balance_cents, account.currency, locale)}.`);
      expect(toolNames(answer)).toEqual(["get_accounts"]);
    }
  });

  it("spending on a category last month: the parent's own transactions plus its subcategory's, each also said, and the refund", async () => {
    const pets = ids.categories.get(PETS)!;
    const vet = ids.categories.get(VET)!;
    const [own, child] = await Promise.all([
      transactions({ category_id: pets, ...inPeriod(LAST_MONTH) }),
      transactions({ category_id: vet, ...inPeriod(LAST_MONTH) }),
    ]);
    const ownSpent = centsSum(sideRows(own, "spending"));
    const childSpent = centsSum(sideRows(child, "spending"));
    const count = sideRows(own, "spending").length + sideRows(child, "spending").length;
    // A refund in Pets is an inflow: the statement counts it as income, never netted from spending.
    const received = centsSum([...sideRows(own, "income"), ...sideRows(child, "income")]);
    const lastMonth = (row: LedgerRow) => within(LAST_MONTH, row.date) && row.nature === "expense";
    expect([ownSpent, childSpent, received]).toEqual([
      ledgerCents((row) => lastMonth(row) && row.category === PETS),
      ledgerCents((row) => lastMonth(row) && row.category === VET),
      ledgerCents((row) => within(LAST_MONTH, row.date) && row.nature === "income" && row.category === PETS),
    ]);

    const answer = await ask("How much did we spend on pets last month?");
    expect(answer.content).toBe(
      [
        `You spent ${money(ownSpent + childSpent)} on Pets last month (${daysText(LAST_MONTH)}), across ${transactionsText(count)}.`,
        `That includes ${money(childSpent)} in Vet, besides ${money(ownSpent)} in Pets itself.`,
        `You also received ${money(received)} from Pets in that period.`,
      ].join(" "),
    );
    expect(toolNames(answer)).toEqual(["get_categories", "get_income_statement"]);
    // README: the statement grouped by category, no filter; the category's own group is what category_id = it reports.
    const statement = toolCall(answer, "get_income_statement")!;
    expect(statement.function_arguments).toEqual({ ...inPeriod(LAST_MONTH), group_by: "category" });
    const groups = statement.function_result!["spending"] as { id: string; amount_cents: number }[];
    expect(groups.find((group) => group.id === pets)?.amount_cents).toBe(ownSpent);
    expect(groups.find((group) => group.id === vet)?.amount_cents).toBe(childSpent);
  });

  it.each([
    ["food & drink", "Food & Drink"],
    ["vet", VET],
  ])("spending on a category last month (%s): its own transactions plus each subcategory's, from the same lists", async (asked, name) => {
    const categories = CategoryCollectionSchema.parse(await get("/api/v1/categories?per_page=100")).categories;
    const category = categories.find((candidate) => candidate.name === name)!;
    const own = await transactions({ category_id: category.id, ...inPeriod(LAST_MONTH) });
    // The subcategories with spending, in the statement's order (largest first, then by name).
    const children: { name: string; rows: Transaction[] }[] = [];
    for (const child of categories.filter((candidate) => candidate.parent?.id === category.id)) {
      const rows = sideRows(await transactions({ category_id: child.id, ...inPeriod(LAST_MONTH) }), "spending");
      if (rows.length > 0) children.push({ name: child.name, rows });
    }
    children.sort((a, b) => centsSum(b.rows) - centsSum(a.rows) || a.name.localeCompare(b.name));
    const ownSpent = sideRows(own, "spending");
    const total = centsSum(ownSpent) + children.reduce((sum, child) => sum + centsSum(child.rows), 0);
    const count = ownSpent.length + children.reduce((sum, child) => sum + child.rows.length, 0);
    const names = new Set([name, ...children.map((child) => child.name)]);
    expect(total).toBe(ledgerCents((row) => within(LAST_MONTH, row.date) && row.nature === "expense" && names.has(row.category)));

    const sentences = [`You spent ${money(total)} on ${name} last month (${daysText(LAST_MONTH)}), across ${transactionsText(count)}.`];
    if (children.length > 0) {
      const parts = listText(children.map((child) => `${money(centsSum(child.rows))} in ${child.name}`));
      // Its own part is said only when it has spending of its own.
      sentences.push(`That includes ${parts}${ownSpent.length > 0 ? `, besides ${money(centsSum(ownSpent))} in ${name} itself` : ""}.`);
    }
    const answer = await ask(`How much did we spend on ${asked} last month?`);
    expect(answer.content).toBe(sentences.join(" "));
    expect(toolNames(answer)).toEqual(["get_categories", "get_income_statement"]);
  });

  it.each(["Paws Market", "Corner Grocer"])("spending at a merchant this year (%s): the merchant's transactions this year", async (merchant) => {
    const listed = await transactions({ merchant_id: ids.merchants.get(merchant)!, ...inPeriod(THIS_YEAR) });
    const spent = sideRows(listed, "spending");
    const received = centsSum(sideRows(listed, "income"));
    expect(centsSum(spent)).toBe(ledgerCents((row) => row.merchant === merchant && row.nature === "expense" && within(THIS_YEAR, row.date)));

    const answer = await ask(`How much did we spend at ${merchant} this year?`);
    const sentences = [`You spent ${money(centsSum(spent))} at ${merchant} this year (${daysText(THIS_YEAR)}), across ${transactionsText(spent.length)}.`];
    // A refund from the merchant is said apart, as income from it.
    if (received > 0) sentences.push(`You also received ${money(received)} from ${merchant} in that period.`);
    expect(answer.content).toBe(sentences.join(" "));
    expect(toolNames(answer)).toEqual(["get_merchants", "get_income_statement"]);
    expect(toolCall(answer, "get_income_statement")!.function_arguments).toEqual({
      ...inPeriod(THIS_YEAR),
      group_by: "merchant",
      merchant_id: ids.merchants.get(merchant),
    });
  });

  it("spending on a tag in a named month: the tag's transactions that month", async () => {
    const listed = await transactions({ tag_ids: ids.vacation, ...inPeriod(LAST_MONTH) });
    const spent = sideRows(listed, "spending");
    expect(centsSum(spent)).toBe(ledgerCents((row) => row.vacation === true && row.nature === "expense" && within(LAST_MONTH, row.date)));

    const answer = await ask(`How much did we spend on things tagged vacation in ${LAST_MONTH_NAME}?`);
    expect(answer.content).toBe(
      `You spent ${money(centsSum(spent))} on things tagged ${VACATION} in ${LAST_MONTH_NAME} (${daysText(LAST_MONTH)}), across ${transactionsText(spent.length)}.`,
    );
    expect(toolNames(answer)).toEqual(["get_tags", "get_income_statement"]);
    expect(toolCall(answer, "get_income_statement")!.function_arguments).toEqual({ ...inPeriod(LAST_MONTH), group_by: "tag", tag_id: ids.vacation });
  });

  it("total spending and income this year: the year's transactions by the statement's rule, and the three largest categories", async () => {
    const listed = await transactions(inPeriod(THIS_YEAR));
    const when = `this year (${daysText(THIS_YEAR)})`;
    const largest = (rows: Transaction[]) => {
      const groups = categoryGroups(rows);
      if (groups.length === 1) return `All of it was in ${groups[0]!.name}.`;
      return `The largest categories were ${listText(groups.slice(0, 3).map((group) => `${group.name} (${money(group.cents)})`))}.`;
    };
    const spending = sideRows(listed, "spending");
    const income = sideRows(listed, "income");
    expect([centsSum(spending), centsSum(income)]).toEqual([
      ledgerCents((row) => within(THIS_YEAR, row.date) && row.nature === "expense"),
      ledgerCents((row) => within(THIS_YEAR, row.date) && row.nature === "income"),
    ]);

    const spent = await ask("How much did we spend this year?");
    expect(spent.content).toBe(`You spent ${money(centsSum(spending))} in total ${when}. ${largest(spending)}`);
    expect(toolNames(spent)).toEqual(["get_income_statement"]);
    const earned = await ask("What was our income this year?");
    expect(earned.content).toBe(`Your income was ${money(centsSum(income))} ${when}. ${largest(income)}`);
    expect(toolNames(earned)).toEqual(["get_income_statement"]);
  });

  it("how much did we save: income, spending and their difference this year", async () => {
    const listed = await transactions(inPeriod(THIS_YEAR));
    const income = centsSum(sideRows(listed, "income"));
    const spending = centsSum(sideRows(listed, "spending"));
    expect(income - spending).toBeGreaterThan(0);

    const answer = await ask("How much did we save this year?");
    expect(answer.content).toBe(
      `You earned ${money(income)} and spent ${money(spending)} this year (${daysText(THIS_YEAR)}), so you saved ${money(income - spending)}.`,
    );
    expect(toolNames(answer)).toEqual(["get_income_statement"]);
  });

  it("budget status this month: the budget's figures and its lines over their limit, from GET /api/v1/budgets/:id and /budget_categories/:id", async () => {
    const budget = BudgetSchema.parse(await get(`/api/v1/budgets/${ids.budget}`));
    const summaries = BudgetCategoryCollectionSchema.parse(await get(`/api/v1/budget_categories?budget_id=${ids.budget}&per_page=100`)).budget_categories;
    const lines: BudgetCategory[] = [];
    for (const summary of summaries) lines.push(BudgetCategorySchema.parse(await get(`/api/v1/budget_categories/${summary.id}`)));
    // The budget's spending is this month's by the statement's rule (no refund this month to net).
    const thisMonth = await transactions(inPeriod(THIS_MONTH));
    expect(budget.actual_spending_cents).toBe(centsSum(sideRows(thisMonth, "spending")));
    expect(budget.actual_spending_cents).toBe(ledgerCents((row) => within(THIS_MONTH, row.date) && row.nature === "expense"));
    expect(budget.budgeted_spending_cents).toBe(centsOfAmount(BUDGET.total));

    const over = lines
      .filter((line) => line.available_to_spend_cents < 0)
      .sort((a, b) => b.actual_spending_cents - a.actual_spending_cents || a.category.name.localeCompare(b.category.name));
    // Over by Sure's over_budget? (available_to_spend below zero): Pets and Utilities past their
    // limits, Transportation spent with no limit at all, and Vet, which has no limit of its own and
    // shares what Pets has left (Pets' line counts Vet's spending too).
    expect(over.map((line) => line.category.name).sort()).toEqual([PETS, "Transportation", "Utilities", VET]);
    const petsLine = lines.find((line) => line.category.name === PETS)!;
    const petsThisMonth = sideRows(thisMonth, "spending").filter((row) => row.category?.name === PETS || row.category?.name === VET);
    expect(petsLine.actual_spending_cents).toBe(centsSum(petsThisMonth));
    expect(lines.find((line) => line.category.name === VET)!.available_to_spend_cents).toBe(petsLine.available_to_spend_cents);
    const when = `${budget.name} (${daysText({ start: budget.start_date, end: budget.end_date })})`;
    // The answer tells them apart, as Sure does: over a limit of their own (Pets, Utilities), spent with
    // no limit (Transportation), and Vet, which shares Pets' limit and is over only through it.
    const ownLimit = over.filter((line) => !line.inherits_parent_budget && line.display_budgeted_spending_cents > 0);
    const noLimit = over.filter((line) => !line.inherits_parent_budget && line.display_budgeted_spending_cents === 0);
    expect(ownLimit.map((line) => line.category.name).sort()).toEqual([PETS, "Utilities"]);
    expect(noLimit.map((line) => line.category.name)).toEqual(["Transportation"]);
    const overText = ownLimit.map((line) => `${line.category.name} (${money(line.actual_spending_cents)} of ${money(line.display_budgeted_spending_cents)})`);
    const noLimitText = noLimit.map((line) => `${line.category.name} (${money(line.actual_spending_cents)})`);

    const answer = await ask("How is our budget this month?");
    expect(answer.content).toBe(
      `In ${when} you've spent ${money(budget.actual_spending_cents)} of your ${money(budget.budgeted_spending_cents!)} budget, so ${money(budget.available_to_spend_cents)} is left. Over budget: ${listText(overText)}. Spent without a budget: ${listText(noLimitText)}.`,
    );
    expect(toolNames(answer)).toEqual(["get_budget"]);

    // A budgeted category named: its line.
    const named = await ask("How is the Pets budget this month?");
    expect(named.content).toBe(
      `For ${PETS} in ${when}: you've spent ${money(petsLine.actual_spending_cents)} of ${money(petsLine.display_budgeted_spending_cents)} budgeted, so you're ${money(-petsLine.available_to_spend_cents)} over.`,
    );
    expect(toolNames(named)).toEqual(["get_budget"]);
  });

  it("upcoming bills: the active expense recurrences due in the next 30 days, from GET /api/v1/recurring_transactions", async () => {
    const { recurring_transactions: recurring } = RecurringTransactionCollectionSchema.parse(await get("/api/v1/recurring_transactions?per_page=100"));
    expect(recurring).toHaveLength(RECURRING.length);
    // Income is negative as Sure stores it: a bill is an active row with a positive amount.
    const due = recurring
      .filter((row) => row.status === "active" && row.amount_cents > 0 && within(NEXT_30_DAYS, row.next_expected_date))
      .sort((a, b) => a.next_expected_date.localeCompare(b.next_expected_date) || (a.name ?? "").localeCompare(b.name ?? ""));
    expect(due.map((row) => row.name)).toEqual(["Streamly", "Home Insurance"]);
    const total = due.reduce((sum, row) => sum + row.amount_cents, 0);

    const answer = await ask("What bills are coming up?");
    expect(answer.content).toBe(
      [
        `You have ${due.length} bills due in the next 30 days (${daysText(NEXT_30_DAYS)}), ${money(total)} in all:`,
        ...due.map((row) => `- ${row.name}: ${money(row.amount_cents)} on ${shortDay(row.next_expected_date)}`),
      ].join("\n"),
    );
    expect(toolNames(answer)).toEqual(["get_recurring_transactions"]);
  });

  it("largest expenses last month: the five largest real expenses GET /api/v1/transactions lists for last month", async () => {
    const listed = await transactions({ type: "expense", ...inPeriod(LAST_MONTH) });
    // The assistant's rule (largest-expenses.ts): an expense that is not excluded and is standard or
    // one-time (a one-time expense was paid, though the statement leaves it out); transfers never.
    const largest = listed
      .filter((row) => row.classification === "expense" && !row.excluded && (row.kind === "standard" || row.kind === "one_time"))
      .sort((a, b) => b.amount_cents - a.amount_cents || b.date.localeCompare(a.date) || a.name.localeCompare(b.name))
      .slice(0, 5);
    // The excluded camera and the transfer's outflow are listed, and larger, but are not expenses.
    expect(listed.map((row) => row.amount_cents)).toEqual(expect.arrayContaining([centsOfAmount("249.00"), centsOfAmount(TRANSFER.amount)]));
    const written = LEDGER.filter((row) => within(LAST_MONTH, row.date) && row.nature === "expense" && !row.excluded).map((row) => centsOfAmount(row.amount));
    expect(largest.map((row) => row.amount_cents)).toEqual(written.sort((a, b) => b - a).slice(0, 5));

    const answer = await ask("What were our largest expenses last month?");
    expect(answer.content).toBe(
      [
        `Your 5 largest expenses last month (${daysText(LAST_MONTH)}) were:`,
        ...largest.map(
          (row) => `- ${money(row.amount_cents)}: ${row.merchant?.name ?? row.name} on ${shortDay(row.date)}${row.category ? ` (${row.category.name})` : ""}`,
        ),
      ].join("\n"),
    );
    expect(toolNames(answer)).toEqual(["get_transactions"]);
  });
});

describe("a family in EUR with locale de-DE", () => {
  it("answers in euros written the German way (1.234,56 €)", async () => {
    const euro = await signUpUser(api, "ledger-euro", { ai: true });
    await patch("/api/v1/family_settings", { family_settings: { currency: "EUR", locale: "de-DE" } }, euro);
    const settings = FamilySettingsSchema.parse(await get("/api/v1/family_settings", euro));
    expect(settings).toMatchObject({ currency: "EUR", locale: "de-DE" });
    const account = await post("/api/v1/accounts", { account: { name: "Girokonto", account_type: "depository", balance: "1300.00" } }, euro);
    await post("/api/v1/transactions", { transaction: { account_id: account.id, date: TODAY, amount: "65.44", name: "Markt", nature: "expense" } }, euro);
    await settled(euro);

    const sheet = BalanceSheetSchema.parse(await get("/api/v1/balance_sheet", euro));
    expect(sheet.net_worth).toMatchObject({ amount: "1234.56", currency: "EUR" });
    const euros = (cents: number) => formatMoney(cents, "EUR", settings.locale);
    expect(euros(123456)).toBe("1.234,56\u00a0€");

    const worth = await ask("What is our net worth?", euro);
    expect(worth.content).toBe(`Your net worth is ${euros(123456)}: ${euros(123456)} in assets and ${euros(0)} in liabilities.`);
    expect(worth.content).toContain("1.234,56\u00a0€");
    expect(toolNames(worth)).toEqual(["get_balance_sheet"]);
    const balance = await ask("What is the balance of Girokonto?", euro);
    expect(balance.content).toBe(`Your Girokonto balance is ${euros(123456)}.`);
    // Days are written the German way too; the one expense has no category.
    const spent = await ask("How much did we spend this month?", euro);
    expect(spent.content).toBe(`You spent ${euros(6544)} in total this month (${daysText(THIS_MONTH, settings.locale)}). All of it was in Uncategorized.`);
    expect(spent.content).toContain("65,44\u00a0€");
  });
});
