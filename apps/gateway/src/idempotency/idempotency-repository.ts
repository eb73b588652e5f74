import type { IdentityDb } from "../db";

/** A stored answer: what the first request with this key got. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

export interface IdempotencyRecord {
  requestHash: string;
  answer: StoredAnswer | null;
  /** When an unfinished request's claim lapses (its gateway died): after that the key may run again. */
  lockedUntil: Date;
}

/** Idempotency keys per credential (API key or user), kept for a day. */
export function createIdempotencyRepository(db: IdentityDb) {
  return {
    /**
     * Takes the key for one run: a new key, or one older than the retention (it starts afresh).
     * False when another request holds or used it within the retention (read it then).
     */
    async claim(credential: string, key: string, requestHash: string, lockMs: number, retentionMs: number): Promise<boolean> {
      const rows = await db.$queryRaw<{ key: string }[]>`
        INSERT INTO idempotency_keys (credential, key, request_hash, locked_until)
        VALUES (${credential}, ${key}, ${requestHash}, now() + ${lockMs} * interval '1 millisecond')
        ON CONFLICT (credential, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL, completed_at = NULL, created_at = now(), locked_until = EXCLUDED.locked_until
          WHERE idempotency_keys.created_at < now() - ${retentionMs} * interval '1 millisecond'
        RETURNING key`;
      return rows.length === 1;
    },

    async find(credential: string, key: string): Promise<IdempotencyRecord | null> {
      const [row] = await db.$queryRaw<{ request_hash: string; status: number | null; body: unknown; locked_until: Date }[]>`
        SELECT request_hash, status, body, locked_until FROM idempotency_keys WHERE credential = ${credential} AND key = ${key}`;
      if (!row) return null;
      return { requestHash: row.request_hash, answer: row.status === null ? null : { status: row.status, body: row.body }, lockedUntil: row.locked_until };
    },

    /** Re-takes a key whose run was abandoned (its claim lapsed), unless someone else just did. */
    async reclaimLapsed(credential: string, key: string, requestHash: string, lockMs: number): Promise<boolean> {
      const count = await db.$executeRaw`
        UPDATE idempotency_keys SET locked_until = now() + ${lockMs} * interval '1 millisecond'
         WHERE credential = ${credential} AND key = ${key} AND request_hash = ${requestHash} AND status IS NULL AND locked_until < now()`;
      return count === 1;
    },

    async complete(credential: string, key: string, answer: StoredAnswer): Promise<void> {
      await db.$executeRaw`
        UPDATE idempotency_keys SET status = ${answer.status}, body = ${JSON.stringify(answer.body ?? null)}::jsonb, completed_at = now()
         WHERE credential = ${credential} AND key = ${key}`;
    },

    /** Gives the key back (the request failed before it could have changed anything): a retry runs again. */
    async release(credential: string, key: string): Promise<void> {
      await db.$executeRaw`DELETE FROM idempotency_keys WHERE credential = ${credential} AND key = ${key} AND status IS NULL`;
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
