// The assistant's answers on the job runner (replies/reply-job.ts): each answer produced by one
// instance only, families in turns, an answer whose worker died failed as interrupted (never
// produced twice: its tools may have run), a stopping service ending its answers as interrupted,
// and a family that turned AI off getting no answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@hearth/service-kit";
import { createJobRunner, type JobRunner } from "@hearth/service-kit/jobs";
import { ChatDetailSchema, type Actor } from "@hearth/contracts";
import { databaseUrlOf } from "@hearth/service-kit";
import { endJobConnection } from "@hearth/test-kit";
import { createAssistantRegistry } from "../src/assistant/assistant-registry";
import type { ReplyIo } from "../src/assistant/assistant-types";
import { FAMILY_AI_OFF } from "../src/replies/family-facts";
import { createReplyEvents } from "../src/replies/reply-events";
import { replyJob } from "../src/replies/reply-job";
import { REPLY_QUEUE } from "../src/replies/reply-queue-queries";
import { createReplyRepository } from "../src/replies/reply-repository";
import { createReplyRunner } from "../src/replies/reply-runner";
import type { AskerStanding } from "../src/replies/asker-standing";
import { NO_ANSWERS, askedAsTheyStand, contextOf, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  // The service's own runner takes no answer: each case runs runners of its own.
  chat = await startChat(NO_ANSWERS);
});
afterAll(async () => chat?.stop());

async function askedChat(actor: Actor, questions: string[]): Promise<string> {
  const created = ChatDetailSchema.parse(await chat.call("chats.create", "mutation", { title: "Claims", message: questions[0] }, contextOf(actor)));
  for (const question of questions.slice(1)) await chat.call("messages.create", "mutation", { chat_id: created.id, content: question }, contextOf(actor));
  return created.id;
}

/** Finance's answer to familySettings.get (the runner reads nothing else of finance before its provider runs). */
function familySettings(aiEnabled = true) {
  return {
    id: "00000000-0000-0000-0000-000000000000",
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
    ai_enabled: aiEnabled,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  };
}

/** The question an answer is for: the last user turn of its conversation. */
const questionOf = (io: ReplyIo) => io.history.at(-1)?.content ?? "";

/** Another instance's runner of answers, whose model's provider is `reply` and whose finance answers the family's settings. */
function replyRunner(
  reply: (io: ReplyIo) => Promise<{ content: string }>,
  options: { aiEnabled?: boolean; familyAiAtTools?: boolean; concurrency?: number; standing?: AskerStanding } = {},
): JobRunner {
  const log = createLogger("test", "silent");
  const replies = createReplyRepository(chat.db);
  const registry = createAssistantRegistry([{ models: ["hearth-builtin"], reply: (_model, io) => reply(io) }]);
  const finance = async (procedure: string) =>
    procedure === "familySettings.aiEnabled" ? { ai_enabled: options.familyAiAtTools ?? options.aiEnabled ?? true } : familySettings(options.aiEnabled ?? true);
  const standing = options.standing ?? askedAsTheyStand;
  const runner = createReplyRunner({ replies, registry, events: createReplyEvents(), finance, standing, log, timeoutMs: 60_000 });
  return createJobRunner({
    databaseUrl: databaseUrlOf(chat.db),
    db: chat.db,
    log,
    definitions: [replyJob(chat.db, replies, runner, { concurrency: options.concurrency ?? 4, perFamilyLimit: 2 })],
    pollMs: 50,
    heartbeatMs: 100,
  });
}

/** Works until the answer is aborted (its job lost or stopped). */
const untilAborted = (io: ReplyIo) => new Promise<never>((_resolve, reject) => io.signal.addEventListener("abort", () => reject(io.signal.reason as Error)));

const answerOf = (chatId: string) => chat.db.chatMessage.findFirstOrThrow({ where: { chatId, kind: "assistant_message" } });
const jobOf = (messageId: string) => chat.db.job.findFirstOrThrow({ where: { queue: REPLY_QUEUE, subjectId: messageId } });

