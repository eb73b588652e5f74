import { AppError, type MessageProgress } from "@hearth/contracts";
import type { InternalHandlers } from "@hearth/service-kit";
import { ownerOf } from "../chats/chat-handlers";
import type { ReplyEvents } from "../replies/reply-events";
import type { ReplyRunner } from "../replies/reply-runner";
import type { MessageRepository } from "./message-repository";
import { toToolCall } from "./message-resource";

type ProgressHandler = InternalHandlers<"chat">["messages.progress"];

/**
 * What is new in an answer since the stream last asked: text past its offset, tool calls past
 * those it has, the status. With nothing new yet it waits (up to `wait_ms`) for this instance's
 * events of the answer, or reads again at the end of the wait when another instance produces it.
 */
export function createMessageProgressHandler(messages: MessageRepository, events: ReplyEvents, runner: ReplyRunner): ProgressHandler {
  async function read(chatId: string, messageId: string, input: { text_offset: number; tool_calls_seen: number }): Promise<MessageProgress> {
    const message = await messages.progress(chatId, messageId, input.tool_calls_seen);
    if (!message) throw AppError.notFound("Message");
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
    const messageId = await messages.answerIdOf(ownerOf(ctx), input.chat_id, input.id);
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
