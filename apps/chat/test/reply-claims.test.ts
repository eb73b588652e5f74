import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "@hearth/service-kit";
import { ChatDetailSchema, type Actor } from "@hearth/contracts";
import { createAssistantRegistry } from "../src/assistant/assistant-registry";
import { FAMILY_AI_OFF } from "../src/replies/family-facts";
import { createReplyEvents } from "../src/replies/reply-events";
import { createReplyRepository } from "../src/replies/reply-repository";
import { createReplyRunner } from "../src/replies/reply-runner";
import { createReplyWorker } from "../src/replies/reply-worker";
import { NO_ANSWERS, contextOf, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  chat = await startChat(NO_ANSWERS);
});
afterAll(async () => chat?.stop());

async function askedChat(actor: Actor, questions: number): Promise<string> {
  const created = ChatDetailSchema.parse(await chat.call("chats.create", "mutation", { title: "Claims", message: "q0" }, contextOf(actor)));
  for (let i = 1; i < questions; i++) await chat.call("messages.create", "mutation", { chat_id: created.id, content: `q${i}` }, contextOf(actor));
  return created.id;
}

/** Finance's answer to familySettings.get for the actor's family (a stand-in: the runner reads nothing else before its provider runs). */
function familySettings(actor: Actor) {
  return {
    id: actor.familyId,
    name: null,
    currency: "USD",
    locale: "en-US",
    date_format: "%m-%d-%Y",
    country: null,
    timezone: null,
    month_start_day: 1,
    moniker: "Family",
    default_account_sharing: "shared",
    custom_enabled_currencies: false,
    enabled_currencies: ["USD"],
    ai_enabled: true,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  };
}

describe("reply claims", () => {
  it("hands each pending answer to one claimer only, under parallel claims", async () => {
    const chatIds = [await askedChat(newActor(), 4), await askedChat(newActor(), 4)];
    const replies = createReplyRepository(chat.db);
    const claims = await Promise.all(Array.from({ length: 16 }, () => replies.claimNext(60_000)));
    const ofChats = claims.filter((claim) => claim && chatIds.includes(claim.chatId)).map((claim) => claim!.id);
    expect(ofChats).toHaveLength(8);
    expect(new Set(ofChats).size).toBe(8);
    // Held: nobody gets them again while their lease runs.
    expect(chatIds).not.toContain((await replies.claimNext(60_000))?.chatId);
  });

  it("serves the user with fewer answers in progress first, then the oldest question", async () => {
    const replies = createReplyRepository(chat.db);
    // Nothing else waiting in this database (answers of earlier tests are held or ended).
    while (await replies.claimNext(60_000));
    const busy = newActor();
    const busyChat = await askedChat(busy, 3);
    const first = await replies.claimNext(60_000);
    expect(first?.chatId).toBe(busyChat);
    // Another user asks after the busy one's two waiting questions: while one of the busy user's
    // answers is in progress, the other user's comes first, then the busy user's in their order.
    const otherChat = await askedChat(newActor(), 1);
    expect((await replies.claimNext(60_000))?.chatId).toBe(otherChat);
    expect((await replies.claimNext(60_000))?.chatId).toBe(busyChat);
  });

  it("fails an answer whose worker died mid-way (lease run out) as interrupted, without running it again", async () => {
    const actor = newActor();
    const chatId = await askedChat(actor, 1);
    const answer = await chat.db.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message" } });
    // As a worker that claimed it and died: started, its lease over.
    await chat.db.chatMessage.update({
      where: { id: answer.id },
      data: { startedAt: new Date(Date.now() - 120_000), leaseUntil: new Date(Date.now() - 1000) },
    });

    const replies = createReplyRepository(chat.db);
    let providerRan = false;
    const registry = createAssistantRegistry([
      {
        models: ["hearth-builtin"],
        reply: async () => {
          providerRan = true;
          return { content: "again" };
        },
      },
    ]);
    const finance = async () => {
      throw new Error("finance is not needed for an interrupted answer");
    };
    const runner = createReplyRunner({ replies, registry, events: createReplyEvents(), finance, log: createLogger("test", "silent"), timeoutMs: 5000 });
    let claimed = await replies.claimNext(60_000);
    while (claimed && claimed.id !== answer.id) claimed = await replies.claimNext(60_000);
    expect(claimed).toMatchObject({ id: answer.id, interrupted: true });
    await runner.run(claimed!);

    expect(providerRan).toBe(false);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({
      aiResponseStatus: "failed",
      leaseUntil: null,
      askedBy: null,
    });
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.replyToId! } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
  });

  it("on shutdown, ends the answers still running as interrupted rather than leaving them pending until their lease runs out", async () => {
    const actor = newActor();
    const chatId = await askedChat(actor, 1);
    const answer = await chat.db.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message" } });
    const replies = createReplyRepository(chat.db);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const registry = createAssistantRegistry([
      {
        models: ["hearth-builtin"],
        reply: (_model, io) => {
          started();
          return new Promise((_resolve, reject) => io.signal.addEventListener("abort", () => reject(io.signal.reason)));
        },
      },
    ]);
    // Only the family's settings are read before the provider runs.
    const finance = async () => familySettings(actor);
    const log = createLogger("test", "silent");
    const runner = createReplyRunner({ replies, registry, events: createReplyEvents(), finance, log, timeoutMs: 60_000 });
    const worker = createReplyWorker({ replies, runner, log, options: { concurrency: 8, pollMs: 50, leaseMs: 90_000 } });
    worker.start();
    await running;
    await worker.stop(100);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed", leaseUntil: null });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
  });

  it("fails an answer whose family turned AI off after the question was asked, before anything goes to the model's provider", async () => {
    const actor = newActor();
    const chatId = await askedChat(actor, 1);
    const answer = await chat.db.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message" } });
    const replies = createReplyRepository(chat.db);
    let providerCalls = 0;
    const registry = createAssistantRegistry([
      {
        models: ["hearth-builtin"],
        reply: async () => {
          providerCalls++;
          return { content: "should not be produced" };
        },
      },
    ]);
    const finance = async () => ({ ...familySettings(actor), ai_enabled: false });
    const log = createLogger("test", "silent");
    const runner = createReplyRunner({ replies, registry, events: createReplyEvents(), finance, log, timeoutMs: 60_000 });
    const worker = createReplyWorker({ replies, runner, log, options: { concurrency: 2, pollMs: 50, leaseMs: 90_000 } });
    worker.start();
    try {
      await vi.waitFor(async () => expect((await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).aiResponseStatus).toBe("failed"), {
        timeout: 20_000,
      });
    } finally {
      await worker.stop(100);
    }
    expect(providerCalls).toBe(0);
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toBe(FAMILY_AI_OFF);
  });
});
