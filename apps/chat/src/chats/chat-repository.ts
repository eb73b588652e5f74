import type { Actor, BodyOf, PageQuery } from "@hearth/contracts";
import type { ChatDb } from "../db";
import type { ChatStats } from "./chat-resource";

/** A chat belongs to the user who created it, within their family: every query filters on both. */
export type ChatOwner = Pick<Actor, "familyId" | "userId">;

const MESSAGES_OLDEST_FIRST = { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] };

export function createChatRepository(db: ChatDb) {
  return {
    /** One page of the owner's chats, newest activity first, with their message figures and the total. */
    async list(owner: ChatOwner, page: PageQuery) {
      const where = { familyId: owner.familyId, userId: owner.userId };
      const [rows, totalCount] = await db.$transaction([
        db.chat.findMany({
          where,
          orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
          skip: (page.page - 1) * page.per_page,
          take: page.per_page,
          include: { _count: { select: { messages: true } } },
        }),
        db.chat.count({ where }),
      ]);
      // One grouped query for the whole page rather than one per chat.
      const latest =
        rows.length === 0
          ? []
          : await db.chatMessage.groupBy({ by: ["chatId"], where: { chatId: { in: rows.map((row) => row.id) } }, _max: { createdAt: true } });
      const lastAt = new Map(latest.map((group) => [group.chatId, group._max.createdAt]));
      const chats = rows.map(({ _count, ...chat }) => ({
        chat,
        stats: { messageCount: _count.messages, lastMessageAt: lastAt.get(chat.id) ?? null } satisfies ChatStats,
      }));
      return { chats, totalCount };
    },

    /** Creates the chat and, when given, its first user message in one atomic nested write. */
    create(owner: ChatOwner, data: BodyOf<"chats.create">) {
      const firstMessage =
        data.message === undefined
          ? undefined
          : {
              kind: "user_message" as const,
              role: "user" as const,
              content: data.message,
              model: data.model ?? null,
              // Awaits the assistant's answer; generating it is a later issue, so it stays pending for now.
              aiResponseStatus: "pending" as const,
            };
      return db.chat.create({
        data: { familyId: owner.familyId, userId: owner.userId, title: data.title, ...(firstMessage && { messages: { create: firstMessage } }) },
        include: { messages: MESSAGES_OLDEST_FIRST },
      });
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
