import { AppError, pageWindow, type Actor, type BodyOf, type PageQuery } from "@hearth/contracts";
import type { ChatDb, ChatTx } from "../db";
import { addQuestion, assertAnswerSlot, OLDEST_FIRST, VISIBLE_MESSAGES, WITH_TOOL_CALLS, type NewQuestion } from "../messages/message-queries";
import type { ChatStats } from "./chat-resource";

/** A chat belongs to the user who created it, within their family: every query filters on both. */
export type ChatOwner = Pick<Actor, "familyId" | "userId">;

export function ownedBy(owner: ChatOwner, chatId: string) {
  return { id: chatId, familyId: owner.familyId, userId: owner.userId };
}

/** The owner's chat, locked for the rest of the transaction; 404 when it is not theirs. */
export async function lockOwnedChat(tx: ChatTx, owner: ChatOwner, chatId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM chats WHERE id = ${chatId}::uuid AND family_id = ${owner.familyId}::uuid AND user_id = ${owner.userId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw AppError.notFound("Chat");
}

export function createChatRepository(db: ChatDb) {
  return {
    /** One page of the owner's chats, newest activity first, with their message figures and the total. */
    async list(owner: ChatOwner, page: PageQuery) {
      const where = { familyId: owner.familyId, userId: owner.userId };
      const [rows, totalCount] = await db.$transaction([
        db.chat.findMany({
          where,
          orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
          ...pageWindow(page),
          include: { _count: { select: { messages: { where: VISIBLE_MESSAGES } } } },
        }),
        db.chat.count({ where }),
      ]);
      // One grouped query for the whole page rather than one per chat.
      const latest =
        rows.length === 0
          ? []
          : await db.chatMessage.groupBy({
              by: ["chatId"],
              where: { chatId: { in: rows.map((row) => row.id) }, ...VISIBLE_MESSAGES },
              _max: { createdAt: true },
            });
      const lastAt = new Map(latest.map((group) => [group.chatId, group._max.createdAt]));
      const chats = rows.map(({ _count, ...chat }) => ({
        chat,
        stats: { messageCount: _count.messages, lastMessageAt: lastAt.get(chat.id) ?? null } satisfies ChatStats,
      }));
      return { chats, totalCount };
    },

    /** The chat with one page of its messages (oldest first) and their tool calls, and the message total. */
    async show(owner: ChatOwner, chatId: string, page: PageQuery) {
      const chat = await db.chat.findFirst({ where: ownedBy(owner, chatId) });
      if (!chat) throw AppError.notFound("Chat");
      const where = { chatId, ...VISIBLE_MESSAGES };
      const [messages, totalCount] = await db.$transaction([
        db.chatMessage.findMany({ where, orderBy: OLDEST_FIRST, ...pageWindow(page), include: WITH_TOOL_CALLS }),
        db.chatMessage.count({ where }),
      ]);
      return { chat, messages, totalCount };
    },

    /** Creates the chat and, when given, its first question, in one transaction. */
    create(owner: ChatOwner, data: Pick<BodyOf<"chats.create">, "title">, question: NewQuestion | undefined) {
      return db.$transaction(async (tx) => {
        if (question) await assertAnswerSlot(tx, owner);
        const chat = await tx.chat.create({ data: { familyId: owner.familyId, userId: owner.userId, title: data.title } });
        if (question) await addQuestion(tx, chat.id, question);
        const messages = await tx.chatMessage.findMany({ where: { chatId: chat.id, ...VISIBLE_MESSAGES }, orderBy: OLDEST_FIRST, include: WITH_TOOL_CALLS });
        return { ...chat, messages };
      });
    },

    async rename(owner: ChatOwner, chatId: string, title: string) {
      const { count } = await db.chat.updateMany({ where: ownedBy(owner, chatId), data: { title } });
      if (count === 0) throw AppError.notFound("Chat");
    },

    /** Deletes the chat; its messages and tool calls go by cascade. */
    async destroy(owner: ChatOwner, chatId: string) {
      const { count } = await db.chat.deleteMany({ where: ownedBy(owner, chatId) });
      if (count === 0) throw AppError.notFound("Chat");
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
