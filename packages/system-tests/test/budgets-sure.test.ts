// Budgets and budget categories through the gateway as a Sure client reads them (planning):
// scopes, shapes, filters and pages, and Sure's error answers. Cases mirror Sure's
// test/controllers/api/v1/budgets_controller_test.rb and budget_categories_controller_test.rb.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetCategoryCollectionSchema, BudgetCategorySchema, BudgetCollectionSchema, BudgetSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let budgetId: string;
const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 7)}-01`;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "planner");
  // The family's default categories come with its first look at them; the budget has a line for each.
  expect((await api.get("/api/v1/categories", { apiKey: user.readKey })).status).toBe(200);
  const created = await api.post("/api/v1/budgets", { budget: { start_date: today } }, { apiKey: user.writeKey });
  expect(created.status).toBe(201);
  budgetId = created.body.id;
});
afterAll(async () => system?.stop());

describe("budgets over HTTP", () => {
  it("are made with read_write only (403 read-only, 401 without a key); asking again answers the same budget with 200", async () => {
    expect((await api.post("/api/v1/budgets", { budget: { start_date: today } }, { apiKey: user.readKey })).status).toBe(403);
    expect((await api.post("/api/v1/budgets", { budget: { start_date: today } })).status).toBe(401);
    const again = await api.post("/api/v1/budgets", { budget: { start_date: monthStart } }, { apiKey: user.writeKey });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(budgetId);
  });

  it("list (summaries, newest first) and show (with actuals) in Sure's shapes", async () => {
    const list = await api.get("/api/v1/budgets?per_page=1000", { apiKey: user.readKey });
    expect(list.status).toBe(200);
    const collection = BudgetCollectionSchema.parse(list.body);
    expect(collection.pagination).toMatchObject({ page: 1, per_page: 100, total_count: 1 });
    expect(collection.budgets[0]).toMatchObject({ id: budgetId, start_date: monthStart, current: true, initialized: false, budgeted_spending: null });
    const shown = await api.get(`/api/v1/budgets/${budgetId}`, { apiKey: user.readKey });
    expect(shown.status).toBe(200);
    expect(BudgetSchema.parse(shown.body)).toMatchObject({ actual_spending: "$0.00", actual_spending_cents: 0, available_to_allocate_cents: 0 });
  });

  it("take the planned amounts (our extension) and refuse bad ones with 422", async () => {
    const updated = await api.patch(
      `/api/v1/budgets/${budgetId}`,
      { budget: { budgeted_spending: 2500.5, expected_income: "4000" } },
      { apiKey: user.writeKey },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ initialized: true, budgeted_spending: "$2,500.50", budgeted_spending_cents: 250050, expected_income_cents: 400000 });
    const negative = await api.patch(`/api/v1/budgets/${budgetId}`, { budget: { budgeted_spending: -5 } }, { apiKey: user.writeKey });
    expect(negative.status).toBe(422);
    expect((await api.patch(`/api/v1/budgets/${budgetId}`, { budget: {} }, { apiKey: user.writeKey })).status).toBe(422);
  });

  it("answer 422 for a bad date filter, 404 for a budget that is not there or not a UUID", async () => {
    expect((await api.get("/api/v1/budgets?start_date=2024-02-30", { apiKey: user.readKey })).status).toBe(422);
    expect((await api.get("/api/v1/budgets?page=1e300", { apiKey: user.readKey })).status).toBeLessThan(500);
    for (const id of ["00000000-0000-7000-8000-000000000000", "999999"]) {
      const missing = await api.get(`/api/v1/budgets/${id}`, { apiKey: user.readKey });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: "record_not_found" });
    }
  });
});

describe("budget categories over HTTP", () => {
  it("list with Sure's filters (budget_id, category_id, dates), newest budget first then by name", async () => {
    const list = await api.get(`/api/v1/budget_categories?budget_id=${budgetId}&per_page=100`, { apiKey: user.readKey });
    expect(list.status).toBe(200);
    const collection = BudgetCategoryCollectionSchema.parse(list.body);
    const names = collection.budget_categories.map((line) => line.category.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    const [first] = collection.budget_categories;
    const byCategory = await api.get(`/api/v1/budget_categories?category_id=${first!.category.id}`, { apiKey: user.readKey });
    expect(byCategory.body.budget_categories.map((line: { id: string }) => line.id)).toEqual([first!.id]);
    const later = await api.get(`/api/v1/budget_categories?start_date=2099-01-01`, { apiKey: user.readKey });
    expect(later.body.budget_categories).toEqual([]);
  });

  it("refuse a malformed budget_id filter with validation_failed naming it (Sure's 'rejects malformed budget_id filter')", async () => {
    const bad = await api.get("/api/v1/budget_categories?budget_id=not-a-uuid", { apiKey: user.readKey });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: "validation_failed" });
    expect(JSON.stringify(bad.body)).toContain("budget_id must be a valid UUID");
    expect((await api.get("/api/v1/budget_categories?start_date=nope", { apiKey: user.readKey })).status).toBe(422);
  });

  it("show one with its actuals and rollover, and take a new limit (our extension)", async () => {
    const [line] = (await api.get(`/api/v1/budget_categories?budget_id=${budgetId}`, { apiKey: user.readKey })).body.budget_categories as { id: string }[];
    const shown = await api.get(`/api/v1/budget_categories/${line!.id}`, { apiKey: user.readKey });
    expect(shown.status).toBe(200);
    expect(BudgetCategorySchema.parse(shown.body)).toMatchObject({ rolled_over_amount_cents: 0, actual_spending_cents: 0, rollover_enabled: false });
    expect((await api.patch(`/api/v1/budget_categories/${line!.id}`, { budget_category: { budgeted_spending: "75" } }, { apiKey: user.readKey })).status).toBe(
      403,
    );
    const updated = await api.patch(
      `/api/v1/budget_categories/${line!.id}`,
      { budget_category: { budgeted_spending: "75", rollover_enabled: true } },
      { apiKey: user.writeKey },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ budgeted_spending: "$75.00", rollover_enabled: true, available_to_spend_cents: 7500 });
  });
});
