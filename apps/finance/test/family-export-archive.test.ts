// The family export's archive writer against real rows: Sure's export version 2 (its
// Family::DataExporter and data_exporter_test.rb), written as a stream from COPY.
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { Writable } from "node:stream";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@hearth/contracts";
import { csvText } from "../src/family-exports/csv-cell";
import { writeFamilyExport, type FamilyExportOptions } from "../src/family-exports/export-archive";
import { csvTextSql } from "../src/family-exports/export-format-sql";
import { Prisma } from "../src/generated/prisma/client";
import { allHoldings, contextOf, financeAs, newActor, readZip, settled, startFinance, type RunningFinance } from "./support";

const DIR = "/tmp/export-writer/archives";
const SURE_FILES = [
  "version.txt",
  "accounts.csv",
  "transactions.csv",
  "trades.csv",
  "categories.csv",
  "merchants.csv",
  "rules.csv",
  "attachments.json",
  "all.ndjson",
];
const SURE_RECORD_ORDER = [
  "Account",
  "Balance",
  "Category",
  "Tag",
  "Merchant",
  "RecurringTransaction",
  "Transaction",
  "Transfer",
  "RejectedTransfer",
  "Trade",
  "Holding",
  "Valuation",
  "Budget",
  "BudgetCategory",
  "Rule",
];

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance({ ledgerImport: true });
  await mkdir(DIR, { recursive: true });
});
afterAll(async () => {
  await finance?.stop();
  await rm(DIR, { recursive: true, force: true });
});

type Call = ReturnType<typeof financeAs>;
/** Creates answer `{ status, body }` where a replay may answer 200; the others the record itself. */
const bodyOf = (answer: any) => (answer && typeof answer === "object" && "body" in answer && "status" in answer ? answer.body : answer);

/** Writes the family's export to a file and reads every entry back (names in archive order, texts by name). */
async function exportOf(familyId: string, opts: FamilyExportOptions = {}) {
  const path = `${DIR}/${randomUUID()}.zip`;
  const result = await writeFamilyExport(finance.db, familyId, createWriteStream(path), opts);
  return { result, ...(await readZip(path)) };
}

const csvRows = (text: string): string[][] => parse(text, { relax_column_count: false });
const records = (ndjson: string) => ndjson.split("\n").map((line) => JSON.parse(line) as { type: string; version?: number; data: Record<string, any> });

