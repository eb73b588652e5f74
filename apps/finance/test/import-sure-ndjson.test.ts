// SureImport (data in): a household moves in from another Sure, or from Hearth's own export, by
// importing its all.ndjson. Through the real procedures: imports.create with publish, the import
// worker's one transaction, imports.get, imports.revert. Each case names the test of Sure's
// test/models/family/data_importer_test.rb it mirrors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, type Actor, type ImportDetail } from "@hearth/contracts";
import { addDays, todayIso, yearsBefore } from "../src/ledger/dates";
import { eventually, expectAppError, financeAs, newActor, exportedNdjson, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

function newFamily(actor: Actor = newActor()) {
  return { actor, familyId: actor.familyId, call: financeAs(finance, actor) };
}
type Family = ReturnType<typeof newFamily>;

/** Creates answer `{ status, body }` where a replay may answer 200; the others the record itself. */
const bodyOf = (answer: any) => (answer && typeof answer === "object" && "body" in answer && "status" in answer ? answer.body : answer);

const ndjson = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n");

/** Uploads `content` as a SureImport asking for it to be published, and waits until the worker is done with it. */
async function importNdjson(family: Family, content: string): Promise<ImportDetail> {
  const created = ImportResponseSchema.parse(await family.call("imports.create", { type: "SureImport", raw_file_content: content, publish: true })).data;
  return finished(family, created.id);
}

async function finished(family: Family, id: string): Promise<ImportDetail> {
  return eventually(async () => {
    const detail = ImportResponseSchema.parse(await family.call("imports.get", { id })).data;
    expect(["complete", "failed"]).toContain(detail.status);
    return detail;
  });
}

async function published(family: Family, content: string): Promise<ImportDetail> {
  const detail = await importNdjson(family, content);
  expect(detail.error ?? null, "the import failed").toBeNull();
  expect(detail.status).toBe("complete");
  return detail;
}

type SureRecord = { type: string; version?: number; data: Record<string, unknown> };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What differs between two families by nature: their ids and when their rows were written. */
const IDENTITY_KEYS = new Set(["id", "entry_id", "family_id", "created_at", "updated_at"]);

/**
 * The records with ids aside: every id another record names becomes what it names (an account
 * by name, a transaction by account, date, amount and name, a security by ticker...), ids and
 * timestamps of the records themselves are dropped, and the lines are sorted (records of a type
 * are written in id order, and ids differ).
 */
function withIdsAside(text: string): string[] {
  const records = text.split("\n").map((line) => JSON.parse(line) as SureRecord);
  const names = new Map<string, string>();
  const str = (value: unknown) => String(value);
  for (const { type, data } of records) {
    if (type === "Account") names.set(str(data.id), `Account ${str(data.name)}`);
    if (type === "Category" || type === "Tag" || type === "Merchant") names.set(str(data.id), `${type} ${str(data.name)}`);
    if (type === "Budget") names.set(str(data.id), `Budget ${str(data.start_date)}`);
    if (type === "Trade" || type === "Holding") names.set(str(data.security_id), `Security ${str(data.ticker)}`);
  }
  for (const { type, data } of records) {
    if (type === "Transaction")
      names.set(str(data.id), `Transaction ${names.get(str(data.account_id))} ${str(data.date)} ${str(data.amount)} ${str(data.name)}`);
  }
  const aside = (value: unknown, top: boolean): unknown => {
    if (typeof value === "string") return names.get(value) ?? (UUID.test(value) ? "an id no record names" : value);
    if (Array.isArray(value)) return value.map((item) => aside(item, false)).sort();
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !top || !IDENTITY_KEYS.has(key))
        .map(([key, item]) => [key, aside(item, false)]),
    );
  };
  return records.map((record) => JSON.stringify({ ...record, data: aside(record.data, true) })).sort();
}

const recordsOf = (text: string, type: string) =>
  text
    .split("\n")
    .map((line) => JSON.parse(line) as SureRecord)
    .filter((record) => record.type === type);

