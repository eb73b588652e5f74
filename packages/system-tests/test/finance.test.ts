import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CategoryCollectionSchema, CategorySchema, FamilySettingsSchema, MerchantSchema, TagSchema } from "@hearth/contracts";
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
  alice = await signUpUser(api, "alice");
  bob = await signUpUser(api, "bob");
});
afterAll(async () => system?.stop());

describe("tags", () => {
  it("creates with an auto-assigned colour, reads, lists as a bare array, updates and deletes", async () => {
    const created = await api.post("/api/v1/tags", { tag: { name: " Groceries " } }, { apiKey: alice.writeKey });
    expect(created.status).toBe(201);
    expect(TagSchema.parse(created.body)).toMatchObject({ name: "Groceries", color: expect.stringMatching(/^#[0-9a-f]{6}$/i) });
    const id = created.body.id as string;

    const withColor = await api.post("/api/v1/tags", { tag: { name: "Bills", color: "#123abc" } }, { token: alice.accessToken });
    expect(withColor.body.color).toBe("#123abc");

    const got = await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const list = await api.get("/api/v1/tags", { apiKey: alice.readKey });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((tag: { name: string }) => tag.name)).toEqual(["Bills", "Groceries"]);

    const updated = await api.patch(`/api/v1/tags/${id}`, { tag: { name: "Food", color: "#00ff00" } }, { apiKey: alice.writeKey });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: "Food", color: "#00ff00" });

    const partial = await api.patch(`/api/v1/tags/${id}`, { tag: { color: "#0000ff" } }, { apiKey: alice.writeKey });
    expect(partial.body).toMatchObject({ name: "Food", color: "#0000ff" });

    expect((await api.delete(`/api/v1/tags/${id}`, { apiKey: alice.writeKey })).status).toBe(204);
    expect((await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey })).status).toBe(404);
    expect((await api.delete(`/api/v1/tags/${id}`, { apiKey: alice.writeKey })).status).toBe(404);
  });

  it("answers 422 with messages for invalid input", async () => {
    const cases = [{}, { tag: {} }, { tag: { name: "" } }, { tag: { name: "   " } }, { tag: { name: "x".repeat(101) } }, { tag: { name: "Ok", color: "red" } }];
    for (const body of cases) {
      const res = await api.post("/api/v1/tags", body, { apiKey: alice.writeKey });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: "validation_failed", errors: expect.any(Array) });
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const blank = await api.post("/api/v1/tags", { tag: { name: "" } }, { apiKey: alice.writeKey });
    expect(blank.body.errors).toContain("Name can't be blank");
  });

  it("refuses a duplicate name within a family with 422, but another family may use it", async () => {
    expect((await api.post("/api/v1/tags", { tag: { name: "Travel" } }, { apiKey: alice.writeKey })).status).toBe(201);
    const dup = await api.post("/api/v1/tags", { tag: { name: "Travel" } }, { apiKey: alice.writeKey });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual(["Name has already been taken"]);
    expect((await api.post("/api/v1/tags", { tag: { name: "Travel" } }, { apiKey: bob.writeKey })).status).toBe(201);
  });

  it("answers 404 for a missing id and for an id that is not a UUID", async () => {
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      const res = await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "record_not_found", message: expect.any(String) });
    }
  });

  it("isolates families: another family's tag is 404 for read, update and delete, and never listed", async () => {
    const secret = await api.post("/api/v1/tags", { tag: { name: "Alice only" } }, { apiKey: alice.writeKey });
    const id = secret.body.id as string;
    expect((await api.get(`/api/v1/tags/${id}`, { apiKey: bob.readKey })).status).toBe(404);
    expect((await api.patch(`/api/v1/tags/${id}`, { tag: { name: "Hijacked" } }, { apiKey: bob.writeKey })).status).toBe(404);
    expect((await api.delete(`/api/v1/tags/${id}`, { apiKey: bob.writeKey })).status).toBe(404);
    const bobs = await api.get("/api/v1/tags", { apiKey: bob.readKey });
    expect(bobs.body.map((tag: { id: string }) => tag.id)).not.toContain(id);
    expect((await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey })).body.name).toBe("Alice only");
  });
});

