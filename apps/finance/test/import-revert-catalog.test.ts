// Reverting an import removes the records it made beyond accounts and entries: categories, tags,
// merchants, securities, recurring transactions, budgets and their lines, rules. What the family
// had before (found by name) stays, and so does what the import made but something outside it uses
// by now: that becomes the family's own (its import id cleared). Through the real procedures:
// imports.create with publish, the import worker, imports.revert.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, type Actor, type ImportDetail } from "@hearth/contracts";
import { todayIso } from "../src/ledger/dates";
import { eventually, financeAs, newActor, publishedImport, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

function newFamily(actor: Actor = newActor()) {
  return { actor, familyId: actor.familyId, call: financeAs(finance, actor) };
}
type Family = ReturnType<typeof newFamily>;

const ndjson = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n");

/** Uploads `content` asking for a publish, and waits until the worker has published it. */
async function published(family: Family, type: string, content: string, extra: Record<string, unknown> = {}): Promise<ImportDetail> {
  const detail = await publishedImport(family.call, { type, raw_file_content: content, ...extra });
  expect(detail.error ?? null, "the import failed").toBeNull();
  return detail;
}

async function reverted(family: Family, id: string): Promise<void> {
  expect(ImportResponseSchema.parse(await family.call("imports.revert", { id })).data.status).toBe("pending");
}

/** How many rows the family has in each table an import writes to. */
async function countsOf(familyId: string) {
  const db = finance.db;
  const ofFamily = { familyId };
  return {
    accounts: await db.account.count({ where: ofFamily }),
    entries: await db.entry.count({ where: ofFamily }),
    entry_tags: await db.entryTag.count({ where: { entry: ofFamily } }),
    trades: await db.trade.count({ where: ofFamily }),
    holdings: await db.holdingSpan.count({ where: ofFamily }),
    categories: await db.category.count({ where: ofFamily }),
    tags: await db.tag.count({ where: ofFamily }),
    merchants: await db.merchant.count({ where: ofFamily }),
    securities: await db.security.count({ where: ofFamily }),
    recurring_transactions: await db.recurringTransaction.count({ where: ofFamily }),
    budgets: await db.budget.count({ where: ofFamily }),
    budget_categories: await db.budgetCategory.count({ where: ofFamily }),
    rules: await db.rule.count({ where: ofFamily }),
    rule_conditions: await db.ruleCondition.count({ where: { OR: [{ rule: ofFamily }, { parent: { rule: ofFamily } }] } }),
    rule_actions: await db.ruleAction.count({ where: { rule: ofFamily } }),
  };
}

const categoryNamed = (familyId: string, name: string) => finance.db.category.findUnique({ where: { familyId_name: { familyId, name } } });
const tagNamed = (familyId: string, name: string) => finance.db.tag.findUnique({ where: { familyId_name: { familyId, name } } });
const merchantNamed = (familyId: string, name: string) => finance.db.merchant.findUnique({ where: { familyId_name: { familyId, name } } });
/** The security by ticker with its import id. */
const securityNamed = async (familyId: string, ticker: string) =>
  (
    await finance.db.$queryRaw<{ id: string; import_id: string | null }[]>`
      SELECT id::text AS id, import_id::text AS import_id FROM securities WHERE family_id = ${familyId}::uuid AND ticker = ${ticker}`
  )[0] ?? null;

const checking = { type: "Account", data: { id: "a-1", name: "Checking", balance: "1000", accountable_type: "Depository" } };
const brokerage = { type: "Account", data: { id: "a-2", name: "Brokerage", balance: "5000", accountable_type: "Investment" } };
const trade = (id: string, ticker: string) => ({
  type: "Trade",
  data: { id, account_id: "a-2", date: "2024-03-07", ticker, qty: "2", price: "100", amount: "200" },
});

describe("SureImport revert", () => {
  it("removes every record the import made and leaves the family's tables as they were, but for what the family took up (Sure: Import#revert)", async () => {
    const family = newFamily();
    const { familyId } = family;
    const mine = await family.call("accounts.create", {
      account: { name: "Mine", account_type: "depository", balance: "100", opening_balance_date: "2024-01-01" },
    });
    const allotment = await family.call("categories.create", { category: { name: "Allotment" } });
    const before = await countsOf(familyId);

    const detail = await published(
      family,
      "SureImport",
      ndjson(
        checking,
        brokerage,
        { type: "Category", data: { id: "c-1", name: "Household" } },
        { type: "Category", data: { id: "c-2", name: "Cleaning", parent_id: "c-1" } },
        { type: "Category", data: { id: "c-3", name: "Allotment" } },
        { type: "Category", data: { id: "c-4", name: "Hobbies" } },
        { type: "Tag", data: { id: "t-1", name: "Holiday" } },
        { type: "Merchant", data: { id: "m-1", name: "Corner Shop" } },
        {
          type: "RecurringTransaction",
          data: {
            id: "rt-1",
            account_id: "a-1",
            merchant_id: "m-1",
            amount: "12.50",
            expected_day_of_month: 5,
            last_occurrence_date: "2024-03-05",
            next_expected_date: "2024-04-05",
          },
        },
        {
          type: "Transaction",
          data: { id: "x-1", account_id: "a-1", date: "2024-03-05", amount: "12.50", name: "Soap", category_id: "c-2", merchant_id: "m-1", tag_ids: ["t-1"] },
        },
        { type: "Transaction", data: { id: "x-2", account_id: "a-1", date: "2024-03-06", amount: "30", name: "Food", category_id: "c-3" } },
        trade("tr-1", "ZZNEW"),
        { type: "Budget", data: { id: "b-1", start_date: "2024-03-01", end_date: "2024-03-31", budgeted_spending: "500" } },
        { type: "BudgetCategory", data: { id: "bc-1", budget_id: "b-1", category_id: "c-1", budgeted_spending: "100" } },
        {
          type: "Rule",
          data: {
            id: "r-1",
            name: "Hobby shop",
            active: true,
            conditions: [{ condition_type: "transaction_name", operator: "like", value: "Models" }],
            actions: [
              { action_type: "set_transaction_category", value: "Hobbies", value_ref: { type: "Category", id: "c-4", name: "Hobbies" } },
              { action_type: "set_transaction_tags", value: "Made by a rule" },
            ],
          },
        },
      ),
    );
    expect(detail.result).toMatchObject({
      categories: 3,
      categories_reused: 1,
      tags: 1,
      merchants: 1,
      recurring_transactions: 1,
      securities_created: 1,
      budgets: 1,
      budget_categories: 1,
      rules: 1,
      rule_references_created: 1,
    });
    // What it made carries its id; what it found does not.
    for (const name of ["Household", "Cleaning", "Hobbies"]) expect((await categoryNamed(familyId, name))?.importId).toBe(detail.id);
    expect(await categoryNamed(familyId, "Allotment")).toMatchObject({ id: allotment.id, importId: null });
    expect((await tagNamed(familyId, "Made by a rule"))?.importId).toBe(detail.id);
    expect((await securityNamed(familyId, "ZZNEW"))?.import_id).toBe(detail.id);
    await settled(finance);

    // The family files its own transaction under a category the import made.
    const hobbies = (await categoryNamed(familyId, "Hobbies"))!;
    await family.call("transactions.create", {
      transaction: { account_id: mine.id, date: "2024-03-10", amount: "20", name: "Paint", nature: "expense", category_id: hobbies.id },
    });

    await reverted(family, detail.id);
    expect(await countsOf(familyId)).toEqual({ ...before, categories: before.categories + 1, entries: before.entries + 1 });
    for (const name of ["Household", "Cleaning"]) expect(await categoryNamed(familyId, name)).toBeNull();
    expect(await categoryNamed(familyId, "Allotment")).toMatchObject({ id: allotment.id, importId: null });
    expect(await categoryNamed(familyId, "Hobbies")).toMatchObject({ id: hobbies.id, importId: null });
    expect(await finance.db.entry.findFirst({ where: { familyId, name: "Paint" } })).toMatchObject({ categoryId: hobbies.id });
    for (const name of ["Holiday", "Made by a rule"]) expect(await tagNamed(familyId, name)).toBeNull();
    expect(await merchantNamed(familyId, "Corner Shop")).toBeNull();
    expect(await securityNamed(familyId, "ZZNEW")).toBeNull();

    // Published again, it makes them anew.
    await family.call("imports.publish", { id: detail.id });
    await eventually(async () => expect(ImportResponseSchema.parse(await family.call("imports.get", { id: detail.id })).data.status).toBe("complete"));
    expect(await merchantNamed(familyId, "Corner Shop")).toMatchObject({ importId: detail.id });
  });

  it("keeps what something outside the import uses (an entry, a budget amount, a rule, a recorded price, a kept subcategory), clearing its import id", async () => {
    const family = newFamily();
    const { familyId } = family;
    const mine = await family.call("accounts.create", {
      account: { name: "Mine", account_type: "depository", balance: "100", opening_balance_date: "2024-01-01" },
    });
    const detail = await published(
      family,
      "SureImport",
      ndjson(
        checking,
        brokerage,
        { type: "Category", data: { id: "c-parent", name: "Parent" } },
        { type: "Category", data: { id: "c-child", name: "Child", parent_id: "c-parent" } },
        { type: "Category", data: { id: "c-budgeted", name: "Budgeted" } },
        { type: "Category", data: { id: "c-ruled", name: "Ruled" } },
        { type: "Category", data: { id: "c-unused", name: "Unused" } },
        { type: "Tag", data: { id: "t-used", name: "Used tag" } },
        { type: "Tag", data: { id: "t-unused", name: "Unused tag" } },
        { type: "Merchant", data: { id: "m-used", name: "Used merchant" } },
        { type: "Merchant", data: { id: "m-unused", name: "Unused merchant" } },
        trade("tr-1", "ZZPRICED"),
        trade("tr-2", "ZZPLAIN"),
      ),
    );
    const idOf = async (name: string) => (await categoryNamed(familyId, name))!.id;
    const child = await idOf("Child");
    const usedTag = (await tagNamed(familyId, "Used tag"))!;
    const usedMerchant = (await merchantNamed(familyId, "Used merchant"))!;
    await family.call("transactions.create", {
      transaction: {
        account_id: mine.id,
        date: "2024-03-10",
        amount: "20",
        name: "Own",
        nature: "expense",
        category_id: child,
        merchant_id: usedMerchant.id,
        tag_ids: [usedTag.id],
      },
    });
    await family.call("rules.create", {
      rule: {
        name: "Own rule",
        active: false,
        conditions: [{ condition_type: "transaction_category", operator: "=", value: await idOf("Ruled") }],
        actions: [{ action_type: "exclude_transaction" }],
      },
    });
    // The family's own budget: a line for every category (zero lines use nothing), one set by hand.
    const { body: budget } = await family.call("budgets.create", { budget: { start_date: `${todayIso().slice(0, 8)}01` } });
    await family.call("budgetCategories.list", { budget_id: budget.id, per_page: 100 });
    const set = await finance.db.budgetCategory.updateMany({
      where: { budgetId: budget.id, categoryId: await idOf("Budgeted") },
      data: { budgetedSpendingCents: 5_000n },
    });
    expect(set.count).toBe(1);
    const priced = (await securityNamed(familyId, "ZZPRICED"))!;
    await finance.db.securityPrice.create({ data: { familyId, securityId: priced.id, date: new Date("2024-03-08"), price: "101", currency: "USD" } });

    await reverted(family, detail.id);
    for (const name of ["Parent", "Child", "Budgeted", "Ruled"]) expect(await categoryNamed(familyId, name), name).toMatchObject({ importId: null });
    expect((await categoryNamed(familyId, "Child"))?.parentId).toBe(await idOf("Parent"));
    expect(await categoryNamed(familyId, "Unused")).toBeNull();
    expect(await tagNamed(familyId, "Used tag")).toMatchObject({ importId: null });
    expect(await tagNamed(familyId, "Unused tag")).toBeNull();
    expect(await merchantNamed(familyId, "Used merchant")).toMatchObject({ importId: null });
    expect(await merchantNamed(familyId, "Unused merchant")).toBeNull();
    expect(await securityNamed(familyId, "ZZPRICED")).toEqual({ id: priced.id, import_id: null });
    expect(await securityNamed(familyId, "ZZPLAIN")).toBeNull();
    const own = await finance.db.entry.findFirstOrThrow({ where: { familyId, name: "Own" }, include: { tags: true } });
    expect(own).toMatchObject({ categoryId: child, merchantId: usedMerchant.id });
    expect(own.tags.map((tag) => tag.tagId)).toEqual([usedTag.id]);
    expect(await finance.db.budgetCategory.count({ where: { budgetId: budget.id, categoryId: await idOf("Budgeted") } })).toBe(1);
  });

  it("removes only its own family's records: another family's import of the same file keeps its own", async () => {
    const one = newFamily();
    const other = newFamily();
    const content = ndjson({ type: "Category", data: { id: "c-1", name: "Shared name" } }, { type: "Tag", data: { id: "t-1", name: "Shared tag" } });
    const first = await published(one, "SureImport", content);
    await published(other, "SureImport", content);
    await reverted(one, first.id);
    expect(await categoryNamed(one.familyId, "Shared name")).toBeNull();
    expect(await categoryNamed(other.familyId, "Shared name")).not.toBeNull();
    expect(await tagNamed(other.familyId, "Shared tag")).not.toBeNull();
  });
});

describe("CSV import revert", () => {
  it("TransactionImport: removes the category and tag it made by name, keeps the category the family had", async () => {
    const family = newFamily();
    const { familyId } = family;
    const account = await family.call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2024-01-01" },
    });
    const rent = await family.call("categories.create", { category: { name: "Rent" } });
    const before = await countsOf(familyId);
    const csv = ["date,amount,name,category,tags", "2024-01-05,-50,Bookshop,Books,Gifts", "2024-01-06,-900,Landlord,Rent,"].join("\n");
    const detail = await published(family, "TransactionImport", csv, { account_id: account.id, date_format: "%Y-%m-%d" });
    expect(detail.result).toEqual({ transactions: 2, skipped_duplicates: 0, claimed_duplicates: 0 });
    expect(await categoryNamed(familyId, "Books")).toMatchObject({ importId: detail.id });
    expect(await tagNamed(familyId, "Gifts")).toMatchObject({ importId: detail.id });
    expect(await categoryNamed(familyId, "Rent")).toMatchObject({ id: rent.id, importId: null });

    await reverted(family, detail.id);
    expect(await countsOf(familyId)).toEqual(before);
    expect(await categoryNamed(familyId, "Books")).toBeNull();
    expect(await tagNamed(familyId, "Gifts")).toBeNull();
    expect(await categoryNamed(familyId, "Rent")).toMatchObject({ id: rent.id });
  });

  it("a category assigned by a request running at the same time as the revert stays, and so does the assignment", async () => {
    const family = newFamily();
    const { familyId } = family;
    const account = await family.call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2024-01-01" },
    });
    // transactions.create answers { status, body } (201, or 200 for a replay).
    const mine = (
      await family.call("transactions.create", { transaction: { account_id: account.id, date: "2024-01-07", amount: "5", name: "Mine", nature: "expense" } })
    ).body;
    const csv = ["date,amount,name,category", "2024-01-05,-50,Bookshop,Books"].join("\n");
    const detail = await published(family, "TransactionImport", csv, { account_id: account.id, date_format: "%Y-%m-%d" });
    const books = (await categoryNamed(familyId, "Books"))!;

    // The person's assignment is written, not yet committed, when the revert starts.
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const assignmentWritten = new Promise<void>((resolve) => (written = resolve));
    const assignment = finance.db.$transaction(
      async (tx) => {
        expect(await tx.$executeRaw`UPDATE entries SET category_id = ${books.id}::uuid WHERE id = ${mine.id}::uuid`).toBe(1);
        written();
        await committing;
      },
      { timeout: 30_000 },
    );
    await assignmentWritten;
    const revert = reverted(family, detail.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await assignment;
    await revert;

    expect(await categoryNamed(familyId, "Books")).toMatchObject({ id: books.id, importId: null });
    expect((await finance.db.entry.findUniqueOrThrow({ where: { id: mine.id } })).categoryId).toBe(books.id);
  });

  it("keeps a rule and a budget a person changed after the import (recurring transactions go by the same rule); removes the ones left as the import made them", async () => {
    const family = newFamily();
    const { familyId } = family;
    const detail = await published(
      family,
      "SureImport",
      ndjson(
        { type: "Category", data: { id: "c-1", name: "Food" } },
        { type: "Budget", data: { id: "b-1", start_date: "2024-03-01", end_date: "2024-03-31", budgeted_spending: "500" } },
        { type: "Budget", data: { id: "b-2", start_date: "2024-04-01", end_date: "2024-04-30", budgeted_spending: "400" } },
        {
          type: "Rule",
          data: {
            id: "r-1",
            name: "Edited",
            resource_type: "transaction",
            active: true,
            conditions: [{ condition_type: "transaction_name", operator: "like", value: "x" }],
            actions: [{ action_type: "exclude_transaction" }],
          },
        },
        {
          type: "Rule",
          data: {
            id: "r-2",
            name: "Untouched",
            resource_type: "transaction",
            active: true,
            conditions: [{ condition_type: "transaction_name", operator: "like", value: "y" }],
            actions: [{ action_type: "exclude_transaction" }],
          },
        },
      ),
    );
    const rules = await finance.db.rule.findMany({ where: { familyId }, orderBy: { name: "asc" } });
    expect(rules.map((rule) => [rule.name, rule.importId])).toEqual([
      ["Edited", detail.id],
      ["Untouched", detail.id],
    ]);
    await family.call("rules.update", { id: rules[0]!.id, rule: { name: "Edited by me" } });
    const budgets = await finance.db.budget.findMany({ where: { familyId }, orderBy: { startDate: "asc" } });
    expect(budgets).toHaveLength(2);
    // A budget's lines are made when it is first read.
    await family.call("budgets.get", { id: budgets[0]!.id });
    const march = await finance.db.budgetCategory.findFirstOrThrow({ where: { budgetId: budgets[0]!.id } });
    await family.call("budgetCategories.update", { id: march.id, budget_category: { budgeted_spending: "120" } });

    await reverted(family, detail.id);
    expect((await finance.db.rule.findMany({ where: { familyId } })).map((rule) => [rule.name, rule.importId])).toEqual([["Edited by me", null]]);
    const kept = await finance.db.budget.findMany({ where: { familyId } });
    expect(kept.map((budget) => [budget.id, budget.importId])).toEqual([[budgets[0]!.id, null]]);
    expect((await finance.db.budgetCategory.findUniqueOrThrow({ where: { id: march.id } })).budgetedSpendingCents).toBe(12_000n);
  });

  it("a family-wide filtered list counted before the revert does not keep the reverted rows' total when the accounts went with them (no sync moves the ledger version then)", async () => {
    const family = newFamily();
    const listed = async () => (await family.call("transactions.list", { start_date: "2024-03-01" })).pagination.total_count as number;
    expect(await listed()).toBe(0);
    const content = ndjson(
      checking,
      { type: "Transaction", data: { id: "x-1", account_id: "a-1", date: "2024-03-05", amount: "12.50", name: "Soap" } },
      { type: "Transaction", data: { id: "x-2", account_id: "a-1", date: "2024-03-06", amount: "30", name: "Food" } },
    );
    const detail = await published(family, "SureImport", content);
    await settled(finance);
    expect(await listed()).toBe(2);
    await reverted(family, detail.id);
    expect(await listed()).toBe(0);
  });

  it("TradeImport: removes the security it made, keeps the one the family had", async () => {
    const family = newFamily();
    const { familyId } = family;
    const account = await family.call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "100000", opening_balance_date: "2026-01-01" },
    });
    await family.call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-02", qty: 1, price: "100", ticker: "OWNED" } });
    const before = await countsOf(familyId);
    const csv = ["date,ticker,qty,price,currency", "2026-03-02,OWNED,1,110.00,USD", "2026-03-03,FRESH,2,50.00,USD"].join("\n");
    const detail = await published(family, "TradeImport", csv, { account_id: account.id, date_format: "%Y-%m-%d" });
    expect(detail.result).toMatchObject({ trades: 2, securities_created: 1 });
    expect((await securityNamed(familyId, "FRESH"))?.import_id).toBe(detail.id);
    expect((await securityNamed(familyId, "OWNED"))?.import_id).toBeNull();
    await settled(finance);

    await reverted(family, detail.id);
    expect(await securityNamed(familyId, "FRESH")).toBeNull();
    expect(await securityNamed(familyId, "OWNED")).not.toBeNull();
    // Holdings are the syncs' computations: the queued ones bring them back to what the family's own trade holds.
    await settled(finance);
    expect({ ...(await countsOf(familyId)), holdings: 0 }).toEqual({ ...before, holdings: 0 });
  });
});
