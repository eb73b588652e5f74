import { AppError, type Actor } from "@hearth/contracts";
import type { ChatOwner } from "../chats/chat-repository";
import type { ChatTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { queueReply } from "../replies/reply-queue-queries";

// Message queries that the chats' repository (a new chat's first question, a chat's page of
// messages) and the messages' repository (ask, retry) run inside their own transactions.

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

export const OLDEST_FIRST = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/**
 * Messages a client sees: an assistant message still pending with no text yet is the answer's
 * placeholder (its job's subject), not a message; it appears once it has text or ends.
 */
export const VISIBLE_MESSAGES: Prisma.ChatMessageWhereInput = {
  NOT: { kind: "assistant_message", aiResponseStatus: "pending", content: "" },
};

export const WITH_TOOL_CALLS = { toolCalls: { orderBy: OLDEST_FIRST } } as const;

/** The user message, and the assistant placeholder with the job that produces its answer. */
export async function addQuestion(tx: ChatTx, chatId: string, question: NewQuestion) {
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

/** 429 when the owner already has MAX_PENDING_ANSWERS_PER_USER answers waiting; the user's lock makes parallel questions count one by one. */
export async function assertAnswerSlot(tx: ChatTx, owner: ChatOwner): Promise<void> {
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
