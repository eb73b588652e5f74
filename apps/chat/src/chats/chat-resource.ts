import { paginationOf, type ChatDetail, type ChatSummary, type PageQuery } from "@hearth/contracts";
import type { Chat as ChatRow } from "../generated/prisma/client";
import { toMessageResource, type MessageRow } from "../messages/message-resource";

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

/** A chat with a page of its messages; `page` absent means all of them were given (a new chat). */
export function toChatDetail(row: ChatRow, messages: MessageRow[], page?: { query: PageQuery; totalCount: number }): ChatDetail {
  return {
    ...toChatResource(row),
    messages: messages.map(toMessageResource),
    pagination: page ? paginationOf(page.query, page.totalCount) : null,
  };
}
