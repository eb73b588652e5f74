import { AppError } from "@hearth/contracts";
import { lockOwnedChat, ownedBy, type ChatOwner } from "../chats/chat-repository";
import type { ChatDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { queueReply } from "../replies/reply-queue-queries";
import { addQuestion, assertAnswerSlot, OLDEST_FIRST, WITH_TOOL_CALLS, type AskedBy, type NewQuestion } from "./message-queries";

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The messages of the owner's chats: reading one, asking, retrying, and an answer's progress. */
export function createMessageRepository(db: ChatDb) {
  return {
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
      const answer = await db.chatMessage.findFirst({ where: { replyToId: message.id }, orderBy: NEWEST_FIRST, select: { error: true } });
      return { message, error: answer?.error ?? null };
    },

    /** Stores a question in the owner's chat and queues its answer; the chat's last error is cleared. */
    ask(owner: ChatOwner, chatId: string, question: NewQuestion) {
      return db.$transaction(async (tx) => {
        await lockOwnedChat(tx, owner, chatId);
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
        await lockOwnedChat(tx, owner, chatId);
        const last = await tx.chatMessage.findFirst({ where: { chatId }, orderBy: NEWEST_FIRST });
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

    /** The answer a message of the owner's chat stands for: itself when it is one, else its question's latest answer. */
    async answerIdOf(owner: ChatOwner, chatId: string, messageId: string): Promise<string> {
      const chat = await db.chat.findFirst({ where: ownedBy(owner, chatId), select: { id: true } });
      if (!chat) throw AppError.notFound("Chat");
      const message = await db.chatMessage.findFirst({ where: { id: messageId, chatId }, select: { id: true, kind: true } });
      if (!message) throw AppError.notFound("Message");
      if (message.kind === "assistant_message") return message.id;
      const latest = await db.chatMessage.findFirst({ where: { replyToId: message.id }, orderBy: NEWEST_FIRST, select: { id: true } });
      if (!latest) throw AppError.notFound("Message");
      return latest.id;
    },

    /** An answer's status, text and error, with its tool calls past the first `toolCallsSeen`; null when it or its chat is gone. */
    async progress(chatId: string, messageId: string, toolCallsSeen: number) {
      const [message, chat] = await Promise.all([
        db.chatMessage.findUnique({
          where: { id: messageId },
          select: {
            aiResponseStatus: true,
            content: true,
            error: true,
            toolCalls: { orderBy: OLDEST_FIRST, skip: toolCallsSeen },
          },
        }),
        db.chat.findUnique({ where: { id: chatId }, select: { id: true } }),
      ]);
      return message && chat ? message : null;
    },
  };
}

export type MessageRepository = ReturnType<typeof createMessageRepository>;