describe("merchants", () => {
  it("creates family merchants, lists them as a bare array and reads one", async () => {
    const created = await api.post("/api/v1/merchants", { merchant: { name: "Corner Shop" } }, { apiKey: alice.writeKey });
    expect(created.status).toBe(201);
    expect(MerchantSchema.parse(created.body)).toMatchObject({ name: "Corner Shop", type: "FamilyMerchant" });
    await api.post("/api/v1/merchants", { merchant: { name: "Bakery", color: "#aabbcc" } }, { apiKey: alice.writeKey });

    const list = await api.get("/api/v1/merchants", { apiKey: alice.readKey });
    expect(list.status).toBe(200);
    expect(list.body.map((merchant: { name: string }) => merchant.name)).toEqual(["Bakery", "Corner Shop"]);

    const got = await api.get(`/api/v1/merchants/${created.body.id}`, { apiKey: alice.readKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
  });

  it("validates input with 422 and needs write scope", async () => {
    for (const body of [{}, { merchant: { name: "" } }, { merchant: { name: "x".repeat(201) } }, { merchant: { name: "Ok", color: "#12" } }]) {
      const res = await api.post("/api/v1/merchants", body, { apiKey: alice.writeKey });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
    expect((await api.post("/api/v1/merchants", { merchant: { name: "Nope" } }, { apiKey: alice.readKey })).status).toBe(403);
  });

  it("isolates families", async () => {
    const created = await api.post("/api/v1/merchants", { merchant: { name: "Alice's Garage" } }, { apiKey: alice.writeKey });
    expect((await api.get(`/api/v1/merchants/${created.body.id}`, { apiKey: bob.readKey })).status).toBe(404);
    const bobs = await api.get("/api/v1/merchants", { apiKey: bob.readKey });
    expect(bobs.body).toEqual([]);
    expect((await api.get(`/api/v1/merchants/${MISSING_ID}`, { apiKey: alice.readKey })).body.error).toBe("record_not_found");
  });
});

describe("a service that is down", () => {
  it("answers 503 service_unavailable and recovers when it is back", async () => {
    await system.services.finance.stop();
    try {
      const res = await api.get("/api/v1/tags", { apiKey: alice.readKey });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "service_unavailable", message: expect.any(String) });
      expect(res.headers.get("retry-after")).toBe("5");
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    } finally {
      await system.services.finance.start();
    }
    expect((await api.get("/api/v1/tags", { apiKey: alice.readKey })).status).toBe(200);
  });
});

describe("categories", () => {
  it("lists the family's default set with Sure's pagination, reading query strings as Sure does", async () => {
    const res = await api.get("/api/v1/categories?roots_only=true&per_page=3&page=2", { apiKey: alice.readKey });
    expect(res.status).toBe(200);
    const page = CategoryCollectionSchema.parse(res.body);
    expect(page.categories).toHaveLength(3);
    expect(page.categories.every((category) => category.parent === null)).toBe(true);
    expect(page.pagination).toMatchObject({ page: 2, per_page: 3 });
    expect((await api.get("/api/v1/categories?per_page=1000", { apiKey: alice.readKey })).body.pagination.per_page).toBe(100);
    expect((await api.get("/api/v1/categories?per_page=nope", { apiKey: alice.readKey })).body.pagination.per_page).toBe(25);
  });

  it("creates a subcategory (201), needs the write scope, and keeps each family's categories its own", async () => {
    const parent = await api.post("/api/v1/categories", { category: { name: "Hobbies", icon: "palette" } }, { apiKey: alice.writeKey });
    expect(parent.status).toBe(201);
    const child = await api.post("/api/v1/categories", { category: { name: "Pottery", parent_id: parent.body.id } }, { apiKey: alice.writeKey });
    expect(child.status).toBe(201);
    expect(CategorySchema.parse(child.body)).toMatchObject({ parent: { id: parent.body.id, name: "Hobbies" }, color: parent.body.color });
    expect((await api.post("/api/v1/categories", { category: { name: "Nope" } }, { apiKey: alice.readKey })).status).toBe(403);
    expect((await api.post("/api/v1/categories", { category: { name: "Hobbies" } }, { apiKey: alice.writeKey })).status).toBe(422);
    // Sure's params.require(:category): a body without it is 400 (http-sure.test.ts has the cases).
    expect((await api.post("/api/v1/categories", {}, { apiKey: alice.writeKey })).status).toBe(400);
    expect((await api.get(`/api/v1/categories/${parent.body.id}`, { apiKey: bob.readKey })).status).toBe(404);
    expect((await api.get(`/api/v1/categories/${MISSING_ID}`, { apiKey: alice.readKey })).status).toBe(404);
    expect((await api.patch(`/api/v1/categories/${child.body.id}`, { category: { name: "Ceramics" } }, { apiKey: alice.writeKey })).body.name).toBe("Ceramics");
    expect((await api.delete(`/api/v1/categories/${parent.body.id}`, { apiKey: alice.writeKey })).status).toBe(204);
    expect((await api.get(`/api/v1/categories/${child.body.id}`, { apiKey: alice.readKey })).body.parent).toBeNull();
  });
});

describe("family settings", () => {
  it("are read with any key of the family and changed by an admin only", async () => {
    const read = await api.get("/api/v1/family_settings", { apiKey: alice.readKey });
    expect(read.status).toBe(200);
    expect(FamilySettingsSchema.parse(read.body)).toMatchObject({ currency: "USD", month_start_day: 1 });
    const changed = await api.patch("/api/v1/family_settings", { family_settings: { month_start_day: 15 } }, { apiKey: alice.writeKey });
    expect(changed.status).toBe(200);
    expect(changed.body.month_start_day).toBe(15);
    expect((await api.patch("/api/v1/family_settings", { family_settings: { month_start_day: 29 } }, { apiKey: alice.writeKey })).status).toBe(422);
    expect((await api.patch("/api/v1/family_settings", { family_settings: { month_start_day: 2 } }, { apiKey: alice.readKey })).status).toBe(403);
    expect((await api.get("/api/v1/family_settings", { apiKey: bob.readKey })).body.month_start_day).toBe(1);
  });
});

describe("merchants: update and delete", () => {
  it("renames with write scope, 404s another family, and deletes (204)", async () => {
    const created = await api.post("/api/v1/merchants", { merchant: { name: "Edit Me" } }, { apiKey: alice.writeKey });
    const renamed = await api.patch(`/api/v1/merchants/${created.body.id}`, { merchant: { name: "Edited" } }, { apiKey: alice.writeKey });
    expect(renamed.status).toBe(200);
    expect(MerchantSchema.parse(renamed.body).name).toBe("Edited");
    expect((await api.patch(`/api/v1/merchants/${created.body.id}`, { merchant: { name: "x" } }, { apiKey: alice.readKey })).status).toBe(403);
    expect((await api.delete(`/api/v1/merchants/${created.body.id}`, { apiKey: bob.writeKey })).status).toBe(404);
    expect((await api.delete(`/api/v1/merchants/${created.body.id}`, { apiKey: alice.writeKey })).status).toBe(204);
    expect((await api.get(`/api/v1/merchants/${created.body.id}`, { apiKey: alice.readKey })).status).toBe(404);
  });
});