/** A family with a bit of everything Hearth exports, made through its procedures. */
async function seedFamily(family: Family) {
  const { call } = family;
  const account = (fields: Record<string, unknown>) => call("accounts.create", { account: { opening_balance_date: "2026-01-01", ...fields } });
  const checking = await account({ name: "Checking", account_type: "depository", subtype: "checking", balance: "1000" });
  const savings = await account({ name: "Savings", account_type: "depository", subtype: "savings", balance: "250" });
  const card = await account({ name: "Visa", account_type: "credit_card", balance: "300" });
  const brokerage = await account({ name: "Brokerage", account_type: "investment", subtype: "brokerage", balance: "10000" });
  const house = await account({ name: "House", account_type: "property", balance: "300000", institution_name: "County records" });
  const food = await call("categories.create", { category: { name: "Food", color: "#ff0000", icon: "utensils" } });
  const restaurants = await call("categories.create", { category: { name: "Restaurants, Bars", color: "#00ff00", icon: "wine", parent_id: food.id } });
  const side = await call("categories.create", { category: { name: "Side gigs", classification: "income", icon: "briefcase" } });
  const trip = await call("tags.create", { tag: { name: "Trip", color: "#0000ff" } });
  const work = await call("tags.create", { tag: { name: "Work", color: "#00ffff" } });
  const bistro = await call("merchants.create", { merchant: { name: "Chez Nous", color: "#123456" } });
  const gym = await call("merchants.create", { merchant: { name: "Gym" } });
  const transaction = async (fields: Record<string, unknown>) =>
    bodyOf(await call("transactions.create", { transaction: { account_id: checking.id, date: "2026-03-05", ...fields } }));
  await transaction({
    name: "Dinner",
    amount: "42.50",
    category_id: restaurants.id,
    merchant_id: bistro.id,
    tag_ids: [work.id, trip.id],
    notes: "Anniversary",
  });
  await transaction({ name: "Consulting", amount: "-1200", date: "2026-03-06", category_id: side.id });
  await transaction({ name: "Refund held", amount: "19.99", date: "2026-03-07", excluded: true, notes: "not mine" });
  await transaction({ name: "Groceries", amount: "63.10", account_id: card.id, date: "2026-03-09", tag_ids: [trip.id] });
  await call("transfers.create", {
    transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "100", date: "2026-03-08", notes: "Monthly" },
  });
  await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: card.id, amount: "300", date: "2026-03-20" } });
  // Two transactions the matcher pairs, and the family says they are no transfer.
  await transaction({ name: "Cash out", amount: "75", date: "2026-04-02" });
  await transaction({ name: "Cash in", amount: "-75", date: "2026-04-02", account_id: savings.id });
  await settled(finance);
  const [proposed] = (await call("transfers.list", { status: "pending" })).transfers;
  await call("transfers.update", { id: proposed.id, transfer: { status: "rejected" } });
  await call("valuations.create", { valuation: { account_id: house.id, amount: 320000, date: "2026-06-01" } });
  bodyOf(
    await call("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-03-02", qty: 10, price: "100", fee: "5", ticker: "AAPL" } }),
  );
  bodyOf(await call("trades.create", { trade: { account_id: brokerage.id, type: "sell", date: "2026-05-04", qty: 4, price: "120.5", ticker: "AAPL" } }));
  // Prices the trades do not give: the export's holdings carry them.
  await call("securityPrices.record", {
    security_prices: [
      { ticker: "AAPL", date: "2026-03-10", price: "110" },
      { ticker: "AAPL", date: "2026-06-01", price: "130.25" },
    ],
  });
  const budget = bodyOf(await call("budgets.create", { budget: { start_date: "2026-03-01" } }));
  await call("budgets.update", { id: budget.id, budget: { budgeted_spending: "500", expected_income: "2000.5" } });
  const line = (await call("budgetCategories.list", { budget_id: budget.id, category_id: restaurants.id })).budget_categories[0];
  await call("budgetCategories.update", { id: line.id, budget_category: { budgeted_spending: "120" } });
  const lastGym = addDays(todayIso(), -5);
  await call("recurringTransactions.create", {
    recurring_transaction: {
      account_id: checking.id,
      merchant_id: gym.id,
      amount: 49.99,
      currency: "USD",
      expected_day_of_month: Number(lastGym.slice(8)),
      last_occurrence_date: lastGym,
      next_expected_date: addDays(lastGym, 30),
      occurrence_count: 4,
      manual: true,
    },
  });
  // Made last, so it does not change the transactions above.
  await call("rules.create", {
    rule: {
      name: "Dining",
      active: true,
      effective_date: "2026-01-01",
      conditions: [
        { condition_type: "transaction_name", operator: "like", value: "Dinner" },
        {
          condition_type: "compound",
          operator: "or",
          sub_conditions: [
            { condition_type: "transaction_merchant", operator: "=", value: bistro.id },
            { condition_type: "transaction_amount", operator: ">", value: "40" },
          ],
        },
      ],
      actions: [
        { action_type: "set_transaction_category", value: restaurants.id },
        { action_type: "set_transaction_tags", value: trip.id },
      ],
    },
  });
  await settled(finance);
}