/** A family with a bit of everything, names chosen to need quoting and escaping. */
async function seedFamily(actor: Actor) {
  const call: Call = financeAs(finance, actor);
  const checking = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2026-01-01" },
  });
  const savings = await call("accounts.create", {
    account: { name: 'Joint, "Rainy Day" Savings', account_type: "depository", subtype: "savings", opening_balance_date: "2026-01-01" },
  });
  const yen = await call("accounts.create", {
    account: { name: "Tokyo", account_type: "depository", currency: "JPY", balance: "50000", opening_balance_date: "2026-01-01" },
  });
  const brokerage = await call("accounts.create", {
    account: { name: "Brokerage", account_type: "investment", balance: "10000", opening_balance_date: "2026-01-01" },
  });
  const food = await call("categories.create", { category: { name: "Food & Fun", color: "#ff0000", icon: "utensils" } });
  const restaurants = await call("categories.create", { category: { name: "Restaurants, Bars", color: "#00ff00", icon: "wine", parent_id: food.id } });
  const trip = await call("tags.create", { tag: { name: "Trip", color: "#0000ff" } });
  const work = await call("tags.create", { tag: { name: "Work, Travel|Biz", color: "#00ffff" } });
  const merchant = await call("merchants.create", { merchant: { name: "Chez Nous", color: "#123456" } });
  const transaction = async (fields: Record<string, unknown>) =>
    bodyOf(await call("transactions.create", { transaction: { account_id: checking.id, date: "2026-03-05", ...fields } }));
  const dinner = await transaction({
    name: 'Dinner, "Chez Nous"\nTable 4',
    amount: "42.50",
    category_id: restaurants.id,
    merchant_id: merchant.id,
    tag_ids: [work.id, trip.id],
    notes: "Anniversary",
  });
  const salary = await transaction({ name: "Salary", amount: "-1200", date: "2026-03-06", notes: "=2+3" });
  const sushi = await transaction({ name: "Sushi", amount: "1500", account_id: yen.id, date: "2026-03-07" });
  await call("transfers.create", {
    transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "100", date: "2026-03-08", notes: "Monthly" },
  });
  const trade = bodyOf(
    await call("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-03-02", qty: 10, price: "100", fee: "5", ticker: "AAPL" } }),
  );
  const rule = (
    await call("rules.create", {
      rule: {
        name: "Dining",
        active: true,
        conditions: [
          { condition_type: "transaction_name", operator: "like", value: "Chez" },
          {
            condition_type: "compound",
            operator: "or",
            sub_conditions: [
              { condition_type: "transaction_merchant", operator: "=", value: merchant.id },
              { condition_type: "transaction_amount", operator: ">", value: "40" },
            ],
          },
        ],
        actions: [
          { action_type: "set_transaction_category", value: restaurants.id },
          { action_type: "set_transaction_tags", value: trip.id },
        ],
      },
    })
  ).data;
  const budget = bodyOf(await call("budgets.create", { budget: { start_date: "2026-03-01" } }));
  await call("budgets.update", { id: budget.id, budget: { budgeted_spending: "500", expected_income: "2000.5" } });
  await call("syncs.create", {});
  await settled(finance);
  return { call, checking, savings, yen, brokerage, food, restaurants, trip, work, merchant, dinner, salary, sushi, trade, rule, budget };
}

/** Another family, whose every name carries "Other family" and which must never show up. */
async function seedOtherFamily(actor: Actor) {
  const call: Call = financeAs(finance, actor);
  const account = await call("accounts.create", { account: { name: "Other family checking", account_type: "depository", balance: "5000" } });
  const category = await call("categories.create", { category: { name: "Other family category" } });
  const tag = await call("tags.create", { tag: { name: "Other family tag" } });
  const merchant = await call("merchants.create", { merchant: { name: "Other family merchant" } });
  await call("transactions.create", {
    transaction: { account_id: account.id, date: "2026-03-05", name: "Other family purchase", amount: "9.99", category_id: category.id, tag_ids: [tag.id] },
  });
  await call("rules.create", {
    rule: {
      name: "Other family rule",
      conditions: [{ condition_type: "transaction_name", operator: "like", value: "x" }],
      actions: [{ action_type: "exclude_transaction" }],
    },
  });
  return { account, category, tag, merchant };
}

