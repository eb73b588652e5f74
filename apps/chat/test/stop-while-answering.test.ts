// A stopping chat service waited without end for an answer whose provider never settled once the
// answer was aborted: the system tests' afterAll (assistant.test.ts) timed out after 120 s on a busy
// CI machine. There, a chat was deleted while its answer was between its start and its provider's
// call (the abort came before the provider listened for it, so it never heard of it); the answer
// waited for its provider for good, the job runner for the answer, and the service's stop for the job.
// An aborted answer now stops waiting for its provider, and a stopping runner for a job that ignores
// its abort.
import { afterEach, describe, expect, it } from "vitest";
import { ChatDetailSchema } from "@hearth/contracts";
import type { ServiceCall } from "@hearth/service-kit";
import { startServiceUnderTest } from "@hearth/test-kit";
import { createChatService, type ChatDeps } from "../src/app";
import type { AssistantProvider, ReplyIo } from "../src/assistant/assistant-types";
import type { AskerStanding } from "../src/replies/asker-standing";
import { REPLY_QUEUE } from "../src/replies/reply-queue-queries";
import { askedAsTheyStand, chatUnderTest, contextOf, newActor } from "./support";

/** Finance as the answer reads it before its provider runs: the family's settings, AI on. */
const finance: ServiceCall = async (procedure) =>
  procedure === "familySettings.aiEnabled"
    ? { ai_enabled: true }
    : {
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
        ai_enabled: true,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      };

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Chat with its own job runner, `provider` as its model, and `standing` as the gateway's word on the asker. */
function startChatWith(provider: (io: ReplyIo) => Promise<{ content: string }>, options: { standing?: AskerStanding; replyTimeoutMs?: number } = {}) {
  const steered: AssistantProvider = { models: ["test-stuck"], reply: (_model, io) => provider(io) };
  return startServiceUnderTest({
    ...chatUnderTest,
    create: (deps: Omit<ChatDeps, "finance" | "askerStanding">) =>
      createChatService({
        ...deps,
        finance,
        askerStanding: options.standing ?? askedAsTheyStand,
        assistant: { providers: [steered], replyTimeoutMs: options.replyTimeoutMs ?? 60_000 },
        jobs: { pollMs: 50, heartbeatMs: 200 },
      }),
  });
}
type Chat = Awaited<ReturnType<typeof startChatWith>>;

let chat: Chat | undefined;
afterEach(async () => {
  await chat?.stop();
  chat = undefined;
});

/** How long `work` took, or null when it had not ended after `ms`. */
async function timed(work: Promise<unknown>, ms: number): Promise<number | null> {
  const began = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([work.then(() => Date.now() - began), over]);
  } finally {
    clearTimeout(timer);
  }
}

async function ask(question: string) {
  const actor = newActor();
  const created = ChatDetailSchema.parse(await chat!.call("chats.create", "mutation", { title: "Stuck", message: question }, contextOf(actor)));
  const answer = await chat!.db.chatMessage.findFirstOrThrow({ where: { chatId: created.id, kind: "assistant_message" } });
  return { actor, chatId: created.id, answerId: answer.id };
}

const jobStatusOf = async (answerId: string) => (await chat!.db.job.findFirstOrThrow({ where: { queue: REPLY_QUEUE, subjectId: answerId } })).status;

describe("a stopping service and an answer whose provider never settles", () => {
  it("a chat deleted before its provider listened: the answer ends at once, and the service stops at once", async () => {
    // The provider listens for its abort only once called (as the system tests' "hang on" does).
    const providerCalled = gate();
    const asked = gate();
    const goOn = gate();
    chat = await startChatWith(
      async (io) => {
        providerCalled.open();
        io.onText("Thinking");
        return new Promise((_resolve, reject) => io.signal.addEventListener("abort", () => reject(io.signal.reason as Error)));
      },
      {
        // The answer has begun, and is held just before its provider is called.
        standing: async (actor, requestId) => {
          asked.open();
          await goOn.opened;
          return askedAsTheyStand(actor, requestId);
        },
      },
    );
    const { actor, chatId, answerId } = await ask("hang on");
    await asked.opened;
    await chat.call("chats.destroy", "mutation", { id: chatId }, contextOf(actor));
    goOn.open();
    // The answer is abandoned (its chat is gone), not left waiting for its provider: its job ends.
    await expect.poll(() => jobStatusOf(answerId), { timeout: 10_000 }).toBe("succeeded");
    expect(await chat.db.chatMessage.count({ where: { chatId } })).toBe(0);
    // Nothing is running: the stop does not wait for a grace.
    const took = await timed(chat.parts.stop(), 20_000);
    expect(took, "the service's stop ended").not.toBeNull();
    expect(took).toBeLessThan(2_000);
  });

  it("a provider that ignores its abort: the stop ends the answer as interrupted after its grace, not never", async () => {
    const providerCalled = gate();
    chat = await startChatWith(async () => {
      providerCalled.open();
      return new Promise<never>(() => {});
    });
    const { chatId, answerId } = await ask("never answers");
    await providerCalled.opened;
    // The service lets its answers finish for 5 s, then interrupts them.
    const took = await timed(chat.parts.stop(), 30_000);
    expect(took, "the service's stop ended").not.toBeNull();
    expect(took).toBeLessThan(15_000);
    expect(await chat.db.chatMessage.findUniqueOrThrow({ where: { id: answerId } })).toMatchObject({ aiResponseStatus: "failed" });
    expect((await chat.db.chat.findUniqueOrThrow({ where: { id: chatId } })).error).toMatch(/interrupted/);
  });

  it("a provider that ignores its abort: the answer fails as too slow at its timeout", async () => {
    chat = await startChatWith(async () => new Promise<never>(() => {}), { replyTimeoutMs: 500 });
    const { answerId } = await ask("never answers");
    await expect
      .poll(async () => (await chat!.db.chatMessage.findUniqueOrThrow({ where: { id: answerId } })).error, { timeout: 10_000 })
      .toBe("The assistant took too long to answer");
    expect(await jobStatusOf(answerId)).toBe("succeeded");
  });
});
