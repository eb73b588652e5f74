import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatDetailSchema, MessageResponseSchema, RetryResponseSchema, type Actor } from "@hearth/contracts";
import { MAX_PENDING_ANSWERS_PER_USER } from "../src/messages/message-queries";
import { NO_ANSWERS, contextOf, expectAppError, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  chat = await startChat(NO_ANSWERS);
});
afterAll(async () => chat?.stop());

const as = (actor: Actor) => ({
  create: async (body: unknown) => ChatDetailSchema.parse(await chat.call("chats.create", "mutation", body, contextOf(actor))),
  show: async (input: unknown) => ChatDetailSchema.parse(await chat.call("chats.show", "query", input, contextOf(actor))),
  rename: async (input: unknown) => ChatDetailSchema.parse(await chat.call("chats.update", "mutation", input, contextOf(actor))),
  destroy: (id: string) => chat.call("chats.destroy", "mutation", { id }, contextOf(actor)),
  ask: async (input: unknown) => MessageResponseSchema.parse(await chat.call("messages.create", "mutation", input, contextOf(actor))),
  retry: async (chatId: string) => RetryResponseSchema.parse(await chat.call("messages.retry", "mutation", { chat_id: chatId }, contextOf(actor))),
});

/** Ends the pending answer of a chat as a worker would, with `content`. */
async function answer(chatId: string, content: string): Promise<void> {
  const pending = await chat.db.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message", aiResponseStatus: "pending" } });
  await chat.db.chatMessage.update({ where: { id: pending.id }, data: { content, aiResponseStatus: "complete" } });
  await chat.db.chatMessage.update({ where: { id: pending.replyToId! }, data: { aiResponseStatus: "complete" } });
}

describe("messages", () => {
  it("stores a question (201 MessageResponse, pending) and queues its answer; the placeholder stays out of the chat", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Money" });
    const asked = await as(actor).ask({ chat_id: id, content: "  What is our net worth?  " });
    expect(asked).toMatchObject({
      chat_id: id,
      type: "user_message",
      role: "user",
      content: "What is our net worth?",
      model: "hearth-builtin",
      ai_response_status: "pending",
      ai_response_message: "AI response is being generated",
      tool_calls: null,
    });
    const shown = await as(actor).show({ id });
    expect(shown.messages.map((m) => m.id)).toEqual([asked.id]);
    expect(shown.pagination).toEqual({ page: 1, per_page: 50, total_count: 1, total_pages: 1 });
    expect(await chat.db.chatMessage.count({ where: { chatId: id, kind: "assistant_message", aiResponseStatus: "pending" } })).toBe(1);
  });

  it("refuses blank and over-long content and unknown models (422 naming the available ones), storing nothing", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Bad input" });
    for (const content of ["", "   ", "x".repeat(10_001)]) await expectAppError(as(actor).ask({ chat_id: id, content }), "validation_failed");
    const unknown = await expectAppError(as(actor).ask({ chat_id: id, content: "hi", model: "gpt-9" }), "validation_failed");
    expect(unknown.message).toContain("hearth-builtin");
    await expectAppError(as(actor).create({ title: "x", message: "hi", model: "gpt-9" }), "validation_failed");
    expect(await chat.db.chatMessage.count({ where: { chatId: id } })).toBe(0);
    // 10,000 characters is the limit, not over it.
    expect((await as(actor).ask({ chat_id: id, content: "y".repeat(10_000) })).content).toHaveLength(10_000);
  });

  it("answers 404 for another user's or family's chat, on every route", async () => {
    const alice = newActor();
    const { id } = await as(alice).create({ title: "Private", message: "hello" });
    for (const other of [newActor({ familyId: alice.familyId }), newActor({ userId: alice.userId })]) {
      await expectAppError(as(other).show({ id }), "record_not_found");
      await expectAppError(as(other).rename({ id, title: "Mine now" }), "record_not_found");
      await expectAppError(as(other).destroy(id), "record_not_found");
      await expectAppError(as(other).ask({ chat_id: id, content: "hi" }), "record_not_found");
      await expectAppError(as(other).retry(id), "record_not_found");
    }
    expect((await as(alice).show({ id })).title).toBe("Private");
  });

  it("pages a chat's messages oldest first", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Long" });
    const asked: string[] = [];
    for (let i = 0; i < 5; i++) {
      asked.push((await as(actor).ask({ chat_id: id, content: `question ${i}` })).id);
      await answer(id, `answer ${i}`);
    }
    const page = await as(actor).show({ id, page: 2, per_page: 4 });
    expect(page.pagination).toEqual({ page: 2, per_page: 4, total_count: 10, total_pages: 3 });
    expect(page.messages.map((m) => m.content)).toEqual(["question 2", "answer 2", "question 3", "answer 3"]);
  });

  it("renames (200 ChatDetail) and deletes (messages and tool calls with it)", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Old", message: "hi" });
    expect(await as(actor).rename({ id, title: " New " })).toMatchObject({ id, title: "New" });
    await expectAppError(as(actor).rename({ id, title: " " }), "validation_failed");
    const pending = await chat.db.chatMessage.findFirstOrThrow({ where: { chatId: id, kind: "assistant_message" } });
    await chat.db.toolCall.create({ data: { messageId: pending.id, functionName: "get_accounts", functionArguments: {}, functionResult: { accounts: [] } } });
    await as(actor).destroy(id);
    await expectAppError(as(actor).show({ id }), "record_not_found");
    expect(await chat.db.chatMessage.count({ where: { chatId: id } })).toBe(0);
    expect(await chat.db.toolCall.count({ where: { messageId: pending.id } })).toBe(0);
  });
});

