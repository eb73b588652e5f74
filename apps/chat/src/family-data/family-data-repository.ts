import { batchTransactionOptions, limitBatch, type BatchTimeouts } from "@hearth/service-kit";
import type { ChatDb } from "../db";

/** chat's rows of a family, for a purge and the reset status. */
export function createFamilyDataRepository(db: ChatDb) {
  return {
    /**
     * Deletes up to `limit` of the family's chats (their messages go by cascade); answers how many
     * went. Waits at most `lockMs` for a lock (an answer being stored) and runs at most `statementMs`.
     */
    deleteChats: (familyId: string, limit: number, timeouts: BatchTimeouts): Promise<number> =>
      db.$transaction(async (tx) => {
        await limitBatch(tx, timeouts);
        return tx.$executeRaw`DELETE FROM chats WHERE id = ANY(ARRAY(SELECT id FROM chats WHERE family_id = ${familyId}::uuid LIMIT ${limit}))`;
      }, batchTransactionOptions(timeouts)),

    /**
     * Deletes the family's jobs and its turn in their queues, once its chats are gone (until then
     * each answer keeps its job; a job whose answer went finds nothing to do), but for the jobs of
     * answers asked since. A family has few:
     * at most a handful of answers waiting per user, and a week of ended ones.
     */
    deleteJobs: (familyId: string): Promise<void> =>
      db.$transaction(async (tx) => {
        // A job whose answer is still there stays: a question asked during a reset keeps its job.
        await tx.$executeRaw`
          DELETE FROM jobs j WHERE j.family_id = ${familyId}::uuid
             AND (j.status NOT IN ('queued', 'running') OR NOT EXISTS (SELECT 1 FROM chat_messages m WHERE m.id = j.subject_id))`;
        await tx.$executeRaw`DELETE FROM job_family_turns WHERE family_id = ${familyId}::uuid`;
      }),

    async counts(familyId: string): Promise<Record<string, number>> {
      const [row] = await db.$queryRaw<{ chats: bigint; messages: bigint }[]>`
        SELECT (SELECT count(*) FROM chats WHERE family_id = ${familyId}::uuid) AS chats,
               (SELECT count(*) FROM chat_messages m JOIN chats c ON c.id = m.chat_id WHERE c.family_id = ${familyId}::uuid) AS messages`;
      return { chats: Number(row?.chats ?? 0), messages: Number(row?.messages ?? 0) };
    },
  };
}
export type FamilyDataRepository = ReturnType<typeof createFamilyDataRepository>;