describe("SureImport: Hearth's own export, round trip", () => {
  let source: Family;
  let target: Family;
  let exported: string;
  let imported: ImportDetail;

  beforeAll(async () => {
    source = newFamily();
    target = newFamily();
    await seedFamily(source);
    exported = await exportedNdjson(finance, source.familyId);
    imported = await published(target, exported);
    await settled(finance);
  }, 120_000);

  it("imports every record of the export and answers what it wrote (Sure: 'full import scenario with all entity types')", async () => {
    const lines = exported.split("\n").length;
    expect(imported.progress).toEqual({ rows_done: lines, rows_total: lines });
    expect(imported.stats).toMatchObject({ rows_count: lines, valid_rows_count: lines, invalid_rows_count: 0 });
    const count = (type: string) => recordsOf(exported, type).length;
    expect(imported.result).toMatchObject({
      accounts: 5,
      opening_balances: 0,
      categories: count("Category"),
      tags: 2,
      merchants: 2,
      recurring_transactions: 1,
      transactions: count("Transaction"),
      transfers: 2,
      rejected_transfers: 1,
      trades: 2,
      securities_created: 1,
      valuations: count("Valuation"),
      budgets: 1,
      budget_categories: count("BudgetCategory"),
      rules: 1,
      rule_references_created: 0,
      // Its balances and holdings are what its entries, trades and prices give: only the prices its trades do not give are added.
      balance_reconciliations: 0,
      holding_trades: 0,
      holding_prices: 3,
    });
    expect(count("Balance")).toBeGreaterThan(0);
    expect(count("Holding")).toBeGreaterThan(0);
  });

  it("exports again as the same all.ndjson, ids and timestamps aside (Sure: 'round trips holding snapshots through full export', 'round trips raw balance history through full export')", async () => {
    const again = await exportedNdjson(finance, target.familyId);
    // Balances and holdings are the syncs' own computations from the imported entries: the same figures.
    expect(withIdsAside(again)).toEqual(withIdsAside(exported));
    expect(again.split("\n")).toHaveLength(exported.split("\n").length);
    // Another family's rows: none of the source's ids.
    const sourceIds = new Set(exported.split("\n").map((line) => (JSON.parse(line) as SureRecord).data.id));
    expect(recordsOf(again, "Transaction").filter((record) => sourceIds.has(record.data.id))).toEqual([]);
  });

  it("stores the prices the holdings were valued at where the trades do not give them, on the security it made (Sure: 'round trips holding snapshots through full export')", async () => {
    const prices = await finance.db.securityPrice.findMany({ where: { familyId: target.familyId }, orderBy: { date: "asc" } });
    // The source carried its price of 2026-03-10 over the sell of 2026-05-04 (a stored price wins
    // its day): the target, which has no carried rows, stores it that day.
    expect(prices.map((price) => [price.date.toISOString().slice(0, 10), price.price.toString(), price.provisional])).toEqual([
      ["2026-03-10", "110", false],
      ["2026-05-04", "110", false],
      ["2026-06-01", "130.25", false],
    ]);
  });

  it("gives every account and entry it wrote the import's id, and the accounts a sync (Sure: 'imports accounts with accountable data')", async () => {
    const accounts = await finance.db.account.findMany({ where: { familyId: target.familyId } });
    expect(accounts).toHaveLength(5);
    expect(accounts.every((account) => account.importId === imported.id)).toBe(true);
    expect(accounts.find((account) => account.name === "Brokerage")).toMatchObject({
      accountType: "investment",
      subtype: "brokerage",
      classification: "asset",
    });
    expect(accounts.find((account) => account.name === "House")).toMatchObject({ institutionName: "County records" });
    const entries = await finance.db.entry.findMany({ where: { familyId: target.familyId } });
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.every((entry) => entry.importId === imported.id)).toBe(true);
    const syncs = await finance.db.sync.findMany({ where: { familyId: target.familyId } });
    expect(new Set(syncs.map((sync) => sync.syncableId))).toEqual(new Set(accounts.map((account) => account.id)));
  });

  it("keeps transfer kinds and the rejected pair, so the matcher proposes nothing new (Sure: 'imports transfer decisions and rejected transfers with remapped transactions')", async () => {
    const transfers = await target.call("transfers.list", {});
    expect(transfers.transfers).toHaveLength(2);
    const payment = await finance.db.entry.findFirstOrThrow({ where: { familyId: target.familyId, name: "Payment to Visa" } });
    expect(payment.transactionKind).toBe("cc_payment");
    expect((await target.call("transfers.list", { status: "pending" })).transfers).toEqual([]);
    expect(await finance.db.rejectedTransfer.count({ where: { familyId: target.familyId } })).toBe(1);
  });

  it("marks the family's default categories as given: its first category list shows the household's own", async () => {
    const listed = await target.call("categories.list", { per_page: 100 });
    expect(listed.categories.map((category: { name: string }) => category.name).sort()).toEqual(
      recordsOf(exported, "Category")
        .map((record) => String(record.data.name))
        .sort(),
    );
  });
});

