import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "@hearth/gateway/gateway";
import { createInternalSigner, createLogger, listen } from "@hearth/service-kit";
import { ChatDetailSchema, MessageResponseSchema, type Message } from "@hearth/contracts";
import { AssistantFailure, type AssistantProvider } from "@hearth/chat/assistant/types";
import { createOpenAiCompatibleProvider } from "@hearth/chat/assistant/openai";
import { answersInOrder, completionTurn, startChatCompletionsServer, testPostgresAdminUrl, type TestChatCompletionsServer } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

/**
 * The assistant end to end, through the gateway: questions answered by the built-in assistant
 * from the family's own ledger (the figure in the answer checked against what the API reports),
 * a model behind an OpenAI-compatible endpoint calling the real tools, failures, timeouts, a chat
 * deleted mid-answer, retry and the answer's event stream.
 */

/** Opened by the test when the "write after the gate" answer may go on to its write. */
const writeGate = (() => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
})();

/** A provider the tests steer by the question: "fail" throws with a secret in the error, "hang" waits for its abort. */
const steered: AssistantProvider = {
  models: ["test-steered"],
  async reply(_model, io) {
    const question = io.history.at(-1)?.content ?? "";
    if (question.includes("fail")) throw new Error("upstream said: invalid key sk-live-SECRET at /srv/app.js:12");
    if (question.includes("refuse")) throw new AssistantFailure("The assistant's provider refused the request (HTTP 401)");
    if (question.includes("nul")) {
      const result = await io.callTool("get_tags", { junk: "y".repeat(70_000) });
      await io.callTool("get_tags", { "k\u0000": "v\uD800" });
      io.onText(`a\u0000b\uD800c ${String(result["error"])}`);
      return { content: `a\u0000b\uD800c ${String(result["error"])}` };
    }
    if (question.includes("flood")) for (let i = 0; i < 3; i++) io.onText("x".repeat(40_000));
    if (question.includes("loop")) for (;;) await io.callTool("get_tags", {});
    if (question.includes("write after the gate")) {
      await Promise.race([writeGate.opened, new Promise((_resolve, reject) => io.signal.addEventListener("abort", () => reject(io.signal.reason)))]);
      await io.callTool("create_tag", { name: "Made by the assistant" });
      return { content: "done" };
    }
    if (question.includes("hang")) {
      io.onText("Thinking");
      await new Promise((_resolve, reject) => io.signal.addEventListener("abort", () => reject(io.signal.reason)));
    }
    io.onText("ok");
    return { content: "ok" };
  },
};

const MODEL_KEY = "sk-test-provider-key";
let completions: TestChatCompletionsServer;
let system: TestSystem;
let api: ApiClient;
let alice: TestUser;

beforeAll(async () => {
  completions = await startChatCompletionsServer({ apiKey: MODEL_KEY, script: answersInOrder() });
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    assistant: {
      providers: [steered, createOpenAiCompatibleProvider({ baseUrl: completions.baseUrl, apiKey: MODEL_KEY, models: ["test-gpt"], timeoutMs: 5000 })],
      // Past 40 tool calls (the "loop forever" case) even on a busy CI machine, where 3 s once ran out
      // first (CI run s26a); the "hang on" case waits it out.
      replyTimeoutMs: 10_000,
    },
  });
  api = apiClient(system.url);
  alice = await signUpUser(api, "asker", { ai: true });
});
afterAll(async () => {
  await system?.stop();
  await completions?.stop();
});

const key = () => ({ apiKey: alice.writeKey });