describe("the waiting answers of one user", () => {
  it("are capped: parallel questions beyond the cap are 429 (nothing stored), and a slot frees when an answer ends", async () => {
    const actor = newActor();
    const chats = [(await as(actor).create({ title: "A" })).id, (await as(actor).create({ title: "B" })).id];
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => as(actor).ask({ chat_id: chats[i % 2], content: `q${i}` })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(MAX_PENDING_ANSWERS_PER_USER);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    // reset_in_seconds is what the gateway sends as Retry-After.
    for (const { reason } of refused) expect(reason).toMatchObject({ code: "rate_limit_exceeded", details: { reset_in_seconds: 5 } });
    expect(await chat.db.chatMessage.count({ where: { chatId: { in: chats }, kind: "user_message" } })).toBe(MAX_PENDING_ANSWERS_PER_USER);
    // Another user is not held back by this one.
    const other = newActor({ familyId: actor.familyId });
    await as(other).create({ title: "Mine", message: "hello" });

    await answer(chats[0]!, "done");
    await as(actor).ask({ chat_id: chats[0], content: "one more" });
  });
});

describe("retry", () => {
  it("422 when the last message is the user's; 409 while the answer is pending; 202 with a new answer once it ended", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Retry" });
    await expectAppError(as(actor).retry(id), "unprocessable_entity");
    const asked = await as(actor).ask({ chat_id: id, content: "What is our net worth?" });
    await expectAppError(as(actor).retry(id), "conflict");
    await answer(id, "first answer");

    const retried = await as(actor).retry(id);
    expect(retried.message).toBe("Retry initiated");
    const queued = await chat.db.chatMessage.findUniqueOrThrow({ where: { id: retried.message_id } });
    expect(queued).toMatchObject({ kind: "assistant_message", aiResponseStatus: "pending", replyToId: asked.id, content: "" });
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: asked.id } })).toMatchObject({ aiResponseStatus: "pending" });
  });

  it("two retries at once queue one answer", async () => {
    const actor = newActor();
    const { id } = await as(actor).create({ title: "Race", message: "hi" });
    await answer(id, "hello");
    const outcomes = await Promise.allSettled([as(actor).retry(id), as(actor).retry(id), as(actor).retry(id)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await chat.db.chatMessage.count({ where: { chatId: id, aiResponseStatus: "pending", kind: "assistant_message" } })).toBe(1);
  });
});