describe("SureImport: files from another Sure", () => {
  it("dates a synthesized opening balance the day before the account's oldest activity, and keeps an explicit opening anchor alone (Sure: 'dates synthesized account opening balance before oldest imported activity', 'imports explicit opening anchor valuations without synthesizing duplicates')", async () => {
    const family = newFamily();
    const detail = await published(
      family,
      ndjson(
        {
          type: "Account",
          data: {
            id: "old-account-1",
            name: "Test Checking",
            balance: "1500.00",
            currency: "USD",
            accountable_type: "Depository",
            accountable: { subtype: "checking" },
          },
        },
        { type: "Account", data: { id: "old-account-2", name: "Anchored", balance: "700", accountable_type: "Depository", status: "disabled" } },
        { type: "Account", data: { id: "old-account-3", name: "Quiet", balance: "10", accountable_type: "OtherAsset" } },
        { type: "Transaction", data: { id: "t-1", account_id: "old-account-1", date: "2024-03-10", amount: "25.00", name: "Coffee" } },
        { type: "Valuation", data: { id: "v-1", account_id: "old-account-2", date: "2024-01-01", amount: "500", kind: "opening_anchor", name: "Opening" } },
        { type: "Balance", data: { account_id: "old-account-1", date: "2024-03-01", balance: "1525.00" } },
      ),
    );
    expect(detail.result).toMatchObject({ accounts: 3, opening_balances: 2, transactions: 1, valuations: 1, balance_reconciliations: 1 });
    const accounts = await finance.db.account.findMany({ where: { familyId: family.familyId }, orderBy: { name: "asc" } });
    const byName = new Map(accounts.map((account) => [account.name, account]));
    expect(byName.get("Test Checking")).toMatchObject({ accountType: "depository", subtype: "checking", currency: "USD", status: "active" });
    expect(byName.get("Anchored")).toMatchObject({ status: "disabled" });
    const anchors = await finance.db.entry.findMany({ where: { familyId: family.familyId, valuationKind: "opening_anchor" } });
    const anchorOf = (name: string) => anchors.filter((anchor) => anchor.accountId === byName.get(name)!.id);
    // The oldest activity is the Balance record of 2024-03-01, whose 1,525 the opening balance does not give: a reconciliation.
    expect(anchorOf("Test Checking").map((a) => [a.date.toISOString().slice(0, 10), a.amountCents, a.name])).toEqual([
      ["2024-02-29", 150000n, "Opening balance"],
    ]);
    const reconciled = await finance.db.entry.findMany({ where: { familyId: family.familyId, valuationKind: "reconciliation" } });
    expect(reconciled.map((v) => [v.accountId, v.date.toISOString().slice(0, 10), v.amountCents, v.importId])).toEqual([
      [byName.get("Test Checking")!.id, "2024-03-01", 152500n, detail.id],
    ]);
    expect(anchorOf("Anchored").map((a) => [a.date.toISOString().slice(0, 10), a.amountCents, a.name])).toEqual([["2024-01-01", 50000n, "Opening"]]);
    // No activity: two years back, as Sure's OpeningBalanceManager.
    expect(anchorOf("Quiet").map((a) => a.date.toISOString().slice(0, 10))).toEqual([yearsBefore(todayIso(), 2)]);
  });

  it("writes a split transaction as its lines, and a transfer may name a line (Sure: 'imports native split lines and lets transfers reference split children')", async () => {
    const family = newFamily();
    const detail = await published(
      family,
      ndjson(
        { type: "Account", data: { id: "a-1", name: "Checking", balance: "1000", accountable_type: "Depository" } },
        { type: "Account", data: { id: "a-2", name: "Savings", balance: "0", accountable_type: "Depository" } },
        { type: "Category", data: { id: "c-1", name: "Household" } },
        { type: "Tag", data: { id: "tag-1", name: "Shared" } },
        {
          type: "Transaction",
          data: {
            id: "t-split",
            account_id: "a-1",
            date: "2024-05-01",
            amount: "100.00",
            name: "Costco run",
            tag_ids: ["tag-1"],
            split_lines: [
              { id: "t-split-1", amount: "30.00", name: "Paper goods", category_id: "c-1" },
              { id: "t-split-2", amount: "70.00", memo: "Move to savings", tag_ids: [], kind: "funds_movement" },
            ],
          },
        },
        { type: "Transaction", data: { id: "t-in", account_id: "a-2", date: "2024-05-01", amount: "-70.00", name: "From checking" } },
        { type: "Transfer", data: { inflow_transaction_id: "t-in", outflow_transaction_id: "t-split-2", status: "confirmed" } },
      ),
    );
    expect(detail.result).toMatchObject({ transactions: 3, split_transactions: 1, transfers: 1 });
    const entries = await finance.db.entry.findMany({
      where: { familyId: family.familyId, kind: "transaction" },
      include: { tags: { include: { tag: true } } },
    });
    const byName = new Map(entries.map((entry) => [entry.name, entry]));
    expect([...byName.keys()].sort()).toEqual(["From checking", "Move to savings", "Paper goods"]);
    expect(byName.get("Paper goods")!.tags.map((t) => t.tag.name)).toEqual(["Shared"]);
    expect(byName.get("Move to savings")!.tags).toEqual([]);
    const household = await finance.db.category.findUniqueOrThrow({ where: { familyId_name: { familyId: family.familyId, name: "Household" } } });
    expect(byName.get("Paper goods")!.categoryId).toBe(household.id);
    const transfer = await finance.db.transfer.findFirstOrThrow({ where: { familyId: family.familyId } });
    expect(transfer).toMatchObject({ outflowEntryId: byName.get("Move to savings")!.id, inflowEntryId: byName.get("From checking")!.id, status: "confirmed" });
    expect(byName.get("From checking")!.transactionKind).toBe("funds_movement");
  });

  it("resolves rule operands by value_ref and by name, making the names the family lacks (Sure: 'imports rules from normalized operand value refs', 'imports transaction_tag rule condition by remapping the tag name to an id')", async () => {
    const family = newFamily();
    const detail = await published(
      family,
      ndjson(
        { type: "Category", data: { id: "c-groceries", name: "Groceries" } },
        { type: "Merchant", data: { id: "m-1", name: "Corner Shop" } },
        {
          type: "Rule",
          version: 1,
          data: {
            id: "r-1",
            name: "Weekly shop",
            active: true,
            conditions: [
              { condition_type: "transaction_merchant", operator: "=", value: "Corner Shop", value_ref: { type: "Merchant", id: "m-1", name: "Corner Shop" } },
              { condition_type: "transaction_tag", operator: "=", value: "Weekly" },
            ],
            actions: [
              {
                action_type: "set_transaction_category",
                value: "0b6f9a1e-1111-4aaa-8bbb-123456789abc",
                value_ref: { type: "Category", id: "c-groceries", name: "Groceries" },
              },
              { action_type: "set_transaction_tags", value: "Errands" },
            ],
          },
        },
      ),
    );
    expect(detail.result).toMatchObject({ rules: 1, rule_references_created: 2, categories: 1, merchants: 1 });
    const [rule] = (await family.call("rules.list", {})).data;
    const idOf = async (table: "category" | "merchant" | "tag", name: string) =>
      ((await (finance.db[table] as any).findUniqueOrThrow({ where: { familyId_name: { familyId: family.familyId, name } } })) as { id: string }).id;
    expect(rule.conditions.map((c: { condition_type: string; value: string }) => [c.condition_type, c.value])).toEqual([
      ["transaction_merchant", await idOf("merchant", "Corner Shop")],
      ["transaction_tag", await idOf("tag", "Weekly")],
    ]);
    expect(rule.actions.map((a: { action_type: string; value: string }) => [a.action_type, a.value])).toEqual([
      ["set_transaction_category", await idOf("category", "Groceries")],
      ["set_transaction_tags", await idOf("tag", "Errands")],
    ]);
  });

  it("maps categories, tags and merchants the family has by name to its own, leaving them as they are", async () => {
    const family = newFamily();
    const food = await family.call("categories.create", { category: { name: "Food", color: "#111111", icon: "utensils" } });
    const trip = await family.call("tags.create", { tag: { name: "Trip", color: "#222222" } });
    const shop = await family.call("merchants.create", { merchant: { name: "Corner Shop" } });
    const detail = await published(
      family,
      ndjson(
        { type: "Account", data: { id: "a-1", name: "Checking", balance: "10", accountable_type: "Depository" } },
        { type: "Category", data: { id: "c-1", name: "Food", color: "#999999" } },
        { type: "Category", data: { id: "c-2", name: "Snacks", parent_id: "c-1" } },
        { type: "Tag", data: { id: "t-1", name: "Trip" } },
        { type: "Merchant", data: { id: "m-1", name: "Corner Shop" } },
        {
          type: "Transaction",
          data: { id: "x-1", account_id: "a-1", date: "2024-02-02", amount: "3.50", name: "Chips", category_id: "c-2", merchant_id: "m-1", tag_ids: ["t-1"] },
        },
      ),
    );
    expect(detail.result).toMatchObject({ categories: 1, categories_reused: 1, tags: 0, tags_reused: 1, merchants: 0, merchants_reused: 1 });
    expect(await finance.db.category.findUniqueOrThrow({ where: { id: food.id } })).toMatchObject({ color: "#111111" });
    const snacks = await finance.db.category.findUniqueOrThrow({ where: { familyId_name: { familyId: family.familyId, name: "Snacks" } } });
    expect(snacks.parentId).toBe(food.id);
    const chips = await finance.db.entry.findFirstOrThrow({ where: { familyId: family.familyId, name: "Chips" }, include: { tags: true } });
    expect(chips).toMatchObject({ categoryId: snacks.id, merchantId: shop.id });
    expect(chips.tags.map((t) => t.tagId)).toEqual([trip.id]);
  });
});