describe("writeFamilyExport: Sure's export version 2", () => {
  let mine: Awaited<ReturnType<typeof seedFamily>>;
  let theirs: Awaited<ReturnType<typeof seedOtherFamily>>;
  let actor: Actor;
  let other: Actor;
  let archive: Awaited<ReturnType<typeof exportOf>>;

  beforeAll(async () => {
    actor = newActor();
    other = newActor();
    theirs = await seedOtherFamily(other);
    mine = await seedFamily(actor);
    archive = await exportOf(actor.familyId);
  }, 120_000);

  it("has Sure's files in Sure's order, the version marker and an empty attachment manifest", () => {
    expect(archive.names).toEqual(SURE_FILES);
    expect(archive.files["version.txt"]).toBe("export_version: 2\n");
    expect(JSON.parse(archive.files["attachments.json"]!)).toEqual({ version: 1, binary_included: false, attachments: [] });
  });

  it("writes each CSV with Sure's exact header line", () => {
    const header = (name: string) => archive.files[name]!.split("\n")[0];
    expect(header("accounts.csv")).toBe("id,name,type,subtype,balance,currency,created_at");
    expect(header("transactions.csv")).toBe("date,account_name,amount,name,category,tags,notes,currency");
    expect(header("trades.csv")).toBe("date,account_name,ticker,quantity,price,amount,currency");
    expect(header("categories.csv")).toBe("name,color,parent_category,lucide_icon");
    expect(header("merchants.csv")).toBe("name,color,website_url");
    expect(header("rules.csv")).toBe("name,resource_type,active,effective_date,conditions,actions");
    for (const name of SURE_FILES.filter((file) => file.endsWith(".csv"))) expect(archive.files[name]!.endsWith("\n")).toBe(true);
  });

  it("accounts.csv: Sure's accountable type, the balance as a plain decimal in the account's minor unit, created_at in whole seconds", async () => {
    const rows = csvRows(archive.files["accounts.csv"]!);
    const stored = await finance.db.account.findUniqueOrThrow({ where: { id: mine.checking.id } });
    const byName = new Map(rows.slice(1).map((row) => [row[1], row]));
    expect(rows).toHaveLength(5);
    // Opening 1000, dinner 42.50 out, salary 1200 in, 100 to savings.
    expect(byName.get("Checking")).toEqual([
      mine.checking.id,
      "Checking",
      "Depository",
      "",
      "2057.5",
      "USD",
      `${stored.createdAt.toISOString().slice(0, 19)}Z`,
    ]);
    expect(byName.get('Joint, "Rainy Day" Savings')).toMatchObject({ 2: "Depository", 3: "savings", 4: "100.0", 5: "USD" });
    expect(byName.get("Tokyo")).toMatchObject({ 2: "Depository", 4: "48500.0", 5: "JPY" });
    expect(byName.get("Brokerage")).toMatchObject({ 2: "Investment" });
    // The name with a comma and quotes, quoted with its quotes doubled.
    expect(archive.files["accounts.csv"]).toContain(`,"Joint, ""Rainy Day"" Savings",Depository,savings,100.0,USD,`);
  });

  it("transactions.csv: date order, signed plain amounts, category and comma-joined escaped tag names, a name with a newline quoted", () => {
    const text = archive.files["transactions.csv"]!;
    const rows = csvRows(text).slice(1);
    expect(rows.slice(0, 3)).toEqual([
      ["2026-03-05", "Checking", "42.5", 'Dinner, "Chez Nous"\nTable 4', "Restaurants, Bars", "Trip,Work\\, Travel\\|Biz", "Anniversary", "USD"],
      // A note starting with = is guarded with a leading ' (unlike Sure); the negative amount is not.
      ["2026-03-06", "Checking", "-1200.0", "Salary", "", "", "'=2+3", "USD"],
      ["2026-03-07", "Tokyo", "1500.0", "Sushi", "", "", "", "JPY"],
    ]);
    // The transfer's two sides, on one day (their order is their ids').
    expect(
      rows
        .slice(3)
        .map((row) => [row[0], row[1], row[2]])
        .sort(),
    ).toEqual([
      ["2026-03-08", "Checking", "100.0"],
      ["2026-03-08", 'Joint, "Rainy Day" Savings', "-100.0"],
    ]);
    expect(text).toContain(`2026-03-05,Checking,42.5,"Dinner, ""Chez Nous""\nTable 4","Restaurants, Bars","Trip,Work\\, Travel\\|Biz",Anniversary,USD\n`);
    // Ruby's CSV writes an empty tag list as "" and a missing category or note as nothing.
    expect(text).toContain(`2026-03-06,Checking,-1200.0,Salary,,"",'=2+3,USD\n`);
  });

  it("trades.csv: quantity and price as BigDecimal prints them, the amount with the fee", () => {
    expect(csvRows(archive.files["trades.csv"]!).slice(1)).toEqual([["2026-03-02", "Brokerage", "AAPL", "10.0", "100.0", "1005.0", "USD"]]);
  });

  it("categories.csv, merchants.csv: by name, the parent by name, the icon as lucide_icon, the website (none here)", () => {
    const categories = csvRows(archive.files["categories.csv"]!).slice(1);
    expect(categories).toContainEqual(["Food & Fun", "#ff0000", "", "utensils"]);
    expect(categories).toContainEqual(["Restaurants, Bars", "#00ff00", "Food & Fun", "wine"]);
    expect(categories.map((row) => row[0])).toEqual(categories.map((row) => row[0]).sort());
    expect(csvRows(archive.files["merchants.csv"]!).slice(1)).toEqual([["Chez Nous", "#123456", ""]]);
  });

  it("rules.csv: conditions and actions as JSON, ids of categories, merchants and tags written by name with a value_ref", () => {
    const rows = csvRows(archive.files["rules.csv"]!).slice(1);
    expect(rows).toHaveLength(1);
    const [name, resourceType, active, effectiveDate, conditions, actions] = rows[0]!;
    expect([name, resourceType, active, effectiveDate]).toEqual(["Dining", "transaction", "true", ""]);
    expect(JSON.parse(conditions!)).toEqual([
      { condition_type: "transaction_name", operator: "like", value: "Chez" },
      {
        condition_type: "compound",
        operator: "or",
        value: null,
        sub_conditions: [
          {
            condition_type: "transaction_merchant",
            operator: "=",
            value: "Chez Nous",
            value_ref: { type: "Merchant", id: mine.merchant.id, name: "Chez Nous" },
          },
          { condition_type: "transaction_amount", operator: ">", value: "40" },
        ],
      },
    ]);
    expect(JSON.parse(actions!)).toEqual([
      {
        action_type: "set_transaction_category",
        value: "Restaurants, Bars",
        value_ref: { type: "Category", id: mine.restaurants.id, name: "Restaurants, Bars" },
      },
      { action_type: "set_transaction_tags", value: "Trip", value_ref: { type: "Tag", id: mine.trip.id, name: "Trip" } },
    ]);
  });

  it("all.ndjson: one JSON record a line in Sure's type order, no newline after the last, & < > escaped as Rails does", () => {
    const text = archive.files["all.ndjson"]!;
    expect(text.endsWith("\n")).toBe(false);
    expect(text).toContain('"name":"Food \\u0026 Fun"');
    const all = records(text);
    const order = all.map((record) => SURE_RECORD_ORDER.indexOf(record.type));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const type of [
      "Account",
      "Balance",
      "Category",
      "Tag",
      "Merchant",
      "Transaction",
      "Transfer",
      "Trade",
      "Holding",
      "Valuation",
      "Budget",
      "BudgetCategory",
      "Rule",
    ]) {
      expect(all.some((record) => record.type === type)).toBe(true);
    }
    for (const record of all) expect(Object.keys(record)).toEqual(record.type === "Rule" ? ["type", "version", "data"] : ["type", "data"]);
  });

  it("all.ndjson records carry Sure's fields: decimals as strings, ids that refer to each other", async () => {
    const all = records(archive.files["all.ndjson"]!);
    const ofType = (type: string) => all.filter((record) => record.type === type).map((record) => record.data);
    const account = ofType("Account").find((data) => data.id === mine.savings.id)!;
    expect(account).toMatchObject({
      subtype: "savings",
      family_id: actor.familyId,
      name: 'Joint, "Rainy Day" Savings',
      accountable_type: "Depository",
      balance: "100.0",
      cash_balance: "100.0",
      currency: "USD",
      classification: "asset",
      status: "active",
      accountable: { subtype: "savings" },
    });
    expect(account.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const dinner = ofType("Transaction").find((data) => data.id === mine.dinner.id)!;
    expect(dinner).toEqual({
      id: mine.dinner.id,
      entry_id: mine.dinner.id,
      account_id: mine.checking.id,
      date: "2026-03-05",
      amount: "42.5",
      currency: "USD",
      name: 'Dinner, "Chez Nous"\nTable 4',
      notes: "Anniversary",
      excluded: false,
      category_id: mine.restaurants.id,
      merchant_id: mine.merchant.id,
      tag_ids: [mine.trip.id, mine.work.id],
      kind: "standard",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const transactionIds = new Set(ofType("Transaction").map((data) => data.id));
    const [transfer] = ofType("Transfer");
    expect(transfer).toMatchObject({ status: "confirmed", notes: "Monthly" });
    expect(transactionIds.has(transfer!.inflow_transaction_id)).toBe(true);
    expect(transactionIds.has(transfer!.outflow_transaction_id)).toBe(true);

    expect(ofType("Trade")).toEqual([
      expect.objectContaining({
        id: mine.trade.id,
        entry_id: mine.trade.id,
        account_id: mine.brokerage.id,
        ticker: "AAPL",
        qty: "10.0",
        price: "100.0",
        amount: "1005.0",
        currency: "USD",
        date: "2026-03-02",
      }),
    ]);
    const holding = ofType("Holding").find((data) => data.date === "2026-03-02")!;
    expect(holding).toMatchObject({ account_id: mine.brokerage.id, ticker: "AAPL", qty: "10.0", kind: "standard", currency: "USD", cost_basis: "100.0" });
    // Every exported holding is the one the API lists: same id, day and figures (both price spans' days the same way).
    const { rows: listed } = await allHoldings(mine.call, { account_id: mine.brokerage.id });
    expect(ofType("Holding").length).toBe(listed.length);
    const exported = new Map(ofType("Holding").map((data) => [data.id, data]));
    for (const row of listed) {
      expect(exported.get(row.id), row.date).toMatchObject({ date: row.date, qty: row.qty, amount: (row.amount_cents / 100).toFixed(2).replace(/0$/, "") });
    }
    expect(ofType("Valuation").filter((data) => data.kind === "opening_anchor")).toHaveLength(4);
    expect(ofType("Valuation").find((data) => data.account_id === mine.yen.id)).toMatchObject({ date: "2026-01-01", amount: "50000.0", currency: "JPY" });

    const balances = ofType("Balance");
    expect(balances.map((data) => data.date)).toEqual(balances.map((data) => data.date).sort());
    const checkingDay = balances.find((data) => data.account_id === mine.checking.id && data.date === "2026-03-05")!;
    expect(checkingDay).toMatchObject({
      currency: "USD",
      start_balance: "1000.0",
      end_balance: "957.5",
      balance: "957.5",
      cash_balance: "957.5",
      flows_factor: 1,
    });

    const categories = ofType("Category");
    expect(categories.find((data) => data.id === mine.restaurants.id)).toMatchObject({
      name: "Restaurants, Bars",
      parent_id: mine.food.id,
      classification_unused: "expense",
      lucide_icon: "wine",
      color: "#00ff00",
    });
    expect(ofType("Tag").map((data) => data.name)).toEqual(["Trip", "Work, Travel|Biz"]);
    expect(ofType("Merchant")).toEqual([expect.objectContaining({ id: mine.merchant.id, name: "Chez Nous", type: "FamilyMerchant" })]);
    expect(ofType("Budget")).toEqual([
      expect.objectContaining({
        id: mine.budget.id,
        start_date: "2026-03-01",
        end_date: "2026-03-31",
        budgeted_spending: "500.0",
        expected_income: "2000.5",
        currency: "USD",
      }),
    ]);
    const budgetCategories = ofType("BudgetCategory");
    expect(budgetCategories.length).toBeGreaterThan(0);
    expect(budgetCategories.every((data) => data.budget_id === mine.budget.id && categories.some((category) => category.id === data.category_id))).toBe(true);

    const rule = all.find((record) => record.type === "Rule")!;
    expect(rule.version).toBe(1);
    expect(rule.data).toMatchObject({ id: mine.rule.id, name: "Dining", resource_type: "transaction", active: true, effective_date: null });
    expect(rule.data.conditions[1].sub_conditions).toHaveLength(2);
  });

  it("counts the rows it wrote, per file and per record type", () => {
    expect(archive.result.rows).toMatchObject({
      "accounts.csv": 4,
      "transactions.csv": 5,
      "trades.csv": 1,
      "merchants.csv": 1,
      "rules.csv": 1,
      "all.ndjson:Transaction": 5,
      "all.ndjson:Transfer": 1,
      "all.ndjson:Rule": 1,
    });
    expect(archive.result.bytes).toBeGreaterThan(0);
  });

  it("carries nothing of another family", async () => {
    const everything = Object.values(archive.files).join("\n");
    expect(everything).not.toContain("Other family");
    for (const id of [other.familyId, theirs.account.id, theirs.category.id, theirs.tag.id, theirs.merchant.id]) expect(everything).not.toContain(id);
    // And the other family's export is its own.
    const theirExport = await exportOf(other.familyId);
    expect(csvRows(theirExport.files["transactions.csv"]!).slice(1)).toEqual([
      ["2026-03-05", "Other family checking", "9.99", "Other family purchase", "Other family category", "Other family tag", "", "USD"],
    ]);
    expect(Object.values(theirExport.files).join("\n")).not.toContain(mine.checking.id);
  });

  it("leaves out an account being deleted, with everything in it", async () => {
    const { call, checking } = await seedSmallFamily();
    const doomed = await call("accounts.create", { account: { name: "Doomed", account_type: "depository", balance: "1" } });
    await call("transactions.create", { transaction: { account_id: doomed.id, date: "2026-03-05", name: "Doomed purchase", amount: "1" } });
    await finance.db.account.update({ where: { id: doomed.id }, data: { status: "pending_deletion" } });
    const { files } = await exportOf(checking.familyId);
    expect(Object.values(files).join("\n")).not.toContain("Doomed");
    expect(files["accounts.csv"]).toContain("Small checking");
  });

  it("rejects, destroying its output, when a query fails or the output fails", async () => {
    const out = createWriteStream(`${DIR}/bad-family.zip`);
    await expect(writeFamilyExport(finance.db, "not-a-uuid", out)).rejects.toThrow();
    expect(out.destroyed).toBe(true);

    let taken = 0;
    const failing = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        taken += chunk.length;
        callback(taken > 200 ? new Error("disk full") : null);
      },
    });
    await expect(writeFamilyExport(finance.db, actor.familyId, failing)).rejects.toThrow("disk full");
    expect(failing.destroyed).toBe(true);
    await expect(writeFamilyExport(finance.db, actor.familyId, createWriteStream(`${DIR}/x.zip`), { batchSize: 0 })).rejects.toThrow(RangeError);
  });

  async function seedSmallFamily() {
    const small = newActor();
    const call = financeAs(finance, small);
    const checking = await call("accounts.create", { account: { name: "Small checking", account_type: "depository", balance: "10" } });
    return { call, checking: { ...checking, familyId: small.familyId } };
  }
});

