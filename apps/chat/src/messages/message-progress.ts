import { AppError, type MessageProgress } from "@hearth/contracts";
import type { InternalHandlers } from "@hearth/service-kit";
import { ownerOf } from "../chats/chat-handlers";
import { toToolCall } from "../chats/chat-resource";
import type { ChatDb } from "../db";
import type { ReplyEvents } from "../replies/reply-events";
import type { ReplyRunner } from "../replies/reply-runner";

type ProgressHandler = InternalHandlers<"chat">["messages.progress"];

/**
 * What is new in an answer since the stream last asked: text past its offset, tool calls past
 * those it has, the status. With nothing new yet it waits (up to `wait_ms`) for this instance's
 * events of the answer, or reads again at the end of the wait when another instance produces it.
 */
export function createMessageProgressHandler(db: ChatDb, events: ReplyEvents, runner: ReplyRunner): ProgressHandler {
  async function answerOf(owner: ReturnType<typeof ownerOf>, chatId: string, id: string) {
    const chat = await db.chat.findFirst({ where: { id: chatId, familyId: owner.familyId, userId: owner.userId }, select: { id: true } });
    if (!chat) throw AppError.notFound("Chat");
    const message = await db.chatMessage.findFirst({ where: { id, chatId }, select: { id: true, kind: true } });
    if (!message) throw AppError.notFound("Message");
    if (message.kind === "assistant_message") return message.id;
    const latest = await db.chatMessage.findFirst({ where: { replyToId: message.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } });
    if (!latest) throw AppError.notFound("Message");
    return latest.id;
  }

  async function read(chatId: string, messageId: string, input: { text_offset: number; tool_calls_seen: number }): Promise<MessageProgress> {
    const [message, chat] = await Promise.all([
      db.chatMessage.findUnique({
        where: { id: messageId },
        select: {
          aiResponseStatus: true,
          content: true,
          error: true,
          toolCalls: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: input.tool_calls_seen },
        },
      }),
      db.chat.findUnique({ where: { id: chatId }, select: { id: true } }),
    ]);
    if (!message || !chat) throw AppError.notFound("Message");
    const status = message.aiResponseStatus ?? "complete";
    const text = (status === "pending" ? (runner.liveTextOf(messageId) ?? message.content) : message.content).slice(input.text_offset);
    return {
      message_id: messageId,
      status,
      text,
      tool_calls: message.toolCalls.map(toToolCall),
      error: status === "failed" ? (message.error ?? "The assistant could not answer") : null,
    };
  }

  return async ({ ctx, input }) => {
    const messageId = await answerOf(ownerOf(ctx), input.chat_id, input.id);
    // Listening before the read: an event between the read and a later subscription would be missed
    // (the stream then waited out its whole wait for an answer that had ended; seen in the benchmark).
    let woken = false;
    let wake = () => {
      woken = true;
    };
    const unsubscribe = events.subscribe(messageId, () => wake());
    try {
      const now = await read(input.chat_id, messageId, input);
      if (now.status !== "pending" || now.text !== "" || now.tool_calls.length > 0 || input.wait_ms === 0) return now;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, input.wait_ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return await read(input.chat_id, messageId, input);
    } finally {
      unsubscribe();
    }
  };
}
