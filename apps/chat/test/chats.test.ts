import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatCollectionSchema, ChatDetailSchema, type Actor } from "@hearth/contracts";
import { NO_ANSWERS, contextOf, expectAppError, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  chat = await startChat(NO_ANSWERS);
});
afterAll(async () => chat?.stop());

const as = (actor: Actor) => ({
  list: async (page: { page?: number; per_page?: number } = {}) => ChatCollectionSchema.parse(await chat.call("chats.list", "query", page, contextOf(actor))),
  create: async (body: unknown) => ChatDetailSchema.parse(await chat.call("chats.create", "mutation", body, contextOf(actor))),
});

describe("chat: creating", () => {
  it("creates a chat and its first message for the user and family of the signed context", async () => {
    const alice = newActor();
    const created = await as(alice).create({ title: " Budget help ", message: "How much did I spend?", model: "hearth-builtin" });
    expect(created).toMatchObject({ title: "Budget help", error: null, pagination: null });
    expect(created.messages).toEqual([
      expect.objectContaining({ type: "user_message", role: "user", content: "How much did I spend?", model: "hearth-builtin", tool_calls: null }),
    ]);
    expect(await chat.db.chat.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ familyId: alice.familyId, userId: alice.userId });
    // The question and, hidden until it has text, the placeholder that queues its answer.
    const stored = await chat.db.chatMessage.findMany({ where: { chatId: created.id }, orderBy: { createdAt: "asc" } });
    expect(stored).toMatchObject([
      { kind: "user_message", aiResponseStatus: "pending" },
      { kind: "assistant_message", aiResponseStatus: "pending", content: "", replyToId: stored[0]?.id, model: "hearth-builtin" },
    ]);
    expect(stored[1]?.askedBy).toEqual({ actor: alice, requestId: expect.any(String) });
  });

  it("answers validation_failed for a blank or too long title or a blank message, and stores nothing", async () => {
    const actor = newActor();
    for (const body of [{}, { title: "  " }, { title: "x".repeat(256) }, { title: "Ok", message: " " }]) {
      const error = await expectAppError(as(actor).create(body), "validation_failed");
      expect(error.errors?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await chat.db.chat.count({ where: { userId: actor.userId } })).toBe(0);
  });
});

describe("chat: listing", () => {
  it("reports each chat's message count and the time of its latest message", async () => {
    const actor = newActor();
    const busy = await as(actor).create({ title: "Busy", message: "first" });
    const latest = new Date(Date.now() + 60_000);
    await chat.db.chatMessage.createMany({
      data: [
        { chatId: busy.id, kind: "assistant_message", role: "assistant", content: "answer", createdAt: latest },
        { chatId: busy.id, kind: "user_message", role: "user", content: "second", createdAt: new Date(Date.now() + 30_000) },
      ],
    });
    const empty = await as(actor).create({ title: "Empty" });

    const { chats } = await as(actor).list();
    expect(chats.find((c) => c.id === busy.id)).toMatchObject({ message_count: 3, last_message_at: latest.toISOString() });
    expect(chats.find((c) => c.id === empty.id)).toMatchObject({ message_count: 0, last_message_at: null });
  });

  it("shows a user only their own chats: not to another user of the family, not to another family", async () => {
    const alice = newActor();
    const created = await as(alice).create({ title: "Mine" });
    for (const other of [newActor({ familyId: alice.familyId }), newActor({ userId: alice.userId })]) {
      const { chats, pagination } = await as(other).list();
      expect(chats.map((c) => c.id)).not.toContain(created.id);
      expect(pagination.total_count).toBe(0);
    }
    expect((await as(alice).list()).chats.map((c) => c.id)).toEqual([created.id]);
  });

  it("pages newest first with the total across pages", async () => {
    const actor = newActor();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await as(actor).create({ title: `Chat ${i}` })).id);
    const first = await as(actor).list({ page: 1, per_page: 2 });
    expect(first.chats.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.pagination).toEqual({ page: 1, per_page: 2, total_count: 3, total_pages: 2 });
    const second = await as(actor).list({ page: 2, per_page: 2 });
    expect(second.chats.map((c) => c.id)).toEqual([ids[0]]);
    expect((await as(actor).list({ page: 3, per_page: 2 })).chats).toEqual([]);
    expect((await as(actor).list()).pagination).toMatchObject({ page: 1, per_page: 25 });
  });

  it("reads page and per_page as Sure does: page below 1 is 1, per_page above 100 is 100, below 1 is 25", async () => {
    const actor = newActor();
    expect((await as(actor).list({ page: 0 })).pagination).toMatchObject({ page: 1, per_page: 25 });
    expect((await as(actor).list({ per_page: 101 })).pagination).toMatchObject({ per_page: 100 });
    expect((await as(actor).list({ per_page: 0 })).pagination).toMatchObject({ per_page: 25 });
  });
});