describe("writeFamilyExport: holdings priced in a currency without a rate", () => {
  it("still exports them (was a failed export: the price is left out, the day keeps the trade's price)", async () => {
    const actor = newActor();
    const call: Call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2026-01-01" },
    });
    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-03-02", qty: "10", price: "100", ticker: "EURO" } });
    await settled(finance);
    // No EUR rate: the resync this price queues fails on it, and the export must still come out.
    await call("securityPrices.record", { security_price: { ticker: "EURO", date: "2026-03-05", price: "90", currency: "EUR" } });
    await settled(finance);
    const exported = await exportOf(actor.familyId);
    const holdings = records(exported.files["all.ndjson"]!)
      .filter((record) => record.type === "Holding")
      .map((record) => record.data);
    expect(holdings.length).toBeGreaterThan(200);
    expect(holdings.find((data) => data.date === "2026-03-06")).toMatchObject({ price: "100.0", amount: "1000.0" });
  });
});

describe("writeFamilyExport: formula-injection guard on the CSVs' text cells", () => {
  let archive: Awaited<ReturnType<typeof exportOf>>;

  beforeAll(async () => {
    const actor = newActor();
    const call: Call = financeAs(finance, actor);
    const checking = await call("accounts.create", { account: { name: "Guarded checking", account_type: "depository", balance: "100" } });
    // An other asset: Sure lists no subtypes for it, so any is taken (a depository's must be one of Sure's).
    await call("accounts.create", { account: { name: "=Cash", account_type: "other_asset", subtype: "-savings", balance: "-5" } });
    const refunds = await call("categories.create", { category: { name: "-Refunds", color: "#ff0000", icon: "undo" } });
    await call("merchants.create", { merchant: { name: "+1", color: "#123456" } });
    const tag = await call("tags.create", { tag: { name: "@home" } });
    const transaction = async (fields: Record<string, unknown>) =>
      call("transactions.create", { transaction: { account_id: checking.id, date: "2026-03-05", ...fields } });
    await transaction({ name: '=HYPERLINK("x")', amount: "-12.50", category_id: refunds.id, tag_ids: [tag.id], notes: "@cmd" });
    await transaction({ name: "Coffee", amount: "3.25", date: "2026-03-06", notes: "Plain" });
    await call("rules.create", {
      rule: {
        name: "=Rule",
        conditions: [{ condition_type: "transaction_name", operator: "like", value: "-x" }],
        actions: [{ action_type: "exclude_transaction" }],
      },
    });
    archive = await exportOf(actor.familyId);
  }, 60_000);

  it("transactions.csv: names, category, tags and notes starting with = + - @ get a leading ', the negative amount stays a number", () => {
    const text = archive.files["transactions.csv"]!;
    expect(csvRows(text).slice(1)).toEqual([
      ["2026-03-05", "Guarded checking", "-12.5", `'=HYPERLINK("x")`, "'-Refunds", "'@home", "'@cmd", "USD"],
      ["2026-03-06", "Guarded checking", "3.25", "Coffee", "", "", "Plain", "USD"],
    ]);
    expect(text).toContain(`2026-03-05,Guarded checking,-12.5,"'=HYPERLINK(""x"")",'-Refunds,'@home,'@cmd,USD\n`);
    // Ordinary text is written exactly as before.
    expect(text).toContain(`2026-03-06,Guarded checking,3.25,Coffee,,"",Plain,USD\n`);
  });

  it("accounts.csv, categories.csv, merchants.csv, rules.csv: their text cells guarded, balances and JSON cells not", () => {
    const accounts = csvRows(archive.files["accounts.csv"]!).slice(1);
    expect(accounts.find((row) => row[1] === "'=Cash")).toMatchObject({ 2: "OtherAsset", 3: "'-savings", 4: "-5.0", 5: "USD" });
    expect(accounts.find((row) => row[1] === "Guarded checking")).toMatchObject({ 3: "" });
    const categories = csvRows(archive.files["categories.csv"]!).slice(1);
    expect(categories).toContainEqual(["'-Refunds", "#ff0000", "", "undo"]);
    expect(categories.filter((row) => row[0]!.startsWith("'"))).toHaveLength(1);
    expect(csvRows(archive.files["merchants.csv"]!).slice(1)).toEqual([["'+1", "#123456", ""]]);
    const [rule] = csvRows(archive.files["rules.csv"]!).slice(1);
    expect(rule!.slice(0, 4)).toEqual(["'=Rule", "transaction", "true", ""]);
    expect(JSON.parse(rule![4]!)).toEqual([{ condition_type: "transaction_name", operator: "like", value: "-x" }]);
  });

  it("leaves all.ndjson's values as they are (machine data, read back by importers)", () => {
    const all = records(archive.files["all.ndjson"]!);
    expect(all.find((record) => record.type === "Transaction" && record.data.notes === "@cmd")?.data).toMatchObject({
      name: '=HYPERLINK("x")',
      amount: "-12.5",
    });
    expect(all.some((record) => record.type === "Category" && record.data.name === "-Refunds")).toBe(true);
    expect(all.find((record) => record.type === "Merchant")?.data.name).toBe("+1");
  });

  it("csvTextSql guards exactly as csvText does", async () => {
    const samples = [
      "=1+1",
      "+1",
      "-1",
      "@SUM(1)",
      "\tx",
      "\rx",
      "'=x",
      "'x",
      " =x",
      "\n  +x",
      "\uFF1D1",
      "\uFF20x",
      "x=1",
      "",
      "é",
      "😀",
      "#ff0000",
      "Plain",
      "\u00A0=x",
    ];
    const rows = await finance.db.$queryRaw<{ cell: string | null }[]>(
      Prisma.sql`SELECT ${csvTextSql(Prisma.sql`v.t`)} AS cell FROM unnest(${[...samples, null]}::text[]) WITH ORDINALITY v(t, i) ORDER BY v.i`,
    );
    expect(rows.map((row) => row.cell)).toEqual([...samples, null].map(csvText));
  });
});