async function newChat(user = alice): Promise<string> {
  const res = await api.post("/api/v1/chats", { title: "Questions" }, { apiKey: user.writeKey });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Asks, waits for the answer to end, and returns the question's final state and the answer message. */
async function ask(chatId: string, content: string, model = "hearth-builtin", user = alice) {
  const posted = await api.post(`/api/v1/chats/${chatId}/messages`, { content, model }, { apiKey: user.writeKey });
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  const question = MessageResponseSchema.parse(posted.body);
  const ended = await eventually(async () => {
    const res = await api.get(`/api/v1/chats/${chatId}/messages/${question.id}`, { apiKey: user.readKey });
    const state = MessageResponseSchema.parse(res.body);
    if (state.ai_response_status === "pending") throw new Error("still pending");
    return state;
  });
  const chat = ChatDetailSchema.parse((await api.get(`/api/v1/chats/${chatId}?per_page=100`, { apiKey: user.readKey })).body);
  const index = chat.messages.findIndex((m) => m.id === question.id);
  const answer = chat.messages.slice(index + 1).find((m) => m.type === "assistant_message");
  return { question: ended, answer: answer as Message, chat };
}

function firstOfLastMonth(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
}
const day = (date: Date, plus: number) => new Date(date.getTime() + plus * 86_400_000).toISOString().slice(0, 10);

describe("the built-in assistant answers from the ledger", () => {
  let checking: string;
  let groceries: string;

  beforeAll(async () => {
    const account = await api.post(
      "/api/v1/accounts",
      { account: { name: "Joint Checking", account_type: "depository", balance: "2500.00", opening_balance_date: "2024-01-01" } },
      key(),
    );
    checking = account.body.id;
    // A new family starts with Sure's default categories, Groceries among them.
    const categories = await api.get("/api/v1/categories?per_page=100", { apiKey: alice.readKey });
    groceries = (categories.body.categories as { id: string; name: string }[]).find((c) => c.name === "Groceries")!.id;
    const start = firstOfLastMonth();
    for (const [amount, plus] of [
      ["12.34", 2],
      ["45.66", 10],
      ["100.01", 20],
    ] as const) {
      const res = await api.post(
        "/api/v1/transactions",
        { transaction: { account_id: checking, date: day(start, plus), amount, name: "Market", nature: "expense", category_id: groceries } },
        key(),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  it("answers net worth with the balance sheet's figure and shows the tool call", async () => {
    // Once the account's sync has applied the three expenses (2,500.00 - 158.01).
    const sheet = await eventually(async () => {
      const res = await api.get("/api/v1/balance_sheet", { apiKey: alice.readKey });
      expect(res.body.net_worth.amount).toBe("2341.99");
      return res.body;
    });
    const { question, answer } = await ask(await newChat(), "What is our net worth?");
    expect(question).toMatchObject({ ai_response_status: "complete", ai_response_message: null });
    expect(answer.content).toContain(sheet.net_worth.formatted);
    expect(answer.tool_calls).toEqual([expect.objectContaining({ function_name: "get_balance_sheet", function_arguments: {} })]);
    expect(answer.tool_calls?.[0]?.function_result).toMatchObject({ net_worth_cents: expect.any(Number) });
  });

  it("answers spending on a category last month with the sum the transactions API lists", async () => {
    const start = firstOfLastMonth();
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const listed = await api.get(`/api/v1/transactions?category_id=${groceries}&start_date=${day(start, 0)}&end_date=${end}&per_page=100`, {
      apiKey: alice.readKey,
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const cents = (listed.body.transactions as { amount: string }[]).reduce(
      (sum, t) => sum + Math.round(Math.abs(Number(t.amount.replace(/[^0-9.-]/g, ""))) * 100),
      0,
    );
    expect(cents).toBe(15801);
    const { answer } = await ask(await newChat(), "How much did we spend on groceries last month?");
    expect(answer.content).toContain("$158.01");
    expect(answer.tool_calls?.map((call) => call.function_name)).toContain("get_income_statement");
  });

  it("says what it can answer when it does not understand", async () => {
    const { question, answer } = await ask(await newChat(), "Write me a poem about the sea");
    expect(question.ai_response_status).toBe("complete");
    expect(answer.content.length).toBeGreaterThan(20);
    expect(answer.tool_calls).toBeNull();
  });
});

describe("a model behind an OpenAI-compatible endpoint", () => {
  it("calls the family's tools and answers from their results", async () => {
    completions.setScript(
      answersInOrder([completionTurn.toolCalls({ name: "get_accounts", arguments: {} })], [completionTurn.text("You have one account: Joint Checking.")]),
    );
    const { question, answer } = await ask(await newChat(), "Which accounts do we have?", "test-gpt");
    expect(question.ai_response_status).toBe("complete");
    expect(answer).toMatchObject({ content: "You have one account: Joint Checking.", model: "test-gpt" });
    expect(answer.tool_calls).toEqual([expect.objectContaining({ function_name: "get_accounts" })]);
    // The tool's result went back to the model with its call's id; the key was the configured one.
    const second = completions.requests.at(-1)!;
    expect(second.authorization).toBe(`Bearer ${MODEL_KEY}`);
    const toolMessage = second.body.messages.find((m) => m["role"] === "tool")!;
    expect(toolMessage["tool_call_id"]).toBe("call_0");
    expect(String(toolMessage["content"])).toContain("Joint Checking");
  });

  it("ends the answer as failed with a safe message when the provider errors", async () => {
    completions.setScript(answersInOrder(completionTurn.error(401, `Incorrect API key provided: ${MODEL_KEY}`)));
    const chatId = await newChat();
    const { question } = await ask(chatId, "Which accounts do we have?", "test-gpt");
    expect(question.ai_response_status).toBe("failed");
    expect(question.ai_response_message).toMatch(/provider/i);
    const chat = (await api.get(`/api/v1/chats/${chatId}`, { apiKey: alice.readKey })).body;
    expect(chat.error).toBe(question.ai_response_message);
    expect(JSON.stringify(chat)).not.toContain(MODEL_KEY);
  });
});

describe("failures, timeouts, deletion", () => {
  it("a provider crash fails the answer with a generic message (no secret, no stack)", async () => {
    const chatId = await newChat();
    const { question } = await ask(chatId, "please fail", "test-steered");
    expect(question).toMatchObject({ ai_response_status: "failed", ai_response_message: "The assistant could not answer" });
    const chat = (await api.get(`/api/v1/chats/${chatId}`, { apiKey: alice.readKey })).body;
    expect(JSON.stringify(chat)).not.toMatch(/SECRET|app\.js/);
  });

  it("an answer past its timeout fails as too slow, keeping the text it had; a later question does not erase why", async () => {
    const chatId = await newChat();
    const { question, answer } = await ask(chatId, "hang on", "test-steered");
    expect(question).toMatchObject({ ai_response_status: "failed", ai_response_message: "The assistant took too long to answer" });
    expect(answer.content).toBe("Thinking");
    const later = await ask(chatId, "anything else", "test-steered");
    expect(later.question.ai_response_status).toBe("complete");
    const again = await api.get(`/api/v1/chats/${chatId}/messages/${question.id}`, { apiKey: alice.readKey });
    expect(again.body).toMatchObject({ ai_response_status: "failed", ai_response_message: "The assistant took too long to answer" });
  });

  it("an answer too long, or calling tools without end, fails with a safe message", async () => {
    const flood = await ask(await newChat(), "flood me", "test-steered");
    expect(flood.question).toMatchObject({ ai_response_status: "failed", ai_response_message: "The assistant's answer was too long" });
    expect(flood.answer.content).toHaveLength(80_000);
    const loop = await ask(await newChat(), "loop forever", "test-steered");
    expect(loop.question).toMatchObject({ ai_response_status: "failed", ai_response_message: "The assistant called too many tools for one answer" });
    expect(loop.answer.tool_calls).toHaveLength(40);
  });

  it("a model's NUL and broken characters are mended, not a stuck answer; oversized tool arguments are refused and recorded", async () => {
    const { question, answer } = await ask(await newChat(), "nul please", "test-steered");
    expect(question.ai_response_status).toBe("complete");
    expect(answer.content).toBe("a\uFFFDb\uFFFDc invalid_arguments");
    expect(answer.tool_calls).toEqual([
      expect.objectContaining({ function_name: "get_tags", function_result: { error: "invalid_arguments", hint: expect.stringContaining("64 KB") } }),
      expect.objectContaining({ function_name: "get_tags", function_arguments: { "k\uFFFD": "v\uFFFD" } }),
    ]);
    expect(answer.tool_calls?.[0]?.function_arguments).toEqual({ too_large_bytes: expect.any(Number) });
  });

  it("a sixth question while five answers are being produced is 429 with Retry-After", async () => {
    const busy = await signUpUser(api, "busy-asker", { ai: true });
    const chatId = await newChat(busy);
    for (let i = 0; i < 5; i++) {
      const posted = await api.post(`/api/v1/chats/${chatId}/messages`, { content: `hang ${i}`, model: "test-steered" }, { apiKey: busy.writeKey });
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    }
    const refused = await api.post(`/api/v1/chats/${chatId}/messages`, { content: "one more", model: "test-steered" }, { apiKey: busy.writeKey });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limit_exceeded");
    expect(refused.headers.get("retry-after")).toBe("5");
  });

  it("a chat deleted while its answer is produced leaves nothing behind", async () => {
    const chatId = await newChat();
    await api.post(`/api/v1/chats/${chatId}/messages`, { content: "hang on", model: "test-steered" }, key());
    await eventually(async () => {
      const pending = await system.db.chat.chatMessage.findFirst({ where: { chatId, kind: "assistant_message", startedAt: { not: null } } });
      if (!pending) throw new Error("not started");
    });
    expect((await api.delete(`/api/v1/chats/${chatId}`, key())).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await system.db.chat.chatMessage.count({ where: { chatId } })).toBe(0);
    expect((await api.get(`/api/v1/chats/${chatId}`, { apiKey: alice.readKey })).status).toBe(404);
  });

  it("retry: 202 with a new answer to the same question, which then completes", async () => {
    const chatId = await newChat();
    const first = await ask(chatId, "What is our net worth?");
    const retried = await api.post(`/api/v1/chats/${chatId}/messages/retry`, undefined, key());
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ message: "Retry initiated", message_id: expect.any(String) });
    // The new answer can be polled at once, pending until it is produced.
    const queued = await api.get(`/api/v1/chats/${chatId}/messages/${retried.body.message_id}`, { apiKey: alice.readKey });
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({
      id: retried.body.message_id,
      type: "assistant_message",
      ai_response_status: expect.stringMatching(/pending|complete/),
    });
    const missing = await api.get(`/api/v1/chats/${chatId}/messages/00000000-0000-4000-8000-000000000000`, { apiKey: alice.readKey });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Message not found");
    const again = await eventually(async () => {
      const res = await api.get(`/api/v1/chats/${chatId}/messages/${retried.body.message_id}`, { apiKey: alice.readKey });
      if (res.status !== 200 || res.body.ai_response_status !== "complete") throw new Error("not yet");
      return res.body;
    });
    expect(again.content).toBe(first.answer.content);
    const emptyChat = await newChat();
    const none = await api.post(`/api/v1/chats/${emptyChat}/messages/retry`, undefined, key());
    expect(none.status).toBe(422);
    // As Sure's messages_controller_test: the sentence is the body's `error`.
    expect(none.body).toMatchObject({ error: "No assistant message to retry", code: "unprocessable_entity", message: "No assistant message to retry" });
    const elsewhere = await api.post(`/api/v1/chats/00000000-0000-4000-8000-000000000000/messages/retry`, undefined, key());
    expect([elsewhere.status, elsewhere.body.error]).toEqual([404, "Chat not found"]);
  });
});

describe("the asker's standing, read again while the answer runs", () => {
  it("a write tool after the asker's key was revoked does not run: the answer fails saying why", async () => {
    const user = await signUpUser(api, "revoked-asker", { ai: true });
    const created = await api.post("/api/v1/api_keys", { api_key: { name: "assistant", scopes: ["read_write"] } }, { token: user.accessToken });
    const chatId = await newChat(user);
    const posted = await api.post(
      `/api/v1/chats/${chatId}/messages`,
      { content: "write after the gate", model: "test-steered" },
      { apiKey: created.body.key as string },
    );
    expect(posted.status).toBe(201);
    const question = MessageResponseSchema.parse(posted.body);
    const byToken = { token: user.accessToken };
    // The answer has begun (its standing read then: held), and waits before its write.
    await eventually(async () => {
      const answer = await system.db.chat.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message" } });
      expect(answer.startedAt).not.toBeNull();
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await api.delete(`/api/v1/api_keys/${created.body.id as string}`, byToken)).status).toBe(204);
    writeGate.open();
    const ended = await eventually(async () => {
      const state = MessageResponseSchema.parse((await api.get(`/api/v1/chats/${chatId}/messages/${question.id}`, byToken)).body);
      if (state.ai_response_status === "pending") throw new Error("still pending");
      return state;
    });
    expect(ended.ai_response_status).toBe("failed");
    const chat = ChatDetailSchema.parse((await api.get(`/api/v1/chats/${chatId}`, byToken)).body);
    expect(chat.error).toMatch(/revoked/);
    const tags = await api.get("/api/v1/tags", byToken);
    expect(JSON.stringify(tags.body)).not.toContain("Made by the assistant");
  });

  it("an open answer stream reads its credential again: the key revoked, the stream ends with an error event", async () => {
    // A gateway that reads it again every 200 ms, not every minute (the same system behind it).
    const quick = await createGateway({
      config: system.config,
      db: system.db.gateway,
      log: createLogger("gateway-quick-recheck", "silent"),
      streamRecheckMs: 200,
    });
    const server = await listen(createServer(quick.app), 0);
    try {
      const user = await signUpUser(api, "streaming-asker", { ai: true });
      const created = await api.post("/api/v1/api_keys", { api_key: { name: "stream", scopes: ["read_write"] } }, { token: user.accessToken });
      const key = created.body.key as string;
      const chatId = await newChat(user);
      const posted = await api.post(`/api/v1/chats/${chatId}/messages`, { content: "hang on", model: "test-steered" }, { apiKey: key });
      const stream = await fetch(`${server.url}/api/v1/chats/${chatId}/messages/${posted.body.id as string}/stream`, { headers: { "x-api-key": key } });
      expect(stream.status).toBe(200);
      expect((await api.delete(`/api/v1/api_keys/${created.body.id as string}`, { token: user.accessToken })).status).toBe(204);
      const events = [...(await stream.text()).matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map(([, event, data]) => ({ event, data: JSON.parse(data!) }));
      // Ended by the revocation, before the answer (which hangs until its reply timeout) did: the
      // gateway's read of the key ends the stream, or, first on a busy machine (CI run s27b), the
      // chat service's own read of the asker's standing fails the answer saying why.
      const last = events.at(-1);
      if (last?.event === "error") expect(last).toEqual({ event: "error", data: { error: "unauthorized" } });
      else expect(last).toMatchObject({ event: "done", data: { status: "failed", error: expect.stringMatching(/revoked/) } });
      expect(events.filter((event) => event.event === "done" || event.event === "error")).toHaveLength(1);
    } finally {
      await quick.stop();
      await server.close();
    }
  });

  it("is the gateway's to answer only to chat's internal token: none, one for another service, or one from another service is 401", async () => {
    const none = await fetch(`${system.url}/internal/actor-standing`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(none.status).toBe(401);
    const forFinance = await createInternalSigner(system.config.INTERNAL_AUTH_SECRET, "chat")("finance", {
      requestId: "test",
      actor: { userId: alice.id, familyId: randomUUID(), role: "admin", scopes: ["read_write"], authMethod: "api_key", apiKeyId: randomUUID() },
    });
    const misaddressed = await fetch(`${system.url}/internal/actor-standing`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hearth-internal": forFinance },
      body: "{}",
    });
    expect(misaddressed.status).toBe(401);
    // Addressed to the gateway, but from a service that has no business asking.
    const fromFinance = await createInternalSigner(system.config.INTERNAL_AUTH_SECRET, "finance")("gateway", {
      requestId: "test",
      actor: { userId: alice.id, familyId: randomUUID(), role: "admin", scopes: ["read_write"], authMethod: "api_key", apiKeyId: randomUUID() },
    });
    const wrongCaller = await fetch(`${system.url}/internal/actor-standing`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hearth-internal": fromFinance },
      body: "{}",
    });
    expect(wrongCaller.status).toBe(401);
  });
});

describe("the answer's event stream", () => {
  it("streams text deltas, tool calls and a final event; their text is the stored answer", async () => {
    const chatId = await newChat();
    const posted = await api.post(`/api/v1/chats/${chatId}/messages`, { content: "What is our net worth?", model: "hearth-builtin" }, key());
    const res = await fetch(`${system.url}/api/v1/chats/${chatId}/messages/${posted.body.id}/stream`, { headers: { "x-api-key": alice.readKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = [...(await res.text()).matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map(([, event, data]) => ({ event, data: JSON.parse(data!) }));
    expect(events.at(-1)).toEqual({ event: "done", data: { message_id: expect.any(String), status: "complete", error: null } });
    expect(events.filter((e) => e.event === "tool_call").map((e) => e.data.function_name)).toEqual(["get_balance_sheet"]);
    const text = events
      .filter((e) => e.event === "text")
      .map((e) => e.data.delta as string)
      .join("");
    const answer = await api.get(`/api/v1/chats/${chatId}/messages/${events.at(-1)!.data.message_id}`, { apiKey: alice.readKey });
    expect(text).toBe(answer.body.content);
  });

  it("404 for another user's chat; 403 for a user without AI", async () => {
    const chatId = await newChat();
    const bob = await signUpUser(api, "streamer", { ai: true });
    const other = await fetch(`${system.url}/api/v1/chats/${chatId}/messages/${chatId}/stream`, { headers: { "x-api-key": bob.readKey } });
    expect(other.status).toBe(404);
  });
});

/** Every chat route (and the stream) answers the user 403 feature_disabled with this message, the scope check coming after. */
async function expectEveryChatRouteRefused(user: TestUser, chatId: string, message: string): Promise<void> {
  const attempts = [
    api.get("/api/v1/chats", { apiKey: user.readKey }),
    api.post("/api/v1/chats", { title: "x" }, { apiKey: user.writeKey }),
    // Before the scope check, as Sure's require_ai_enabled.
    api.post("/api/v1/chats", { title: "x" }, { apiKey: user.readKey }),
    api.get(`/api/v1/chats/${chatId}`, { apiKey: user.readKey }),
    api.patch(`/api/v1/chats/${chatId}`, { title: "x" }, { apiKey: user.writeKey }),
    api.delete(`/api/v1/chats/${chatId}`, { apiKey: user.writeKey }),
    api.post(`/api/v1/chats/${chatId}/messages`, { content: "hi" }, { apiKey: user.writeKey }),
    api.post(`/api/v1/chats/${chatId}/messages/retry`, undefined, { apiKey: user.writeKey }),
  ];
  for (const res of await Promise.all(attempts)) {
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: "feature_disabled", message });
  }
  const stream = await fetch(`${system.url}/api/v1/chats/${chatId}/messages/${chatId}/stream`, { headers: { "x-api-key": user.readKey } });
  expect(stream.status).toBe(403);
}

describe("AI must be turned on", () => {
  it("answers 403 feature_disabled on every chat route for a user who has not turned AI on", async () => {
    const carol = await signUpUser(api, "no-ai");
    const id = "00000000-0000-4000-8000-000000000000";
    await expectEveryChatRouteRefused(carol, id, "AI features are not enabled for this user");
    expect((await api.patch("/api/v1/auth/enable_ai", undefined, { apiKey: carol.writeKey })).status).toBe(200);
    expect((await api.get("/api/v1/chats", { apiKey: carol.readKey })).status).toBe(200);
  });

  it("answers 403 feature_disabled on every chat route while the family has AI off, whatever the user's switch; on again, chats answer", async () => {
    const dana = await signUpUser(api, "family-off", { ai: true });
    const chatId = ChatDetailSchema.parse((await api.post("/api/v1/chats", { title: "before" }, { apiKey: dana.writeKey })).body).id;
    const off = await api.patch("/api/v1/family_settings", { family_settings: { ai_enabled: false } }, { apiKey: dana.writeKey });
    expect(off.status).toBe(200);
    expect(off.body.ai_enabled).toBe(false);
    await expectEveryChatRouteRefused(dana, chatId, "AI features are turned off for this family");
    // Another family is not touched by this one's switch.
    expect((await api.get("/api/v1/chats", { apiKey: alice.readKey })).status).toBe(200);
    // A read-only key cannot turn it back on: family settings are the admin's, with write scope.
    expect((await api.patch("/api/v1/family_settings", { family_settings: { ai_enabled: true } }, { apiKey: dana.readKey })).status).toBe(403);
    expect((await api.patch("/api/v1/family_settings", { family_settings: { ai_enabled: true } }, { apiKey: dana.writeKey })).body.ai_enabled).toBe(true);
    const chat = await api.get(`/api/v1/chats/${chatId}`, { apiKey: dana.readKey });
    expect(chat.status).toBe(200);
    expect(chat.body.title).toBe("before");
  });
});
