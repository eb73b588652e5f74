import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBodySchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type ApiResponse, type TestSystem, type TestUser } from "../src";

// The inputs a review of hostile input found answering 500, each a 4xx with the error body naming the
// field (a bad query parameter is 422 validation_failed, as Sure answers a bad filter). fuzz-routes.test.ts looks for more of them over every route.
let system: TestSystem;
let api: ApiClient;
let alice: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  alice = await signUpUser(api, "bad-input", { ai: true });
});
afterAll(async () => system?.stop());

function expectRefusal(res: ApiResponse, status: number, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(ErrorBodySchema.safeParse(res.body).success).toBe(true);
  expect(res.body.message).toContain(field);
}

const LONE_SURROGATE = "\ud800";

describe("query numbers out of every range", () => {
  it.each(["1e300", "-1", "1.5", "NaN", "Infinity", "99999999999999999999", "1000001"])("page=%s on a list is 422 naming page", async (value) => {
    expectRefusal(await api.get(`/api/v1/categories?page=${value}`, { apiKey: alice.readKey }), 422, "page");
    expectRefusal(await api.get(`/api/v1/chats?page=${value}`, { apiKey: alice.readKey }), 422, "page");
  });

  it.each(["1e300", "-5", "2.5", "99999999999999999999"])("per_page=%s is 422 naming per_page", async (value) => {
    expectRefusal(await api.get(`/api/v1/transactions?per_page=${value}`, { apiKey: alice.readKey }), 422, "per_page");
  });

  it("keeps reading valid and wordy page parameters as Sure does", async () => {
    const page = async (query: string) => (await api.get(`/api/v1/categories?${query}`, { apiKey: alice.readKey })).body.pagination;
    expect(await page("page=2&per_page=3")).toMatchObject({ page: 2, per_page: 3 });
    expect(await page("page=1000000")).toMatchObject({ page: 1000000 });
    expect(await page("per_page=1000")).toMatchObject({ per_page: 100 });
    expect(await page("per_page=abc&page=0")).toMatchObject({ page: 1, per_page: 25 });
    expect(await page("page=&per_page=")).toMatchObject({ page: 1, per_page: 25 });
  });

  it.each(["1e300", "1.5", "Infinity", "99999999999999999999"])("the audit log's offset=%s is 422 naming offset", async (value) => {
    expectRefusal(await api.get(`/api/v1/audit-logs?offset=${value}`, { token: alice.accessToken }), 422, "offset");
  });

  it("the audit log's limit=1e300 is 422 naming limit", async () => {
    expectRefusal(await api.get("/api/v1/audit-logs?limit=1e300", { token: alice.accessToken }), 422, "limit");
  });
});

describe("dates that are not real calendar dates in range", () => {
  it.each(["0000-01-01", "2024-02-30", "99999-01-01", "1899-12-31", "3000-01-01"])("start_date=%s on transactions is 422 naming start_date", async (value) => {
    expectRefusal(await api.get(`/api/v1/transactions?start_date=${value}`, { apiKey: alice.readKey }), 422, "start_date");
  });

  it("a far but real date filter still answers", async () => {
    const res = await api.get("/api/v1/transactions?start_date=1900-01-01&end_date=2999-12-31", { apiKey: alice.readKey });
    expect(res.status).toBe(200);
  });
});

describe("lone UTF-16 surrogates in strings", () => {
  it("in a user's first name (an audited change) is 422 naming the field, and the name is unchanged", async () => {
    const res = await api.patch("/api/v1/users/me", { user: { first_name: `Al${LONE_SURROGATE}ice` } }, { token: alice.accessToken });
    expectRefusal(res, 422, "first_name");
    expect((await api.get("/api/v1/users/me", { token: alice.accessToken })).body.user.first_name).toBe("Test");
  });

  it("in a tag, an account and a chat title is 422 naming the field", async () => {
    expectRefusal(await api.post("/api/v1/tags", { tag: { name: LONE_SURROGATE } }, { apiKey: alice.writeKey }), 422, "name");
    const account = { account: { name: `Cash ${LONE_SURROGATE}`, account_type: "depository", balance: "1.00" } };
    expectRefusal(await api.post("/api/v1/accounts", account, { apiKey: alice.writeKey }), 422, "name");
    expectRefusal(await api.post("/api/v1/chats", { title: `\udc00 low first` }, { apiKey: alice.writeKey }), 422, "title");
  });

  it("in a key of the body or a query parameter is refused too", async () => {
    expect((await api.post("/api/v1/tags", { tag: { name: "ok" }, [LONE_SURROGATE]: 1 }, { apiKey: alice.writeKey })).status).toBe(422);
    // Percent-decoding cannot make one (invalid UTF-8 becomes U+FFFD), so a query is safe by construction.
    expect((await api.get("/api/v1/transactions?search=%ED%A0%80", { apiKey: alice.readKey })).status).toBeLessThan(500);
  });

  it("paired surrogates (an emoji) are text like any other", async () => {
    const res = await api.post("/api/v1/tags", { tag: { name: "Pets \ud83d\udc36" } }, { apiKey: alice.writeKey });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Pets 🐶");
  });
});
