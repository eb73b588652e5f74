import type { ChatDetail, ChatSummary, Message } from "@hearth/contracts";
import type { Chat as ChatRow, ChatMessage as ChatMessageRow } from "../generated/prisma/client";

/** The list's per-chat figures, computed by the repository in the same round of queries. */
export interface ChatStats {
  messageCount: number;
  lastMessageAt: Date | null;
}

function toChatResource(row: ChatRow) {
  return { id: row.id, title: row.title, error: row.error, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

export function toChatSummary(row: ChatRow, stats: ChatStats): ChatSummary {
  return { ...toChatResource(row), message_count: stats.messageCount, last_message_at: stats.lastMessageAt?.toISOString() ?? null };
}

export function toMessageResource(row: ChatMessageRow): Message {
  return {
    id: row.id,
    type: row.kind,
    role: row.role,
    content: row.content,
    model: row.model,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    // Tool calls are not stored yet (they come with the assistant, a later issue).
    tool_calls: null,
  };
}

/** A chat with all its messages; they are never paged here, hence `pagination: null`. */
export function toChatDetail(row: ChatRow & { messages: ChatMessageRow[] }): ChatDetail {
  return { ...toChatResource(row), messages: row.messages.map(toMessageResource), pagination: null };
}
