// Sure's HTTP surface through the gateway (Sure compatibility): list parameters
// the Rails way, PUT beside PATCH, each controller's error codes, and booleans sent as text. Each
// case names the Sure controller test it mirrors (test/controllers/api/v1/<name>_controller_test.rb).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes, type RouteDef } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let alice: TestUser;
let bob: TestUser; // another family

const MISSING_ID = "01900000-0000-7000-8000-000000000000";

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  alice = await signUpUser(api, "http-sure");
  bob = await signUpUser(api, "http-sure-other");
});
afterAll(async () => system?.stop());

async function created(path: string, body: unknown, user: TestUser = alice): Promise<any> {
  const res = await api.post(path, body, { apiKey: user.writeKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const account = (name: string, fields: Record<string, unknown> = {}) =>
  created("/api/v1/accounts", { account: { name, account_type: "depository", balance: "100", opening_balance_date: "2026-01-01", ...fields } });

describe("list parameters the Rails way", () => {
  let ids: { a: string; b: string; t1: string; t2: string; t3: string; merchant: string; category: string; tx1: string; tx2: string; tx3: string };

  beforeAll(async () => {
    const [a, b] = [await account("Lists A"), await account("Lists B")];
    const [t1, t2, t3] = [
      await created("/api/v1/tags", { tag: { name: "L1" } }),
      await created("/api/v1/tags", { tag: { name: "L2" } }),
      await created("/api/v1/tags", { tag: { name: "L3" } }),
    ];
    const merchant = await created("/api/v1/merchants", { merchant: { name: "Lists Shop" } });
    const category = (await api.get("/api/v1/categories", { apiKey: alice.readKey })).body.categories[0];
    const entry = (fields: Record<string, unknown>) =>
      created("/api/v1/transactions", { transaction: { date: "2026-02-01", amount: "5", name: "Entry", ...fields } });
    const tx1 = await entry({ account_id: a.id, tag_ids: [t1.id, t2.id], merchant_id: merchant.id, category_id: category.id });
    const tx2 = await entry({ account_id: b.id, tag_ids: [t3.id] });
    const tx3 = await entry({ account_id: a.id });
    ids = { a: a.id, b: b.id, t1: t1.id, t2: t2.id, t3: t3.id, merchant: merchant.id, category: category.id, tx1: tx1.id, tx2: tx2.id, tx3: tx3.id };
  });

  const listed = async (query: string) => {
    const res = await api.get(`/api/v1/transactions?per_page=100&${query}`, { apiKey: alice.readKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.transactions as { id: string }[]).map((t) => t.id).sort();
  };

  // transactions_controller_test "should filter transactions by tag_ids without error": Rails'
  // test client sends `params: { tag_ids: [a, b] }` as tag_ids[]=a&tag_ids[]=b.
  it("filters by tag_ids[] (it used to be ignored and list everything), once per transaction", async () => {
    expect(await listed(`tag_ids[]=${ids.t1}&tag_ids[]=${ids.t2}`)).toEqual([ids.tx1]);
    expect(await listed(`tag_ids%5B%5D=${ids.t3}`)).toEqual([ids.tx2]);
  });

  it("reads account_ids[], category_ids[] and merchant_ids[] too, and the repeated plain key, and both mixed", async () => {
    expect(await listed(`account_ids[]=${ids.b}`)).toEqual([ids.tx2]);
    expect(await listed(`category_ids[]=${ids.category}`)).toEqual([ids.tx1]);
    expect(await listed(`merchant_ids[]=${ids.merchant}`)).toEqual([ids.tx1]);
    expect(await listed(`tag_ids=${ids.t1}&tag_ids=${ids.t3}`)).toEqual([ids.tx1, ids.tx2].sort());
    expect(await listed(`tag_ids=${ids.t1}&tag_ids[]=${ids.t3}`)).toEqual([ids.tx1, ids.tx2].sort());
    expect(await listed(`account_ids=${ids.a}`)).toEqual([ids.tx1, ids.tx3].sort());
  });

  it("refuses a filter the list does not have (misspelt, bracketed or nested) with 422 naming it, rather than listing everything", async () => {
    for (const query of [`tag_id=${ids.t1}`, `tagids[]=${ids.t1}`, `filter[account_id]=${ids.a}`]) {
      const res = await api.get(`/api/v1/transactions?${query}`, { apiKey: alice.readKey });
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ error: "validation_failed", message: expect.stringContaining(query.split("=")[0]!) });
    }
    expect((await api.get("/api/v1/tags?name=L1", { apiKey: alice.readKey })).status).toBe(422);
  });

  it("refuses a one-value filter sent as a list instead of reading part of it", async () => {
    for (const query of [`account_id[]=${ids.a}`, `account_id=${ids.a}&account_id=${ids.b}`]) {
      const res = await api.get(`/api/v1/transactions?${query}`, { apiKey: alice.readKey });
      expect(res.status, query).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
  });

  it("keeps the harmless page and per_page working on lists with and without pages", async () => {
    expect((await api.get("/api/v1/tags?page=1&per_page=10", { apiKey: alice.readKey })).status).toBe(200);
    expect((await api.get("/api/v1/merchants?page=2", { apiKey: alice.readKey })).status).toBe(200);
    const page = await api.get("/api/v1/transactions?page=1&per_page=2", { apiKey: alice.readKey });
    expect(page.body.pagination).toMatchObject({ page: 1, per_page: 2 });
  });
});

describe("PUT is PATCH", () => {
  it("updates a tag, a category, a merchant, an account and a transaction with PUT", async () => {
    const tag = await created("/api/v1/tags", { tag: { name: "Put me" } });
    const put = (path: string, body: unknown) => api.request("PUT", path, { apiKey: alice.writeKey, body });
    // tags_controller_test "update tag successfully", sent as PUT.
    const tagged = await put(`/api/v1/tags/${tag.id}`, { tag: { name: "Was put", color: "#00ff00" } });
    expect(tagged.status).toBe(200);
    expect(tagged.body).toMatchObject({ id: tag.id, name: "Was put", color: "#00ff00" });
    expect((await api.get(`/api/v1/tags/${tag.id}`, { apiKey: alice.readKey })).body.name).toBe("Was put");

    const category = await created("/api/v1/categories", { category: { name: "Put category" } });
    expect((await put(`/api/v1/categories/${category.id}`, { category: { name: "Put again" } })).body.name).toBe("Put again");
    const merchant = await created("/api/v1/merchants", { merchant: { name: "Put shop" } });
    expect((await put(`/api/v1/merchants/${merchant.id}`, { merchant: { name: "Put store" } })).body.name).toBe("Put store");
    const acct = await account("Put account");
    expect((await put(`/api/v1/accounts/${acct.id}`, { account: { name: "Renamed by PUT" } })).body.name).toBe("Renamed by PUT");
    const txn = await created("/api/v1/transactions", { transaction: { account_id: acct.id, date: "2026-02-02", amount: "3", name: "Before" } });
    expect((await put(`/api/v1/transactions/${txn.id}`, { transaction: { name: "After" } })).body.name).toBe("After");
  });

  it("keeps PATCH's access rules and input checks: read-only key 403, no credential 401, bad body 422, missing 404", async () => {
    const tag = await created("/api/v1/tags", { tag: { name: "Guarded" } });
    const readOnly = await api.request("PUT", `/api/v1/tags/${tag.id}`, { apiKey: alice.readKey, body: { tag: { name: "x" } } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe("insufficient_scope");
    expect((await api.request("PUT", `/api/v1/tags/${tag.id}`, { body: { tag: { name: "x" } } })).status).toBe(401);
    expect((await api.request("PUT", `/api/v1/tags/${tag.id}`, { apiKey: alice.writeKey, body: { tag: { name: "" } } })).status).toBe(422);
    expect((await api.request("PUT", `/api/v1/tags/${tag.id}`, { apiKey: bob.writeKey, body: { tag: { name: "x" } } })).status).toBe(404);
  });

  it("is listed in the served OpenAPI document beside every PATCH", async () => {
    const doc = (await api.get("/api/v1/openapi.json")).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const patches = (Object.values(routes) as RouteDef[]).filter((route) => route.method === "PATCH");
    for (const route of patches) {
      const operations = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, "{$1}")];
      expect(operations?.["put"]?.operationId, route.path).toBe(`${route.procedure}.put`);
    }
  });
});

describe("error codes as Sure's controllers answer them", () => {
  // accounts_controller_test "should return 404 for unknown account on show" and "... for malformed account id on show".
  it("accounts: a missing or malformed id is 404 not_found 'Account not found'", async () => {
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      const res = await api.get(`/api/v1/accounts/${id}`, { apiKey: alice.readKey });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: "Account not found" });
    }
  });

  // transactions_controller_test "should return 404 for valid missing transaction id", "... for malformed id",
  // "should reject update for non-existent transaction", "should reject destroy for non-existent transaction".
  it("transactions: a missing or malformed id is 404 not_found 'Transaction not found' for show, update and destroy", async () => {
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      for (const res of [
        await api.get(`/api/v1/transactions/${id}`, { apiKey: alice.readKey }),
        await api.patch(`/api/v1/transactions/${id}`, { transaction: { name: "x" } }, { apiKey: alice.writeKey }),
        await api.delete(`/api/v1/transactions/${id}`, { apiKey: alice.writeKey }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: "not_found", message: "Transaction not found" });
      }
    }
  });

  // categories_controller_test "should return 404 for non-existent category" and "should not return category from another family".
  it("categories: a missing or another family's category is 404 not_found", async () => {
    const theirs = await created("/api/v1/categories", { category: { name: "Bob's own" } }, bob);
    for (const id of [MISSING_ID, theirs.id]) {
      const res = await api.get(`/api/v1/categories/${id}`, { apiKey: alice.readKey });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: "Category not found" });
    }
  });

  // valuations_controller_test "should reject index with invalid date filter" and "... with malformed account_id filter".
  it("bad list filters (malformed UUID, a date that is no ISO date, an unknown status) are 422 validation_failed, not 400", async () => {
    for (const path of [
      "/api/v1/valuations?start_date=04/30/2026",
      "/api/v1/valuations?account_id=not-a-uuid",
      "/api/v1/transactions?end_date=2026-13-01",
      "/api/v1/transfers?status=bogus",
      "/api/v1/balances?account_id=42",
    ]) {
      const res = await api.get(path, { apiKey: alice.readKey });
      expect(res.status, path).toBe(422);
      expect(res.body).toMatchObject({ error: "validation_failed", errors: expect.any(Array) });
    }
    const bad = await api.get("/api/v1/valuations?account_id=not-a-uuid", { apiKey: alice.readKey });
    expect(bad.body.message).toContain("account_id");
  });

  // valuations_controller_test "should reject create with invalid account_id" (999999) and
  // "should reject update for non-existent valuation".
  it("valuations: an unknown account is 404, however its id is written; a missing valuation is 404 'Valuation not found'", async () => {
    for (const accountId of [999999, "999999", MISSING_ID]) {
      const res = await api.post(
        "/api/v1/valuations",
        { valuation: { account_id: accountId, amount: "10000", date: "2026-03-01" } },
        { apiKey: alice.writeKey },
      );
      expect(res.status, String(accountId)).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: "Account or valuation entry not found" });
    }
    const theirs = await account("Valued");
    expect(
      (await api.post("/api/v1/valuations", { valuation: { account_id: theirs.id, amount: "1", date: "2026-03-01" } }, { apiKey: bob.writeKey })).status,
    ).toBe(404);
    const missing = await api.patch(`/api/v1/valuations/${MISSING_ID}`, { valuation: { notes: "x" } }, { apiKey: alice.writeKey });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found", message: "Valuation not found" });
    // A missing account id is still a validation failure (Sure: "Account ID is required").
    expect((await api.post("/api/v1/valuations", { valuation: { amount: "1", date: "2026-03-01" } }, { apiKey: alice.writeKey })).status).toBe(422);
  });

  // categories_controller_test "create returns 422 on duplicate name within family", "... on invalid color",
  // "... when parent_id belongs to another family", "... when nesting exceeds two levels".
  it("categories: every validation failure of a create is 422 unprocessable_entity with a message", async () => {
    const parent = await created("/api/v1/categories", { category: { name: "Level one" } });
    const child = await created("/api/v1/categories", { category: { name: "Level two", parent_id: parent.id } });
    const foreign = await created("/api/v1/categories", { category: { name: "External Parent" } }, bob);
    for (const category of [
      { name: "Level one", color: "#22c55e", icon: "shapes" },
      { name: "Bad Color", color: "not-a-hex" },
      { name: "Should Fail", color: "#22c55e", icon: "shapes", parent_id: foreign.id },
      { name: "Grandchild", color: "#22c55e", icon: "shapes", parent_id: child.id },
    ]) {
      const res = await api.post("/api/v1/categories", { category }, { apiKey: alice.writeKey });
      expect(res.status, category.name).toBe(422);
      expect(res.body).toMatchObject({ error: "unprocessable_entity", message: expect.stringMatching(/\S/) });
    }
    const foreignParent = await api.post("/api/v1/categories", { category: { name: "Orphan", parent_id: foreign.id } }, { apiKey: alice.writeKey });
    expect(foreignParent.body.message).toBe("Parent must be a category in your family");
    const update = await api.patch(`/api/v1/categories/${child.id}`, { category: { color: "red" } }, { apiKey: alice.writeKey });
    expect(update.body.error).toBe("unprocessable_entity");
  });

  // categories_controller_test "create returns 400 when category payload is missing" (Rails' params.require).
  it("categories: a create without its category object is 400 bad_request", async () => {
    for (const body of [{}, { category: {} }, { category: null }, { name: "Loose" }]) {
      const res = await api.post("/api/v1/categories", body, { apiKey: alice.writeKey });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("bad_request");
    }
    const bodiless = await api.request("POST", "/api/v1/categories", { apiKey: alice.writeKey });
    expect(bodiless.status).toBe(400);
  });
});

