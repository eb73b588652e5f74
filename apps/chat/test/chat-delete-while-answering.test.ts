// Deleting a chat while the assistant writes its answer answered 500 now and
// then (a deadlock: the answer's end locked the message, then the chat; the chat's deletion the
// chat, then, by cascade, its messages). Both now lock the chat first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatDetailSchema } from "@hearth/contracts";
import { createReplyRepository } from "../src/replies/reply-repository";
import { NO_ANSWERS, contextOf, newActor, startChat, type RunningChat } from "./support";

let chat: RunningChat;

beforeAll(async () => {
  chat = await startChat(NO_ANSWERS);
});
afterAll(async () => chat?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a chat deleted while its answer ends", () => {
  it("is deleted and the answer's end goes through, whichever waits for the other: no deadlock", async () => {
    const actor = newActor();
    const created = ChatDetailSchema.parse(await chat.call("chats.create", "mutation", { title: "Deleted", message: "What did I spend?" }, contextOf(actor)));
    const replies = createReplyRepository(chat.db);
    const answerId = (await chat.db.chatMessage.findFirstOrThrow({ where: { chatId: created.id, kind: "assistant_message" } })).id;

    // The race made certain: the answer's row is held from a transaction of our own while the
    // answer's end and the chat's deletion both start and queue up; then it is let go.
    const waiting = async () => {
      const [row] = await chat.db.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      return row?.count ?? 0;
    };
    const untilWaiting = async (count: number) => {
      for (let i = 0; i < 400 && (await waiting()) < count; i++) await sleep(25);
      expect(await waiting()).toBeGreaterThanOrEqual(count);
    };
    const { ending, deleting } = await chat.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM chat_messages WHERE id = ${answerId}::uuid FOR UPDATE`;
        const ending = replies.finish(answerId, { status: "complete", content: "You spent 12.00." }).then(
          () => "ended",
          (error: unknown) => error,
        );
        await untilWaiting(1);
        const deleting = chat.call("chats.destroy", "mutation", { id: created.id }, contextOf(actor)).then(
          () => "deleted",
          (error: unknown) => error,
        );
        await untilWaiting(2);
        return { ending, deleting };
      },
      { timeout: 30_000 },
    );
    expect(await ending).toBe("ended");
    expect(await deleting).toBe("deleted");
    expect(await chat.db.chat.count({ where: { id: created.id } })).toBe(0);
  });
});
