import { EventEmitter } from "node:events";
import type { Message } from "@hearth/contracts";

type ToolCallResource = NonNullable<Message["tool_calls"]>[number];

/** What happens to an answer while it is produced: its text as it comes, each tool call, and its end. */
export type ReplyEvent =
  { type: "text"; delta: string } | { type: "tool_call"; tool_call: ToolCallResource } | { type: "done"; status: "complete" | "failed"; error: string | null };

/**
 * This instance's answers in progress, by assistant message id: the stream endpoint listens here.
 * In-process only; a stream of an answer produced elsewhere reads the stored message instead.
 */
export function createReplyEvents() {
  const emitter = new EventEmitter();
  // Each open stream listens to one answer; many streams of one answer are legitimate.
  emitter.setMaxListeners(0);
  return {
    publish(messageId: string, event: ReplyEvent): void {
      emitter.emit(messageId, event);
    },
    subscribe(messageId: string, listener: (event: ReplyEvent) => void): () => void {
      emitter.on(messageId, listener);
      return () => emitter.off(messageId, listener);
    },
  };
}
export type ReplyEvents = ReturnType<typeof createReplyEvents>;
