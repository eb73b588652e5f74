import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyUsageSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";
import { expectSureResponse, expectSureSchema } from "../src/sure-openapi";

/**
 * Real answers of the running system, status by status, against the schemas of Sure's public
 * OpenAPI file (a copy in fixtures/). Where the spec (which wins) adds fields Sure's file lacks,
 * they pass as extra properties, since no schema here sets additionalProperties: false:
 * Transaction, Valuation and Transfer (in a transaction) have no `amount_cents` in the file but
 * the spec pairs every money string with `_cents`; TransferDecision has no fee fields.
 */

let system: TestSystem;
let api: ApiClient;
let user: TestUser;

const MISSING_ID = "01900000-0000-7000-8000-000000000000";

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "openapi");
});
afterAll(async () => system?.stop());

/**
 * Sends a request as the user (read_write key), expects `status` and validates the body against
 * what Sure's file documents for `template` (its path template) and that status.
 */
async function call(method: "GET" | "POST" | "PATCH" | "DELETE", url: string, template: string, status: number, body?: unknown): Promise<any> {
  const res = await api.request(method, url, { apiKey: user.writeKey, body });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(status);
  expectSureResponse(method, template, status, res.body);
  return res.body;
}

/** Pins that Sure's file documents no such response, which is why the caller checks otherwise. */
function expectUndocumented(method: string, template: string, status: number): void {
  expect(() => expectSureResponse(method, template, status, {})).toThrow(/documents no/);
}

