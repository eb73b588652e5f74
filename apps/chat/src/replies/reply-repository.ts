import { ActorSchema } from "@hearth/contracts";
import { z } from "zod";
import type { ChatDb, ChatTx } from "../db";
import { Prisma, type ToolCall as ToolCallRow } from "../generated/prisma/client";
import type { ConversationTurn } from "../assistant/assistant-types";
import type { AskedBy } from "../messages/message-queries";
import { storableJson, storableText } from "./storable";

/** How many earlier questions (with their answers) a reply is given: enough context, bounded cost. */
const HISTORY_QUESTIONS = 20;
/** The most conversation text (characters) a reply is given: the oldest turns go first, the question always stays. */
export const HISTORY_MAX_CHARS = 60_000;

const AskedBySchema = z.object({ actor: ActorSchema, requestId: z.string() });

/** An answer its job is producing. */
export interface ClaimedReply {
  id: string;
  chatId: string;
  model: string;
  replyToId: string;
  askedBy: AskedBy;
}

/** How an answer ends: written with the job's end (`fence` throws, rolling it back, when the job is no longer this worker's). */
export type ReplyFence = (tx: ChatTx) => Promise<void>;

/** The answer's message, its question or its chat was deleted while it was being produced. */
export class ReplyGone extends Error {
  constructor() {
    super("The answer's chat or message is gone");
    this.name = "ReplyGone";
  }
}

export function createReplyRepository(db: ChatDb) {
  type Outcome = { status: "complete"; content: string } | { status: "failed"; content: string; error: string };

  /** Ends the answer and its question in `tx`; nothing when the answer is gone or already ended. */
  async function endIn(tx: ChatTx, messageId: string, outcome: Outcome): Promise<void> {
    // The chat's row first, then its messages: the order of a chat's deletion (its cascade), of
    // ask and of retry. Message first, then chat, deadlocked against a delete of the chat (40P01).
    const chat = await tx.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM chats c JOIN chat_messages m ON m.chat_id = c.id WHERE m.id = ${messageId}::uuid FOR NO KEY UPDATE OF c`;
    if (chat.length === 0) return;
    const ended = await tx.chatMessage.updateManyAndReturn({
      where: { id: messageId, aiResponseStatus: "pending" },
      data: {
        aiResponseStatus: outcome.status,
        content: storableText(outcome.content),
        error: outcome.status === "failed" ? outcome.error : null,
        askedBy: Prisma.DbNull,
      },
      select: { chatId: true, replyToId: true },
    });
    const answer = ended[0];
    if (!answer) return;
    if (answer.replyToId) await tx.chatMessage.updateMany({ where: { id: answer.replyToId }, data: { aiResponseStatus: outcome.status } });
    await tx.chat.updateMany({ where: { id: answer.chatId }, data: { error: outcome.status === "failed" ? outcome.error : null, updatedAt: new Date() } });
  }

  /** Ends the answer in a transaction of its own, with `fence` (the job's end) when given. */
  async function finish(messageId: string, outcome: Outcome, fence?: ReplyFence): Promise<void> {
    await db.$transaction(async (tx) => {
      await endIn(tx, messageId, outcome);
      await fence?.(tx);
    });
  }

  return {
    /**
     * The pending answer its job is to produce, marked started; null when it is gone or ended. An
     * answer that cannot be started (its question or who asked is missing) ends failed here.
     * `wasStarted`: a worker began it before (its tools may have run), whatever its job says.
     */
    async begin(messageId: string, fence: ReplyFence): Promise<(ClaimedReply & { wasStarted: boolean }) | null> {
      const rows = await db.$queryRaw<
        { id: string; chat_id: string; model: string | null; reply_to_id: string | null; asked_by: unknown; was_started: boolean }[]
      >`
        UPDATE chat_messages m SET started_at = coalesce(m.started_at, now())
          FROM (SELECT id, started_at IS NOT NULL AS was_started FROM chat_messages
                 WHERE id = ${messageId}::uuid AND kind = 'assistant_message' AND ai_response_status = 'pending' FOR UPDATE) before
         WHERE m.id = before.id
        RETURNING m.id, m.chat_id, m.model, m.reply_to_id, m.asked_by, before.was_started`;
      const row = rows[0];
      if (!row) return null;
      const askedBy = AskedBySchema.safeParse(row.asked_by);
      if (!row.reply_to_id || !row.model || !askedBy.success) {
        await finish(row.id, { status: "failed", content: "", error: "The answer could not be started" }, fence);
        return null;
      }
      return { id: row.id, chatId: row.chat_id, model: row.model, replyToId: row.reply_to_id, askedBy: askedBy.data, wasStarted: row.was_started };
    },

    /**
     * The conversation up to the question answered: each earlier question with its latest finished
     * answer (a retried answer replaces the one before), the last HISTORY_QUESTIONS questions.
     */
    async conversation(reply: ClaimedReply): Promise<ConversationTurn[] | null> {
      const question = await db.chatMessage.findUnique({ where: { id: reply.replyToId }, select: { createdAt: true } });
      if (!question) return null;
      const questions = await db.chatMessage.findMany({
        where: { chatId: reply.chatId, kind: "user_message", createdAt: { lte: question.createdAt } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: HISTORY_QUESTIONS,
        select: {
          id: true,
          content: true,
          replies: { where: { aiResponseStatus: "complete" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1, select: { content: true } },
        },
      });
      const turns: ConversationTurn[] = [];
      for (const asked of questions.reverse()) {
        turns.push({ role: "user", content: asked.content });
        const answer = asked.replies[0];
        if (asked.id !== reply.replyToId && answer) turns.push({ role: "assistant", content: answer.content });
      }
      // Long earlier answers would crowd out the question (or pass a model's context window): oldest out first.
      let chars = turns.reduce((sum, turn) => sum + turn.content.length, 0);
      while (turns.length > 1 && chars > HISTORY_MAX_CHARS) chars -= turns.shift()!.content.length;
      // A conversation starts with a question.
      while (turns.length > 1 && turns[0]?.role === "assistant") turns.shift();
      return turns;
    },

    /** Stores a tool call of a pending answer; ReplyGone when the answer was deleted or ended meanwhile. */
    async recordToolCall(messageId: string, name: string, args: Record<string, unknown>, result: Record<string, unknown>): Promise<ToolCallRow> {
      return db.$transaction(async (tx) => {
        const pending = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM chat_messages WHERE id = ${messageId}::uuid AND ai_response_status = 'pending' FOR SHARE`;
        if (pending.length === 0) throw new ReplyGone();
        return tx.toolCall.create({
          data: {
            messageId,
            functionName: storableText(name),
            functionArguments: storableJson(args) as Prisma.InputJsonObject,
            functionResult: storableJson(result) as Prisma.InputJsonObject,
          },
        });
      });
    },

    /** The text so far of an answer in progress, for clients polling the chat. */
    async saveText(messageId: string, content: string): Promise<void> {
      await db.chatMessage.updateMany({ where: { id: messageId, aiResponseStatus: "pending" }, data: { content: storableText(content) } });
    },

    /** Whether the answer is still pending (not deleted, not ended). */
    async isPending(messageId: string): Promise<boolean> {
      return (await db.chatMessage.count({ where: { id: messageId, aiResponseStatus: "pending" } })) > 0;
    },

    finish,
    endIn,
  };
}
export type ReplyRepository = ReturnType<typeof createReplyRepository>;