describe("booleans sent as text", () => {
  let houseId: string;
  const valuation = (date: string, extra: Record<string, unknown> = {}, nested: Record<string, unknown> = {}, query = "") =>
    api.post(`/api/v1/valuations${query}`, { ...extra, valuation: { account_id: houseId, amount: "250000", date, ...nested } }, { apiKey: alice.writeKey });

  beforeAll(async () => {
    houseId = (await account("House", { account_type: "property", balance: "200000" })).id;
  });

  // valuations_controller_test "should upsert valuation for same account and date when requested" (upsert: "true").
  it("upsert as the text 'true' or '1', at the top level, nested or in the query, answers 200 for an existing date", async () => {
    const first = await valuation("2026-04-01");
    expect(first.status).toBe(201);
    for (const [extra, nested, query] of [
      [{ upsert: "true" }, {}, ""],
      [{ upsert: "1" }, {}, ""],
      [{}, { upsert: "true" }, ""], // "should accept nested upsert flag for same-date valuation writes"
      [{ upsert: 1 }, {}, ""],
      [{}, {}, "?upsert=true"],
      [{}, {}, "?upsert=1"],
    ] as const) {
      const res = await valuation("2026-04-01", extra, nested, query);
      expect(res.status, JSON.stringify({ extra, nested, query, body: res.body })).toBe(200);
      expect(res.body.id).toBe(first.body.id);
    }
  });

  // valuations_controller_test "should create valuation when upsert is requested without an existing same-date valuation".
  it("upsert 'true' on a new date is 201; 'false' and '0' on an existing date are 201 (no upsert asked)", async () => {
    expect((await valuation("2026-04-02", { upsert: "true" })).status).toBe(201);
    expect((await valuation("2026-04-02", { upsert: "false" })).status).toBe(201);
    expect((await valuation("2026-04-02", { upsert: "0" })).status).toBe(201);
    expect((await valuation("2026-04-02", {}, {}, "?upsert=false")).status).toBe(201);
  });

  it("refuses a word that is no boolean with 422 naming it, rather than reading it as true", async () => {
    const res = await valuation("2026-04-03", { upsert: "yes" });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("upsert");
    expect((await api.get("/api/v1/categories?roots_only=maybe", { apiKey: alice.readKey })).status).toBe(422);
  });

  // categories_controller_test "should filter for roots only" (roots_only: true, sent as text).
  it("query booleans take the same words: roots_only and include_disabled", async () => {
    for (const value of ["true", "1", "TRUE", "on", "t"]) {
      const res = await api.get(`/api/v1/categories?per_page=100&roots_only=${value}`, { apiKey: alice.readKey });
      expect(res.status, value).toBe(200);
      expect(
        res.body.categories.every((category: { parent: unknown }) => category.parent === null),
        value,
      ).toBe(true);
    }
    const all = await api.get("/api/v1/categories?per_page=100&roots_only=0", { apiKey: alice.readKey });
    expect(all.body.categories.some((category: { parent: unknown }) => category.parent !== null)).toBe(true);

    // accounts_controller_test "should show disabled account when requested".
    const disabled = await account("Dormant");
    expect((await api.patch(`/api/v1/accounts/${disabled.id}`, { account: { status: "disabled" } }, { apiKey: alice.writeKey })).status).toBe(200);
    expect((await api.get(`/api/v1/accounts/${disabled.id}?include_disabled=on`, { apiKey: alice.readKey })).status).toBe(200);
    expect((await api.get(`/api/v1/accounts/${disabled.id}?include_disabled=off`, { apiKey: alice.readKey })).status).toBe(404);
  });
});
