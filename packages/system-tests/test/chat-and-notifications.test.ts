import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatCollectionSchema, ChatDetailSchema, PushSubscriptionSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  alice = await signUpUser(api, "alice", { ai: true });
  bob = await signUpUser(api, "bob", { ai: true });
});
afterAll(async () => system?.stop());

describe("chats", () => {
  it("creates a chat with a first message and lists it with its figures", async () => {
    const created = await api.post(
      "/api/v1/chats",
      { title: "Budget help", message: "How much did I spend?", model: "hearth-builtin" },
      { apiKey: alice.writeKey },
    );
    expect(created.status).toBe(201);
    const chat = ChatDetailSchema.parse(created.body);
    expect(chat).toMatchObject({ title: "Budget help", error: null, pagination: null });
    expect(chat.messages).toHaveLength(1);
    expect(chat.messages[0]).toMatchObject({ type: "user_message", role: "user", content: "How much did I spend?", model: "hearth-builtin" });

    const empty = await api.post("/api/v1/chats", { title: "Empty" }, { apiKey: alice.writeKey });
    expect(empty.status).toBe(201);
    expect(empty.body.messages).toEqual([]);

    const list = await api.get("/api/v1/chats", { apiKey: alice.readKey });
    expect(list.status).toBe(200);
    const { chats, pagination } = ChatCollectionSchema.parse(list.body);
    expect(pagination).toMatchObject({ page: 1, per_page: 25, total_count: 2, total_pages: 1 });
    const budget = chats.find((c) => c.id === chat.id);
    // The question, and its answer once the built-in assistant has written it (in the background).
    expect(budget?.message_count).toBeGreaterThanOrEqual(1);
    expect((budget?.last_message_at ?? "") >= chat.messages[0]!.created_at).toBe(true);
    expect(chats.find((c) => c.id === empty.body.id)).toMatchObject({ message_count: 0, last_message_at: null });
  });

  it("pages the list", async () => {
    const user = await signUpUser(api, "pager", { ai: true });
    for (let i = 0; i < 3; i++) await api.post("/api/v1/chats", { title: `Chat ${i}` }, { apiKey: user.writeKey });
    const page2 = await api.get("/api/v1/chats?page=2&per_page=2", { apiKey: user.readKey });
    expect(page2.status).toBe(200);
    expect(page2.body.chats).toHaveLength(1);
    expect(page2.body.pagination).toMatchObject({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
    // Sure's reading of page parameters: clamped, never refused.
    expect((await api.get("/api/v1/chats?per_page=101", { apiKey: user.readKey })).body.pagination).toMatchObject({ per_page: 100 });
    expect((await api.get("/api/v1/chats?per_page=abc&page=0", { apiKey: user.readKey })).body.pagination).toMatchObject({ page: 1, per_page: 25 });
  });

  it("validates input with 422 and needs write scope", async () => {
    for (const body of [{}, { title: "" }, { title: "x".repeat(256) }, { title: "Ok", message: "" }]) {
      const res = await api.post("/api/v1/chats", body, { apiKey: alice.writeKey });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
    expect((await api.post("/api/v1/chats", { title: "Nope" }, { apiKey: alice.readKey })).status).toBe(403);
  });

  it("shows each user only their own chats", async () => {
    const bobs = await api.get("/api/v1/chats", { apiKey: bob.readKey });
    expect(bobs.body.chats).toEqual([]);
    expect(bobs.body.pagination.total_count).toBe(0);
  });
});

describe("push subscriptions", () => {
  const token = "a1".repeat(32);

  it("registers a token (201, push subscription shape) and updates it in place when registered again", async () => {
    const first = await api.post("/api/v1/push_subscriptions", { token, environment: "sandbox", platform: "ios" }, { apiKey: alice.writeKey });
    expect(first.status).toBe(201);
    expect(PushSubscriptionSchema.parse(first.body)).toMatchObject({ environment: "sandbox", platform: "ios" });

    const again = await api.post("/api/v1/push_subscriptions", { token, environment: "production", platform: "ios" }, { apiKey: alice.writeKey });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.environment).toBe("production");
    expect(Date.parse(again.body.last_registered_at)).toBeGreaterThanOrEqual(Date.parse(first.body.last_registered_at));
    expect(await system.db.notifications.pushSubscription.count({ where: { token } })).toBe(1);
  });

  it("keeps the same token of two users apart", async () => {
    const bobs = await api.post("/api/v1/push_subscriptions", { token, environment: "sandbox", platform: "ios" }, { apiKey: bob.writeKey });
    expect(bobs.status).toBe(201);
    expect(await system.db.notifications.pushSubscription.count({ where: { token } })).toBe(2);
  });

  it("accepts 64 and 200 hex characters and refuses anything else with 422", async () => {
    for (const good of ["0".repeat(64), "f".repeat(200)]) {
      expect((await api.post("/api/v1/push_subscriptions", { token: good, environment: "sandbox", platform: "ios" }, { apiKey: alice.writeKey })).status).toBe(
        201,
      );
    }
    const bad = [
      { token: "a".repeat(63), environment: "sandbox", platform: "ios" },
      { token: "a".repeat(201), environment: "sandbox", platform: "ios" },
      { token: "A".repeat(64), environment: "sandbox", platform: "ios" },
      { token: "g".repeat(64), environment: "sandbox", platform: "ios" },
      { token: "a".repeat(64), environment: "staging", platform: "ios" },
      { token: "a".repeat(64), environment: "sandbox", platform: "android" },
      { environment: "sandbox", platform: "ios" },
    ];
    for (const body of bad) {
      const res = await api.post("/api/v1/push_subscriptions", body, { apiKey: alice.writeKey });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
  });

  it("needs write scope", async () => {
    const res = await api.post("/api/v1/push_subscriptions", { token, environment: "sandbox", platform: "ios" }, { apiKey: alice.readKey });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("insufficient_scope");
  });
});
