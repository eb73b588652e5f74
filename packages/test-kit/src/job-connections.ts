/** What endJobConnection needs of a service's database client. */
interface RawSql {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
}

/**
 * Ends the connection that holds a running job's lock (the job runner's, service-kit/jobs), as the
 * death of its worker's process would: the job is then a dead worker's, taken over at the next
 * claim. When it ended, by the database's clock; throws when no connection held the job.
 */
export async function endJobConnection(db: RawSql, jobId: string, { timeoutMs = 20_000 } = {}): Promise<Date> {
  const [ended] = await db.$queryRaw<{ at: Date; pid: number }[]>`
    SELECT now() AS at, pid, pg_terminate_backend(pid) FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND classid = ((hashtextextended('hearth.job:' || ${jobId}, 0) >> 32) & 4294967295)::oid`;
  if (!ended) throw new Error(`no connection holds job ${jobId}`);
  // The backend ends a moment after it is told to (on a busy machine, a while): its lock goes with it.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [alive] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${ended.pid}`;
    if (alive!.n === 0) return ended.at;
    if (Date.now() > deadline) throw new Error(`connection ${ended.pid} still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