async function createAccount(name: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(
    "/api/v1/accounts",
    { account: { name, account_type: "depository", balance: "1000", opening_balance_date: "2026-10-01", ...fields } },
    { apiKey: user.writeKey },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // Sure's file has no POST /api/v1/accounts; what it answers is an account, so AccountDetail.
  expectUndocumented("post", "/api/v1/accounts", 201);
  expectSureSchema("AccountDetail", res.body);
  return res.body;
}

async function createTransaction(fields: Record<string, unknown>): Promise<any> {
  return call("POST", "/api/v1/transactions", "/api/v1/transactions", 201, { transaction: fields });
}

describe("the helper", () => {
  it("fails on a body that breaks the schema, naming where, and on a response the file does not document", () => {
    expect(() => expectSureResponse("get", "/api/v1/accounts/{id}", 200, { id: "nope", name: 1 })).toThrow(/\/id must match format "uuid"/);
    expect(() => expectSureResponse("get", "/api/v1/accounts/{id}", 418, {})).toThrow(/documents no 418.*documented: 200, 401, 403, 404/);
    expect(() => expectSureResponse("get", "/api/v1/nowhere", 200, {})).toThrow(/documents no GET \/api\/v1\/nowhere/);
    expect(() => expectSureSchema("Nothing", {})).toThrow(/no component schema Nothing/);
    // OpenAPI 3.0 `nullable` beside a $ref ("this, or null") both ways.
    expectSureResponse("get", "/api/v1/syncs/latest", 200, { data: null });
    expect(() => expectSureResponse("get", "/api/v1/syncs/latest", 200, { data: { id: MISSING_ID } })).toThrow(/\/data must have required property 'status'/);
  });
});

describe("accounts", () => {
  it("POST 201, GET list 200, GET one 200, unknown id 404", async () => {
    const account = await createAccount("Checking");

    const list = await call("GET", "/api/v1/accounts", "/api/v1/accounts", 200);
    expect(list.accounts.map((a: { id: string }) => a.id)).toContain(account.id);

    const one = await call("GET", `/api/v1/accounts/${account.id}`, "/api/v1/accounts/{id}", 200);
    expect(one.id).toBe(account.id);

    const missing = await call("GET", `/api/v1/accounts/${MISSING_ID}`, "/api/v1/accounts/{id}", 404);
    // Sure's accounts controller names it not_found (accounts_controller_test.rb).
    expect(missing).toMatchObject({ error: "not_found", message: "Account not found" });
  });
});

describe("transactions", () => {
  it("POST 201 and replay 200, GET list with filters, GET one, PATCH, DELETE, 404 and 422", async () => {
    const account = await createAccount("Everyday");
    // Nested category, merchant and tags exercise Sure's Category, Merchant and Tag schemas too.
    const categories = await call("GET", "/api/v1/categories", "/api/v1/categories", 200);
    const category = categories.categories[0];
    const merchant = await api.post("/api/v1/merchants", { merchant: { name: "Corner Shop" } }, { apiKey: user.writeKey });
    expect(merchant.status).toBe(201);
    const tag = await call("POST", "/api/v1/tags", "/api/v1/tags", 201, { tag: { name: "Weekly" } });

    const fields = { account_id: account.id, date: "2026-11-02", amount: "12.34", name: "Groceries", external_id: "bank-1", source: "bank" };
    // Sure's file has no cents on a Transaction; its current view (_transaction.json.jbuilder) writes
    // amount_cents as the size and signed_amount_cents as + for income, - for an expense (checked here).
    const created = await createTransaction({ ...fields, notes: "first", category_id: category.id, merchant_id: merchant.body.id, tag_ids: [tag.id] });
    expect(created).toMatchObject({
      amount: "$12.34",
      amount_cents: 1234,
      signed_amount_cents: -1234,
      category: { id: category.id },
      merchant: { id: merchant.body.id },
      tags: [{ id: tag.id }],
    });
    const income = await createTransaction({ account_id: account.id, date: "2026-11-03", amount: "50", nature: "income", name: "Refund" });
    expect(income).toMatchObject({ amount: "-$50.00", amount_cents: 5000, signed_amount_cents: 5000, classification: "income" });
    await call("DELETE", `/api/v1/transactions/${income.id}`, "/api/v1/transactions/{id}", 200);

    // The same external_id + source again: the existing transaction, 200.
    const replay = await call("POST", "/api/v1/transactions", "/api/v1/transactions", 200, { transaction: fields });
    expect(replay.id).toBe(created.id);

    const query = new URLSearchParams({
      account_id: account.id,
      start_date: "2026-11-01",
      end_date: "2026-11-30",
      type: "expense",
      min_amount: "10",
      search: "Groc",
    });
    const list = await call("GET", `/api/v1/transactions?${query}`, "/api/v1/transactions", 200);
    expect(list.transactions.map((t: { id: string }) => t.id)).toEqual([created.id]);

    const one = await call("GET", `/api/v1/transactions/${created.id}`, "/api/v1/transactions/{id}", 200);
    expect(one.id).toBe(created.id);

    const patched = await call("PATCH", `/api/v1/transactions/${created.id}`, "/api/v1/transactions/{id}", 200, {
      transaction: { name: "Big shop", notes: null, category_id: null, merchant_id: null, tag_ids: [] },
    });
    expect(patched).toMatchObject({ name: "Big shop", notes: null, category: null, merchant: null, tags: [] });

    const deleted = await call("DELETE", `/api/v1/transactions/${created.id}`, "/api/v1/transactions/{id}", 200);
    expect(deleted.message).toEqual(expect.any(String));
    await call("GET", `/api/v1/transactions/${created.id}`, "/api/v1/transactions/{id}", 404);

    const invalid = await call("POST", "/api/v1/transactions", "/api/v1/transactions", 422, {
      transaction: { account_id: account.id, date: "2026-11-02", name: "No amount" },
    });
    expect(invalid.error).toBe("validation_failed");
  });
});

describe("valuations", () => {
  it("POST 201, POST again with upsert 200, GET list, GET one, PATCH 200, PATCH amount only 422, 404", async () => {
    const account = await createAccount("House", { account_type: "property", balance: "300000" });
    const body = { valuation: { account_id: account.id, amount: "310000", date: "2026-11-01", notes: "appraisal" } };
    const created = await call("POST", "/api/v1/valuations", "/api/v1/valuations", 201, body);
    // As for transactions: amount_cents is the spec's, absent from Sure's Valuation.
    expect(created.amount_cents).toBe(31_000_000);

    const again = await call("POST", "/api/v1/valuations", "/api/v1/valuations", 200, { ...body, upsert: true });
    expect(again.id).toBe(created.id);

    const list = await call("GET", `/api/v1/valuations?account_id=${account.id}`, "/api/v1/valuations", 200);
    expect(list.valuations.map((v: { id: string }) => v.id)).toContain(created.id);

    await call("GET", `/api/v1/valuations/${created.id}`, "/api/v1/valuations/{id}", 200);
    const patched = await call("PATCH", `/api/v1/valuations/${created.id}`, "/api/v1/valuations/{id}", 200, {
      valuation: { amount: "320000", date: "2026-11-05", notes: null },
    });
    expect(patched).toMatchObject({ date: "2026-11-05", notes: null });

    await call("PATCH", `/api/v1/valuations/${created.id}`, "/api/v1/valuations/{id}", 422, { valuation: { amount: "1" } });
    await call("GET", `/api/v1/valuations/${MISSING_ID}`, "/api/v1/valuations/{id}", 404);
  });
});

describe("transfers", () => {
  it("POST 201, GET list 200, GET one 200, unknown id 404", async () => {
    const from = await createAccount("Current");
    const to = await createAccount("Card", { account_type: "credit_card", balance: "400" });
    const res = await api.post(
      "/api/v1/transfers",
      { transfer: { from_account_id: from.id, to_account_id: to.id, amount: "150", date: "2026-11-03", notes: "Card bill", source_fee: "1.50" } },
      { apiKey: user.writeKey },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Sure's file has no POST /api/v1/transfers; its answer is a transfer, so TransferDecision.
    // The spec's Transfer adds the fee fields, which pass as extra properties.
    expectUndocumented("post", "/api/v1/transfers", 201);
    expectSureSchema("TransferDecision", res.body);
    expect(res.body).toMatchObject({ status: "confirmed", notes: "Card bill", source_fee_amount: expect.any(String), source_fee_currency: "USD" });

    const list = await call("GET", `/api/v1/transfers?account_id=${to.id}`, "/api/v1/transfers", 200);
    expect(list.transfers.map((t: { id: string }) => t.id)).toEqual([res.body.id]);
    await call("GET", `/api/v1/transfers/${res.body.id}`, "/api/v1/transfers/{id}", 200);
    await call("GET", `/api/v1/transfers/${MISSING_ID}`, "/api/v1/transfers/{id}", 404);
  });

  it("every transfer kind validates against TransferDecision: investment contribution, card, other liability and loan payments", async () => {
    const from = await createAccount("Payer");
    const kinds: [string, string, string][] = [
      ["investment", "investment_contribution", "transfer"],
      ["crypto", "investment_contribution", "transfer"],
      ["credit_card", "cc_payment", "liability_payment"],
      ["other_liability", "cc_payment", "liability_payment"],
      ["loan", "loan_payment", "loan_payment"],
      ["depository", "funds_movement", "transfer"],
    ];
    for (const [account_type, kind, transfer_type] of kinds) {
      const to = await createAccount(`To ${account_type}`, { account_type });
      const res = await api.post(
        "/api/v1/transfers",
        { transfer: { from_account_id: from.id, to_account_id: to.id, amount: "5", date: "2026-11-04" } },
        { apiKey: user.writeKey },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const read = await call("GET", `/api/v1/transfers/${res.body.id}`, "/api/v1/transfers/{id}", 200);
      // Sure's view: fees "0.0" (BigDecimal "F"), never null.
      expect(read).toMatchObject({
        transfer_type,
        source_fee_amount: "0.0",
        destination_fee_amount: "0.0",
        outflow_transaction: { kind },
        inflow_transaction: { kind: "funds_movement" },
      });
      // The outflow as a transaction carries the same kind, and Sure's Transaction schema takes it.
      const side = await call("GET", `/api/v1/transactions/${read.outflow_transaction.id}`, "/api/v1/transactions/{id}", 200);
      expect(side).toMatchObject({ kind, amount_cents: 500, signed_amount_cents: -500 });
    }
  });

  it("a matched pair is proposed after a sync, rejected, then listed and read as a rejected transfer", async () => {
    const checking = await createAccount("Joint");
    const savings = await createAccount("Rainy day", { balance: "0" });
    const out = await createTransaction({ account_id: checking.id, date: "2026-11-10", amount: "250", name: "To savings" });
    const into = await createTransaction({ account_id: savings.id, date: "2026-11-12", amount: "250", nature: "inflow", name: "From joint" });

    const queued = await api.post("/api/v1/sync", undefined, { apiKey: user.writeKey });
    expect(queued.status).toBe(202);
    const latest = await eventually(async () => {
      const body = await call("GET", "/api/v1/syncs/latest", "/api/v1/syncs/latest", 200);
      expect(body.data).toMatchObject({ id: queued.body.id, status: "completed" });
      return body;
    });
    expect(latest.data.terminal).toBe(true);

    const pending = await call("GET", "/api/v1/transfers?status=pending", "/api/v1/transfers", 200);
    expect(pending.transfers).toHaveLength(1);
    const [proposal] = pending.transfers;
    expect(proposal).toMatchObject({ status: "pending", outflow_transaction: { id: out.id }, inflow_transaction: { id: into.id } });

    // Sure's file documents no PATCH /api/v1/transfers/{id}; a rejection answers a message.
    expectUndocumented("patch", "/api/v1/transfers/{id}", 200);
    const rejected = await api.patch(`/api/v1/transfers/${proposal.id}`, { transfer: { status: "rejected" } }, { apiKey: user.writeKey });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ message: expect.any(String) });

    const list = await call("GET", "/api/v1/rejected_transfers", "/api/v1/rejected_transfers", 200);
    expect(list.rejected_transfers).toHaveLength(1);
    const [pair] = list.rejected_transfers;
    expect(pair).toMatchObject({ outflow_transaction: { id: out.id }, inflow_transaction: { id: into.id } });
    await call("GET", `/api/v1/rejected_transfers/${pair.id}`, "/api/v1/rejected_transfers/{id}", 200);
    await call("GET", `/api/v1/rejected_transfers/${MISSING_ID}`, "/api/v1/rejected_transfers/{id}", 404);
  });
});

describe("balances and syncs", () => {
  it("POST /sync 202, syncs list, latest and one; balances list and one", async () => {
    const account = await createAccount("Balances", { balance: "500", opening_balance_date: "2026-11-15" });
    await createTransaction({ account_id: account.id, date: "2026-11-16", amount: "20", name: "Lunch" });

    // Sure's file documents POST /api/v1/sync nowhere: the spec's fields are checked by hand.
    expectUndocumented("post", "/api/v1/sync", 202);
    const queued = await api.post("/api/v1/sync", undefined, { apiKey: user.writeKey });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      id: expect.any(String),
      status: "pending",
      syncable_type: "Family",
      syncable_id: expect.any(String),
      message: expect.any(String),
    });

    await eventually(async () => {
      const latest = await call("GET", "/api/v1/syncs/latest", "/api/v1/syncs/latest", 200);
      expect(latest.data).toMatchObject({ id: queued.body.id, status: "completed" });
    });
    const syncs = await call("GET", "/api/v1/syncs", "/api/v1/syncs", 200);
    expect(syncs.data.map((s: { id: string }) => s.id)).toContain(queued.body.id);
    const one = await call("GET", `/api/v1/syncs/${queued.body.id}`, "/api/v1/syncs/{id}", 200);
    expect(one.data.children_count).toBeGreaterThan(0);
    await call("GET", `/api/v1/syncs/${MISSING_ID}`, "/api/v1/syncs/{id}", 404);

    const balances = await call("GET", `/api/v1/balances?account_id=${account.id}`, "/api/v1/balances", 200);
    expect(balances.balances.length).toBeGreaterThan(0);
    const [newest] = balances.balances;
    const balance = await call("GET", `/api/v1/balances/${newest.id}`, "/api/v1/balances/{id}", 200);
    expect(balance.account.id).toBe(account.id);
    await call("GET", `/api/v1/balances/${MISSING_ID}`, "/api/v1/balances/{id}", 404);
  });

  // Sure's Sync.for_family takes in the family's provider items (app/models/sync.rb 63-74).
  it("the run a provider connection reports: GET /syncs/{id} 200 and listed", async () => {
    const body = { provider_connection: { provider: "simplefin", access_url: "http://conformance:secret@127.0.0.1:9/simplefin" } };
    const created = await api.post("/api/v1/provider_connections", body, { apiKey: user.writeKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run: string = await eventually(async () => {
      const connections = await call("GET", "/api/v1/provider_connections", "/api/v1/provider_connections", 200);
      const latest = connections.data.find((each: { id: string }) => each.id === created.body.data.id)?.sync.latest;
      expect(latest?.status).toBe("failed");
      return latest.id;
    });
    const one = await call("GET", `/api/v1/syncs/${run}`, "/api/v1/syncs/{id}", 200);
    expect(one.data).toMatchObject({ id: run, status: "failed", terminal: true, syncable: { type: "SimplefinItem", id: created.body.data.id } });
    const listed = await call("GET", "/api/v1/syncs?per_page=100", "/api/v1/syncs", 200);
    expect(listed.data.map((sync: { id: string }) => sync.id)).toContain(run);
  });
});

describe("reference data and reports", () => {
  it("balance sheet, categories, family settings, tags and merchants", async () => {
    await call("GET", "/api/v1/balance_sheet", "/api/v1/balance_sheet", 200);

    const categories = await call("GET", "/api/v1/categories?per_page=100", "/api/v1/categories", 200);
    // A subcategory too, so CategoryDetail's parent is checked as an object, not only null.
    const child = categories.categories.find((c: { parent: unknown }) => c.parent !== null) ?? categories.categories[0];
    await call("GET", `/api/v1/categories/${child.id}`, "/api/v1/categories/{id}", 200);
    await call("GET", `/api/v1/categories/${MISSING_ID}`, "/api/v1/categories/{id}", 404);

    await call("GET", "/api/v1/family_settings", "/api/v1/family_settings", 200);

    await call("POST", "/api/v1/tags", "/api/v1/tags", 201, { tag: { name: "Listed" } });
    const tags = await call("GET", "/api/v1/tags", "/api/v1/tags", 200);
    expect(tags.length).toBeGreaterThan(0);

    expect((await api.post("/api/v1/merchants", { merchant: { name: "Bakery" } }, { apiKey: user.writeKey })).status).toBe(201);
    const merchants = await call("GET", "/api/v1/merchants", "/api/v1/merchants", 200);
    expect(merchants.length).toBeGreaterThan(0);
  });

  it("usage, which Sure's file does not document, in the spec's shape", async () => {
    expectUndocumented("get", "/api/v1/usage", 200);
    const res = await api.get("/api/v1/usage", { apiKey: user.writeKey });
    expect(res.status).toBe(200);
    expect(ApiKeyUsageSchema.parse(res.body).api_key.scopes).toEqual(["read_write"]);
  });
});

describe("error bodies", () => {
  it("401 without credentials and 404 for an unknown account are Sure's ErrorResponse", async () => {
    const one = await api.get(`/api/v1/accounts/${MISSING_ID}`);
    expect(one.status).toBe(401);
    expectSureResponse("get", "/api/v1/accounts/{id}", 401, one.body);

    // The file documents only 200 for the accounts list; its 401 is held to the same ErrorResponse.
    expectUndocumented("get", "/api/v1/accounts", 401);
    const list = await api.get("/api/v1/accounts");
    expect(list.status).toBe(401);
    expectSureSchema("ErrorResponse", list.body);

    await call("GET", `/api/v1/accounts/${MISSING_ID}`, "/api/v1/accounts/{id}", 404);
  });
});
