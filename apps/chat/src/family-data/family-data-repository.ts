import type { ChatDb } from "../db";

/** chat's rows of a family, for a purge and the reset status. */
export function createFamilyDataRepository(db: ChatDb) {
  return {
    /**
     * Deletes up to `limit` of the family's chats (their messages go by cascade); answers how many
     * went. Waits at most `lockMs` for a lock (an answer being stored) and runs at most `statementMs`.
     */
    deleteChats: (familyId: string, limit: number, timeouts: { lockMs: number; statementMs: number }): Promise<number> =>
      db.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(timeouts.lockMs))}`);
          await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeouts.statementMs))}`);
          return tx.$executeRaw`DELETE FROM chats WHERE id IN (SELECT id FROM chats WHERE family_id = ${familyId}::uuid LIMIT ${limit})`;
        },
        { timeout: timeouts.lockMs + timeouts.statementMs + 2_000, maxWait: 5_000 },
      ),

    async counts(familyId: string): Promise<Record<string, number>> {
      const [row] = await db.$queryRaw<{ chats: bigint; messages: bigint }[]>`
        SELECT (SELECT count(*) FROM chats WHERE family_id = ${familyId}::uuid) AS chats,
               (SELECT count(*) FROM chat_messages m JOIN chats c ON c.id = m.chat_id WHERE c.family_id = ${familyId}::uuid) AS messages`;
      return { chats: Number(row?.chats ?? 0), messages: Number(row?.messages ?? 0) };
    },
  };
}
export type FamilyDataRepository = ReturnType<typeof createFamilyDataRepository>;
