import { enqueueJob } from "@hearth/service-kit/jobs";
import type { ChatDb, ChatTx } from "../db";

/** The assistant's answers: one job per answer to produce (docs/background-jobs.md). */
export const REPLY_QUEUE = "chat.reply";

/** Queues the answer's job in the transaction that made its placeholder. */
export const queueReply = (tx: ChatTx, familyId: string, messageId: string) =>
  enqueueJob(tx, { queue: REPLY_QUEUE, familyId, subjectId: messageId, dedupeKey: messageId });

/**
 * Queues a job for every answer waiting without one (asked on an instance from before the job
 * runner, during a deploy, or restored from a backup): how many.
 */
export function queueOrphanedReplies(db: ChatDb): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, run_after)
    SELECT ${REPLY_QUEUE}, c.family_id, m.id, m.id::text, m.created_at FROM chat_messages m JOIN chats c ON c.id = m.chat_id
     WHERE m.kind = 'assistant_message' AND m.ai_response_status = 'pending'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${REPLY_QUEUE} AND j.subject_id = m.id AND j.status IN ('queued', 'running'))
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}