describe("writeFamilyExport on a large family: streamed out as it is read", () => {
  const TRANSACTIONS = 20_000;

  it("reads 20,000 transactions a chunk at a time, no faster than the output takes them, one file after the other", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Busy checking", account_type: "depository", balance: "100", opening_balance_date: "2020-01-01" },
    });
    for (let start = 0; start < TRANSACTIONS; start += 500) {
      const entries = Array.from({ length: 500 }, (_, i) => {
        const n = start + i;
        return {
          id: randomUUID(),
          account_id: account.id,
          kind: "transaction",
          transaction_kind: "standard",
          date: new Date(Date.UTC(2021, 0, 1) + (n % 1500) * 86_400_000).toISOString().slice(0, 10),
          name: `Purchase ${n} ${randomUUID().slice(0, 8)}`,
          amount_cents: String((n * 7919) % 100_000),
          currency: "USD",
          category_id: null,
          merchant_id: null,
        };
      });
      await finance.call("ledger.import", "mutation", { entries, entry_tags: [], transfers: [] }, contextOf(actor));
    }

    // An output that stops taking bytes once it has 64 KB, until it is let go.
    let written = 0;
    let held: (() => void) | null = null;
    let letGo = false;
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > 64 * 1024 && !letGo) held = () => callback();
        else callback();
      },
    });
    const reads: { part: string; writtenBefore: number }[] = [];
    const exporting = writeFamilyExport(finance.db, actor.familyId, out, { onRead: (part) => reads.push({ part, writtenBefore: written }) });
    await vi.waitFor(() => expect(held).not.toBeNull(), { timeout: 60_000 });
    // Streaming, not collecting: with the output stopped, the reading stops too once the streams'
    // small buffers are full (collected first, every row would be read all the same). How soon
    // depends on the machine's load: waited for until no read comes for half a second.
    let readWhileHeld = -1;
    await vi.waitFor(
      async () => {
        const before = reads.length;
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(reads.length).toBe(before);
        readWhileHeld = before;
      },
      { timeout: 30_000, interval: 1 },
    );
    letGo = true;
    held!();
    const result = await exporting;

    expect(reads.length).toBeGreaterThan(readWhileHeld + 20);
    expect(result.rows["transactions.csv"]).toBe(TRANSACTIONS);
    expect(result.rows["all.ndjson:Transaction"]).toBe(TRANSACTIONS);
    expect(result.bytes).toBe(written);
    // Files are read one after another, in the archive's order.
    const firstOf = (part: string) => reads.findIndex((read) => read.part === part);
    const lastOf = (part: string) => reads.findLastIndex((read) => read.part === part);
    expect(lastOf("transactions.csv")).toBeLessThan(firstOf("rules.csv"));
    expect(lastOf("rules.csv")).toBeLessThan(firstOf("all.ndjson:Transaction"));
  }, 240_000);
});
