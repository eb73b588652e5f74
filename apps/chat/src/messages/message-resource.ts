import type { Message, MessageResponse } from "@hearth/contracts";
import type { ChatMessage as ChatMessageRow, ToolCall as ToolCallRow } from "../generated/prisma/client";

/** A stored message, with its tool calls when they were read. */
export type MessageRow = ChatMessageRow & { toolCalls?: ToolCallRow[] };

/** A stored tool call as the API shows it (Sure's ToolCall). */
export function toToolCall(row: ToolCallRow) {
  return {
    id: row.id,
    function_name: row.functionName,
    function_arguments: row.functionArguments as Record<string, unknown>,
    function_result: row.functionResult as Record<string, unknown> | null,
    created_at: row.createdAt.toISOString(),
  };
}

export function toMessageResource(row: MessageRow): Message {
  return {
    id: row.id,
    type: row.kind,
    role: row.role,
    content: row.content,
    model: row.model,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    // As Sure: an assistant message lists the tools it called; a user message has none.
    tool_calls: row.kind === "assistant_message" && row.toolCalls && row.toolCalls.length > 0 ? row.toolCalls.map(toToolCall) : null,
  };
}

/** What the answer to a user's message is doing, in words (Sure says "AI response is being generated" while pending). */
function responseMessageOf(status: ChatMessageRow["aiResponseStatus"], error: string | null): string | null {
  if (status === "pending") return "AI response is being generated";
  if (status === "failed") return error ?? "The assistant could not answer";
  return null;
}

/** A message with its answer's progress; `answerError` is why its (latest) answer failed, if it did. */
export function toMessageResponse(row: MessageRow, answerError: string | null = null): MessageResponse {
  return {
    ...toMessageResource(row),
    chat_id: row.chatId,
    ai_response_status: row.aiResponseStatus,
    ai_response_message: row.kind === "user_message" ? responseMessageOf(row.aiResponseStatus, answerError) : null,
  };
}
