import { AppError, pageWindow, type Actor, type BodyOf, type PageQuery } from "@hearth/contracts";
import type { ChatDb, ChatTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { queueReply } from "../replies/reply-queue";
import type { ChatStats } from "./chat-resource";

/** A chat belongs to the user who created it, within their family: every query filters on both. */
export type ChatOwner = Pick<Actor, "familyId" | "userId">;

/** Who asked for an answer, kept on the pending assistant message for the worker that produces it. */
export interface AskedBy {
  actor: Actor;
  requestId: string;
}

/** A user message to store, with the model that is to answer it. */
export interface NewQuestion {
  content: string;
  model: string;
  askedBy: AskedBy;
}

/**
 * Answers one user may have waiting at once: each runs the family's queries (a year's income
 * statement reads every transaction of the year), so a client posting in a loop must not queue
 * work without end. Beyond it a question is 429 until one of them ends.
 */
export const MAX_PENDING_ANSWERS_PER_USER = 5;

const OLDEST_FIRST = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/**
 * Messages a client sees: an assistant message still pending with no text yet is the answer's
 * placeholder (its job's subject), not a message; it appears once it has text or ends.
 */
export const VISIBLE_MESSAGES: Prisma.ChatMessageWhereInput = {
  NOT: { kind: "assistant_message", aiResponseStatus: "pending", content: "" },
};

const WITH_TOOL_CALLS = { toolCalls: { orderBy: OLDEST_FIRST } } as const;

function ownedBy(owner: ChatOwner, chatId: string) {
  return { id: chatId, familyId: owner.familyId, userId: owner.userId };
}

/** The user message, and the assistant placeholder with the job that produces its answer. */
async function addQuestion(tx: ChatTx, chatId: string, question: NewQuestion) {
  const message = await tx.chatMessage.create({
    data: { chatId, kind: "user_message", role: "user", content: question.content, model: question.model, aiResponseStatus: "pending" },
  });
  const answer = await tx.chatMessage.create({
    data: {
      chatId,
      kind: "assistant_message",
      role: "assistant",
      content: "",
      model: question.model,
      aiResponseStatus: "pending",
      replyToId: message.id,
      askedBy: question.askedBy as unknown as Prisma.InputJsonValue,
      // A millisecond after its question, so the conversation's order never depends on the id.
      createdAt: new Date(message.createdAt.getTime() + 1),
    },
    select: { id: true },
  });
  await queueReply(tx, question.askedBy.actor.familyId, answer.id);
  return message;
}

export function createChatRepository(db: ChatDb) {
  /** The owner's chat, locked for the rest of the transaction; 404 when it is not theirs. */
  async function lockOwned(tx: ChatTx, owner: ChatOwner, chatId: string): Promise<void> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM chats WHERE id = ${chatId}::uuid AND family_id = ${owner.familyId}::uuid AND user_id = ${owner.userId}::uuid FOR UPDATE`;
    if (rows.length === 0) throw AppError.notFound("Chat");
  }

  /** 429 when the owner already has MAX_PENDING_ANSWERS_PER_USER answers waiting; the user's lock makes parallel questions count one by one. */
  async function assertAnswerSlot(tx: ChatTx, owner: ChatOwner): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`chat-answers:${owner.userId}`}, 0))`;
    const [row] = await tx.$queryRaw<{ pending: number }[]>`
      SELECT count(*)::int AS pending FROM chat_messages m JOIN chats c ON c.id = m.chat_id
       WHERE c.family_id = ${owner.familyId}::uuid AND c.user_id = ${owner.userId}::uuid
         AND m.kind = 'assistant_message' AND m.ai_response_status = 'pending'`;
    if ((row?.pending ?? 0) >= MAX_PENDING_ANSWERS_PER_USER) {
      throw new AppError("rate_limit_exceeded", {
        message: `${MAX_PENDING_ANSWERS_PER_USER} answers are already being produced for you; ask again when one has finished`,
        // The answer's Retry-After (the gateway's error handler): most answers end within seconds.
        details: { reset_in_seconds: 5 },
      });
    }
  }

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

    /**
     * One message of the owner's chat by id, with its tool calls and why its answer failed, if it did. An answer
     * still without text is found too: retry hands out its id to poll.
     */
    async message(owner: ChatOwner, chatId: string, messageId: string) {
      const chat = await db.chat.findFirst({ where: ownedBy(owner, chatId), select: { error: true } });
      if (!chat) throw AppError.notFound("Chat");
      const message = await db.chatMessage.findFirst({ where: { id: messageId, chatId }, include: WITH_TOOL_CALLS });
      if (!message) throw AppError.notFound("Message");
      if (message.kind === "assistant_message") return { message, error: message.error };
      // A question's failure is its latest answer's.
      const answer = await db.chatMessage.findFirst({
        where: { replyToId: message.id },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { error: true },
      });
      return { message, error: answer?.error ?? null };
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

    /** Stores a question in the owner's chat and queues its answer; the chat's last error is cleared. */
    ask(owner: ChatOwner, chatId: string, question: NewQuestion) {
      return db.$transaction(async (tx) => {
        await lockOwned(tx, owner, chatId);
        await assertAnswerSlot(tx, owner);
        const message = await addQuestion(tx, chatId, question);
        await tx.chat.update({ where: { id: chatId }, data: { error: null, updatedAt: new Date() } });
        return message;
      });
    },

    /**
     * Queues the last answer again, as a new assistant message answering the same question (Sure's
     * retry). Only when the chat's last message is a finished answer: 422 when it is the user's,
     * 409 while that answer is still being produced. The chat is locked, so two retries make one.
     */
    retry(owner: ChatOwner, chatId: string, askedBy: AskedBy) {
      return db.$transaction(async (tx) => {
        await lockOwned(tx, owner, chatId);
        const last = await tx.chatMessage.findFirst({ where: { chatId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
        if (!last || last.kind !== "assistant_message" || !last.replyToId) {
          throw new AppError("unprocessable_entity", { message: "No assistant message to retry" });
        }
        if (last.aiResponseStatus === "pending") throw new AppError("conflict", { message: "The assistant is still answering this chat" });
        await assertAnswerSlot(tx, owner);
        const retried = await tx.chatMessage.create({
          data: {
            chatId,
            kind: "assistant_message",
            role: "assistant",
            content: "",
            model: last.model,
            aiResponseStatus: "pending",
            replyToId: last.replyToId,
            askedBy: askedBy as unknown as Prisma.InputJsonValue,
            createdAt: new Date(Math.max(Date.now(), last.createdAt.getTime() + 1)),
          },
        });
        await tx.chatMessage.update({ where: { id: last.replyToId }, data: { aiResponseStatus: "pending" } });
        await tx.chat.update({ where: { id: chatId }, data: { error: null, updatedAt: new Date() } });
        await queueReply(tx, owner.familyId, retried.id);
        return retried;
      });
    },
  };
}

export type ChatRepository = ReturnType<typeof createChatRepository>;