describe("the assistant's answers on the job runner", () => {
  it("produces each answer once, however many instances run at once", async () => {
    const tag = `once-${Date.now()}`;
    const questions = Array.from({ length: 4 }, (_, i) => `${tag} ${i}`);
    const chats = [await askedChat(newActor(), questions.slice(0, 2)), await askedChat(newActor(), questions.slice(2))];
    const produced: string[] = [];
    const produce = async (io: ReplyIo) => {
      if (questionOf(io).startsWith(tag)) produced.push(questionOf(io));
      return { content: "ok" };
    };
    const runners = [replyRunner(produce), replyRunner(produce)];
    try {
      await Promise.all(runners.flatMap((runner) => [runner.drain(REPLY_QUEUE), runner.drain(REPLY_QUEUE)]));
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
    expect(produced.sort()).toEqual(questions);
    const answers = await chat.db.chatMessage.findMany({ where: { chatId: { in: chats }, kind: "assistant_message" } });
    expect(answers.map((answer) => answer.aiResponseStatus)).toEqual(["complete", "complete", "complete", "complete"]);
  });

  it("gives families turns: a family asking after another's three waits behind one of them, not all", async () => {
    const tag = `turns-${Date.now()}`;
    await askedChat(newActor(), [`${tag} a1`, `${tag} a2`, `${tag} a3`]);
    await askedChat(newActor(), [`${tag} b1`]);
    const order: string[] = [];
    const runner = replyRunner(
      async (io) => {
        if (questionOf(io).startsWith(tag)) order.push(questionOf(io).slice(tag.length + 1));
        return { content: "ok" };
      },
      { concurrency: 1 },
    );
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    // Oldest first would be a1, a2, a3, b1.
    expect(order).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("fails an answer whose worker died mid-way as interrupted, without producing it again", async () => {
    const chatId = await askedChat(newActor(), ["Dying"]);
    const answer = await answerOf(chatId);
    let calls = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const dying = replyRunner(async (io) => {
      if (questionOf(io) !== "Dying") return { content: "ok" };
      calls++;
      started();
      return untilAborted(io);
    });
    dying.start();
    const other = replyRunner(async (io) => {
      if (questionOf(io) === "Dying") calls++;
      return { content: "again" };
    });
    try {
      await running;
      // Its process dies (its job connection ends): the job is taken over, and the answer failed.
      await endJobConnection(chat.db, (await jobOf(answer.id)).id);
      await other.drain(REPLY_QUEUE);
    } finally {
      await Promise.all([dying.stop(), other.stop()]);
    }
    expect(calls).toBe(1);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed", askedBy: null });
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.replyToId! } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
    expect(await jobOf(answer.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("fails as interrupted an answer a worker began under an earlier job (lost to a purge, queued again by a reconcile), without producing it again", async () => {
    const chatId = await askedChat(newActor(), ["Begun before"]);
    const answer = await answerOf(chatId);
    // A worker began it under a job that is gone; the job now queued is a fresh one (attempt 1, not taken over).
    await chat.db.chatMessage.update({ where: { id: answer.id }, data: { startedAt: new Date(Date.now() - 60_000) } });
    let calls = 0;
    const runner = replyRunner(async (io) => {
      if (questionOf(io) === "Begun before") calls++;
      return { content: "twice" };
    });
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(calls).toBe(0);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
  });

  it("on shutdown, ends the answers still running as interrupted rather than leaving them pending", async () => {
    const chatId = await askedChat(newActor(), ["Stopping"]);
    const answer = await answerOf(chatId);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runner = replyRunner(async (io) => {
      if (questionOf(io) !== "Stopping") return { content: "ok" };
      started();
      return untilAborted(io);
    });
    runner.start();
    await running;
    await runner.stop({ graceMs: 100 });
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
    expect(await jobOf(answer.id)).toMatchObject({ status: "succeeded" });
  });

  it("fails an answer whose family turned AI off after the question was asked, before anything goes to the model's provider", async () => {
    const chatId = await askedChat(newActor(), ["AI off"]);
    const answer = await answerOf(chatId);
    let providerCalls = 0;
    const runner = replyRunner(
      async () => {
        providerCalls++;
        return { content: "should not be produced" };
      },
      { aiEnabled: false },
    );
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(providerCalls).toBe(0);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toBe(FAMILY_AI_OFF);
  });

  it("fails an answer whose asker's key was revoked after asking, before anything goes to the model's provider", async () => {
    const chatId = await askedChat(newActor(), ["Revoked before"]);
    const answer = await answerOf(chatId);
    let providerCalls = 0;
    const runner = replyRunner(
      async (io) => {
        if (questionOf(io) === "Revoked before") providerCalls++;
        return { content: "should not be produced" };
      },
      { standing: async () => ({ granted: false, reason: "The key was revoked", role: null, scopes: [], ai_enabled: false }) },
    );
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(providerCalls).toBe(0);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({
      aiResponseStatus: "failed",
      error: "The key was revoked",
    });
  });

  it("asks again before each tool: revoked since the answer began, the write does not run and the answer fails", async () => {
    const chatId = await askedChat(newActor(), ["Write later"]);
    const answer = await answerOf(chatId);
    let checks = 0;
    const toolResults: unknown[] = [];
    const runner = replyRunner(
      async (io) => {
        if (questionOf(io) !== "Write later") return { content: "ok" };
        toolResults.push(await io.callTool("get_tags", {}).catch((err: unknown) => err));
        toolResults.push(await io.callTool("create_tag", { name: "Groceries" }).catch((err: unknown) => err));
        return { content: "created" };
      },
      {
        standing: async (actor) => {
          checks++;
          // Held when the answer starts and at its read; revoked by the time it writes.
          return checks <= 2
            ? { granted: true, reason: null, role: actor.role, scopes: actor.scopes, ai_enabled: true }
            : { granted: false, reason: "The key was revoked", role: null, scopes: [], ai_enabled: false };
        },
      },
    );
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    // Once at the start, once before each tool.
    expect(checks).toBe(3);
    expect(toolResults[1]).toBeInstanceOf(Error);
    // The write never ran: it is not among the answer's tool calls.
    const toolCalls = await chat.db.toolCall.findMany({ where: { messageId: answer.id } });
    expect(toolCalls.map((call) => call.functionName)).not.toContain("create_tag");
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({
      aiResponseStatus: "failed",
      error: "The key was revoked",
    });
  });

  it("asks the family's switch again before each tool: AI turned off for the family since the answer began, no tool runs", async () => {
    const chatId = await askedChat(newActor(), ["Family off later"]);
    const answer = await answerOf(chatId);
    let outcome: unknown;
    const runner = replyRunner(
      async (io) => {
        if (questionOf(io) !== "Family off later") return { content: "ok" };
        outcome = await io.callTool("create_tag", { name: "Groceries" }).catch((err: unknown) => err);
        return { content: "created" };
      },
      { familyAiAtTools: false },
    );
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(outcome).toBeInstanceOf(Error);
    expect(await chat.db.toolCall.count({ where: { messageId: answer.id } })).toBe(0);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({ aiResponseStatus: "failed", error: FAMILY_AI_OFF });
  });

  it("fails an answer whose asker's standing cannot be checked (the gateway unreachable), rather than run on an unchecked credential", async () => {
    const chatId = await askedChat(newActor(), ["Unchecked"]);
    const answer = await answerOf(chatId);
    const runner = replyRunner(async () => ({ content: "should not be produced" }), {
      standing: async () => {
        throw new Error("connect ECONNREFUSED");
      },
    });
    try {
      await runner.drain(REPLY_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).toMatchObject({
      aiResponseStatus: "failed",
      error: "The assistant could not check your access: ask again in a moment",
    });
  });

  it("queues a job for an answer left pending without one (asked before the job runner), and answers it", async () => {
    const chatId = await askedChat(newActor(), ["Orphan"]);
    const answer = await answerOf(chatId);
    await chat.db.job.deleteMany({ where: { subjectId: answer.id } });
    const runner = replyRunner(async () => ({ content: "found" }));
    runner.start();
    try {
      await expect
        .poll(async () => (await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answer.id } })).aiResponseStatus, { timeout: 20_000 })
        .toBe("complete");
    } finally {
      await runner.stop();
    }
  });
});