describe("SureImport: refusals and revert", () => {
  const account = { type: "Account", data: { id: "a-1", name: "Checking", balance: "100", accountable_type: "Depository" } };
  const badLine = { type: "Transaction", data: { id: "t-1", account_id: "a-1", date: "2024-01-05", amount: "12.345", name: "Too precise" } };

  const written = async (familyId: string) => ({
    accounts: await finance.db.account.count({ where: { familyId } }),
    entries: await finance.db.entry.count({ where: { familyId } }),
    categories: await finance.db.category.count({ where: { familyId } }),
  });

  it("stores the NDJSON without rows, counting its lines, and preflights it (Sure's imports controller)", async () => {
    const family = newFamily();
    const content = `${ndjson(account, { type: "Widget", data: {} })}\n\n`;
    const created = ImportResponseSchema.parse(await family.call("imports.create", { type: "SureImport", raw_file_content: content })).data;
    expect(created).toMatchObject({ type: "SureImport", status: "pending", stats: { rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 } });
    expect(await finance.db.importRow.count({ where: { importId: created.id } })).toBe(0);
    const preflight = (await family.call("imports.preflight", { type: "SureImport", raw_file_content: content })).data;
    expect(preflight).toMatchObject({ type: "SureImport", valid: false, stats: { rows_count: 2, entity_counts: { accounts: 1 } } });
    expect(preflight.errors).toEqual([{ code: "unsupported_record_type", message: "Line 2 has unsupported record type Widget." }]);
    await expectAppError(family.call("imports.create", { type: "SureImport", raw_file_content: "not json" }), "invalid_ndjson");
    await expectAppError(family.call("imports.create", { type: "SureImport", raw_file_content: " \n" }), "missing_content");
  });

  it("refuses to publish a file with a bad line, and a publish of it fails writing nothing (Sure: SureImport#publish_later's validate_sure_preflight!)", async () => {
    const family = newFamily();
    const error = await expectAppError(
      family.call("imports.create", { type: "SureImport", raw_file_content: ndjson(account, badLine), publish: true }),
      "preflight_failed",
    );
    expect(error.errors).toEqual(["Line 2 Transaction amount has more decimals than USD has (2)."]);
    const stored = (await family.call("imports.list", {})).data[0];
    expect(stored).toMatchObject({ id: error.importId, status: "pending" });
    await family.call("imports.publish", { id: error.importId });
    const detail = await finished(family, error.importId!);
    expect(detail.status).toBe("failed");
    expect(detail.error).toBe("The file has 1 problem(s): Line 2 Transaction amount has more decimals than USD has (2).");
    expect(await written(family.familyId)).toEqual({ accounts: 0, entries: 0, categories: 0 });
  });

  it("writes nothing when a record fails late, after accounts and entries were written: one transaction", async () => {
    const family = newFamily();
    const detail = await importNdjson(
      family,
      ndjson(
        account,
        { type: "Category", data: { id: "c-1", name: "Fees" } },
        { type: "Transaction", data: { id: "t-1", account_id: "a-1", date: "2024-01-05", amount: "12.34", name: "Fine", category_id: "c-1" } },
        {
          type: "Rule",
          data: {
            id: "r-1",
            name: "Broken",
            conditions: [{ condition_type: "transaction_mood", operator: "=", value: "sad" }],
            actions: [{ action_type: "exclude_transaction" }],
          },
        },
      ),
    );
    expect(detail.status).toBe("failed");
    expect(detail.error).toBe("Line 4 Rule: Unsupported condition type: transaction_mood");
    expect(await written(family.familyId)).toEqual({ accounts: 0, entries: 0, categories: 0 });
  });

  it("a revert removes the prices it stored from holdings, and resyncs an account outside it that held the security at them (Sure: Import#revert)", async () => {
    const family = newFamily();
    const held = (date: string, price: string) => ({
      type: "Holding",
      data: { account_id: "inv", ticker: "ZZHELD", date, qty: "2", price, amount: String(Number(price) * 2), cost_basis: "40" },
    });
    const content = ndjson(
      { type: "Account", data: { id: "inv", name: "Brokerage", balance: "1000", accountable_type: "Investment" } },
      held("2026-03-02", "50"),
      held("2026-03-03", "60"),
    );
    const detail = await published(family, content);
    expect(detail.result).toMatchObject({ holding_trades: 1, holding_prices: 2, securities_created: 1 });
    const own = await family.call("accounts.create", {
      account: { name: "Mine", account_type: "investment", balance: "0", opening_balance_date: "2026-01-01" },
    });
    await family.call("trades.create", { trade: { account_id: own.id, type: "buy", date: "2026-03-01", qty: 1, price: "45", ticker: "ZZHELD" } });
    await settled(finance);
    const ownHoldingsOn = async (date: string) =>
      (await finance.db.balance.findFirstOrThrow({ where: { accountId: own.id, date: new Date(`${date}T00:00:00Z`) } })).endNonCashCents;
    expect(await ownHoldingsOn("2026-03-03")).toBe(6000n);

    await family.call("imports.revert", { id: detail.id });
    await settled(finance);
    expect(await finance.db.securityPrice.count({ where: { familyId: family.familyId } })).toBe(0);
    // Its trade keeps the security, the family's own now; the account is valued at its trade's price again.
    expect(await finance.db.security.findMany({ where: { familyId: family.familyId }, select: { ticker: true, importId: true } })).toEqual([
      { ticker: "ZZHELD", importId: null },
    ]);
    expect(await ownHoldingsOn("2026-03-03")).toBe(4500n);
  });

  it("reverts by removing the accounts, entries and tags it made, and can publish again (Sure: Import#revert)", async () => {
    const family = newFamily();
    const own = await family.call("accounts.create", { account: { name: "Mine", account_type: "depository", balance: "5" } });
    const content = ndjson(
      account,
      { type: "Transaction", data: { id: "t-1", account_id: "a-1", date: "2024-01-05", amount: "12.34", name: "Lunch" } },
      { type: "Tag", data: { id: "g-1", name: "Trip" } },
    );
    const detail = await published(family, content);
    expect(await finance.db.account.count({ where: { importId: detail.id } })).toBe(1);
    expect(await finance.db.entry.count({ where: { importId: detail.id } })).toBe(2);
    await settled(finance);

    const reverted = ImportResponseSchema.parse(await family.call("imports.revert", { id: detail.id })).data;
    expect(reverted.status).toBe("pending");
    expect(await finance.db.account.findMany({ where: { familyId: family.familyId }, select: { id: true } })).toEqual([{ id: own.id }]);
    expect(await finance.db.entry.count({ where: { importId: detail.id } })).toBe(0);
    // The tag it made goes with it (Sure's revert would leave it): the family's tables are as before.
    expect(await finance.db.tag.count({ where: { familyId: family.familyId } })).toBe(0);

    await family.call("imports.publish", { id: detail.id });
    expect((await finished(family, detail.id)).status).toBe("complete");
    expect(await finance.db.account.count({ where: { importId: detail.id } })).toBe(1);
    expect(await finance.db.tag.count({ where: { importId: detail.id } })).toBe(1);
  });
});
