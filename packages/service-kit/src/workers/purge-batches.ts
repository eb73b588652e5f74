import { isLockTimeout, isStatementTimeout } from "../prisma-errors";

/** How long one purge batch may wait for a lock, and run: within the purger's call timeout, so no DELETE outlives its call. */
export interface BatchTimeouts {
  lockMs: number;
  statementMs: number;
}

interface RawExecutor {
  $executeRawUnsafe(query: string): Promise<number>;
}

/** Sets a batch's lock and statement timeouts for the rest of its transaction (SET LOCAL); past either it fails with 55P03 or 57014. */
export async function limitBatch(tx: RawExecutor, timeouts: BatchTimeouts): Promise<void> {
  await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(timeouts.lockMs))}`);
  await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeouts.statementMs))}`);
}

/** Prisma's limits for a batch's transaction, past PostgreSQL's: a batch ends by its own timeout, never by Prisma's P2028 at commit. */
export const batchTransactionOptions = (timeouts: BatchTimeouts) => ({ timeout: timeouts.lockMs + timeouts.statementMs + 2_000, maxWait: 5_000 });

/**
 * Deletes with `deleteBatch(size)` (answering how many rows went) until a batch takes fewer than
 * its size: `finished`. It stops early, unfinished, at `deadline` or when other work holds the
 * rows (a lock timeout): the caller's next step carries on. A batch too slow for its statement
 * timeout (rows cascading to many others) is retried a tenth the size, down to one row, so a
 * purge always moves on; one row still too slow is an error for the caller to back off from.
 */
export async function deleteInShrinkingBatches(
  deleteBatch: (size: number) => Promise<number>,
  options: { batchSize: number; deadline: number },
): Promise<{ finished: boolean; deleted: number }> {
  let size = options.batchSize;
  let deleted = 0;
  for (;;) {
    let gone: number;
    try {
      gone = await deleteBatch(size);
    } catch (err) {
      if (isLockTimeout(err)) return { finished: false, deleted };
      if (!isStatementTimeout(err) || size === 1) throw err;
      size = Math.max(1, Math.floor(size / 10));
      if (Date.now() >= options.deadline) return { finished: false, deleted };
      continue;
    }
    deleted += gone;
    if (gone < size) return { finished: true, deleted };
    if (Date.now() >= options.deadline) return { finished: false, deleted };
  }
}
