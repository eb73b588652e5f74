// Rules, rule runs and recurring transactions through the gateway as a Sure client uses them
// (planning). Cases mirror Sure's test/controllers/api/v1/rules_controller_test.rb,
// rule_runs_controller_test.rb and recurring_transactions_controller_test.rb where named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecurringTransactionCollectionSchema, RuleCollectionSchema, RuleResponseSchema, RuleRunResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let checking: string;
let coffee: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "tidy");
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2026-01-01" } },
    { apiKey: user.writeKey },
  );
  checking = account.body.id;
  coffee = (await api.post("/api/v1/categories", { category: { name: "Coffee shops" } }, { apiKey: user.writeKey })).body.id;
});
afterAll(async () => system?.stop());

const coffeeRule = () => ({
  rule: {
    name: "Coffee cleanup",
    effective_date: "2024-01-01",
    conditions: [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
    actions: [{ action_type: "set_transaction_category", value: coffee }],
  },
});

describe("rules over HTTP", () => {
  it("are written with read_write only and read in Sure's {data, meta} shapes ('should list rules', 'should show rule with conditions and actions')", async () => {
    expect((await api.post("/api/v1/rules", coffeeRule(), { apiKey: user.readKey })).status).toBe(403);
    const created = await api.post("/api/v1/rules", coffeeRule(), { apiKey: user.writeKey });
    expect(created.status).toBe(201);
    const rule = RuleResponseSchema.parse(created.body).data;
    expect(rule).toMatchObject({ name: "Coffee cleanup", resource_type: "transaction", effective_date: "2024-01-01" });
    expect(rule.conditions[0]).toMatchObject({ condition_type: "transaction_name", operator: "like", value: "coffee" });
    const list = await api.get("/api/v1/rules", { apiKey: user.readKey });
    expect(list.status).toBe(200);
    expect(RuleCollectionSchema.parse(list.body).meta).toMatchObject({ total_count: 1 });
    expect((await api.get(`/api/v1/rules/${rule.id}`, { apiKey: user.readKey })).body).toEqual(created.body);
  });

  it("refuse an unsupported resource_type or active filter with validation_failed", async () => {
    for (const query of ["resource_type=account", "active=maybe"]) {
      const res = await api.get(`/api/v1/rules?${query}`, { apiKey: user.readKey });
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ error: "validation_failed" });
    }
  });

  it("apply to a new transaction before it is answered, and to earlier ones by a background run", async () => {
    const atCreate = await api.post(
      "/api/v1/transactions",
      { transaction: { account_id: checking, date: "2026-02-01", amount: "4.5", name: "Blue Bottle Coffee", nature: "expense" } },
      { apiKey: user.writeKey },
    );
    expect(atCreate.body.category?.id).toBe(coffee); // the active rule of the first case
    const tea = { ...coffeeRule().rule, name: "Tea", active: false, conditions: [{ condition_type: "transaction_name", operator: "like", value: "tea" }] };
    const rule = (await api.post("/api/v1/rules", { rule: tea }, { apiKey: user.writeKey })).body.data;
    const earlier = await api.post(
      "/api/v1/transactions",
      { transaction: { account_id: checking, date: "2026-02-02", amount: "3", name: "Green tea", nature: "expense" } },
      { apiKey: user.writeKey },
    );
    expect(earlier.body.category).toBeNull(); // an inactive rule does not apply at create
    const applied = await api.post(`/api/v1/rules/${rule.id}/apply`, {}, { apiKey: user.writeKey });
    expect(applied.status).toBe(202);
    const run = RuleRunResponseSchema.parse(applied.body).data;
    const done = await eventually(async () => {
      const res = await api.get(`/api/v1/rule_runs/${run.id}`, { apiKey: user.readKey });
      expect(res.body.data.status).toBe("success");
      return res.body.data;
    });
    expect(done).toMatchObject({ rule_id: rule.id, execution_type: "manual", transactions_modified: 1 });
    expect((await api.get(`/api/v1/transactions/${earlier.body.id}`, { apiKey: user.readKey })).body.category?.id).toBe(coffee);
    expect((await api.get(`/api/v1/rule_runs?rule_id=${rule.id}`, { apiKey: user.readKey })).body.data.map((r: { id: string }) => r.id)).toContain(run.id);
  });
});

describe("recurring transactions over HTTP", () => {
  const gym = {
    account_id: "",
    name: "Gym",
    amount: "30",
    currency: "USD",
    expected_day_of_month: 5,
    last_occurrence_date: "2026-10-05",
    next_expected_date: "2026-11-05",
  };

  it("create (201, manual), refuse a duplicate with 409 conflict, list and delete with Sure's message", async () => {
    const body = { recurring_transaction: { ...gym, account_id: checking } };
    expect((await api.post("/api/v1/recurring_transactions", body, { apiKey: user.readKey })).status).toBe(403);
    const created = await api.post("/api/v1/recurring_transactions", body, { apiKey: user.writeKey });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Gym", manual: true, expected_day_of_month: 5 });
    const again = await api.post("/api/v1/recurring_transactions", body, { apiKey: user.writeKey });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "conflict", message: "Recurring transaction already exists" });
    const list = RecurringTransactionCollectionSchema.parse((await api.get("/api/v1/recurring_transactions", { apiKey: user.readKey })).body);
    expect(list.recurring_transactions.map((row) => row.id)).toContain(created.body.id);
    const removed = await api.delete(`/api/v1/recurring_transactions/${created.body.id}`, { apiKey: user.writeKey });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ message: expect.stringMatching(/deleted/i) });
  });

  it("refuse invalid bodies with 422 validation_failed listing the errors", async () => {
    const res = await api.post(
      "/api/v1/recurring_transactions",
      { recurring_transaction: { ...gym, account_id: checking, name: undefined, expected_day_of_month: 32 } },
      { apiKey: user.writeKey },
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("validation_failed");
    expect(res.body.errors.length).toBeGreaterThan(0);
  });
});
