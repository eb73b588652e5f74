import type pg from "pg";
import { familyClaimLockKey, jobLockFree, jobLockKey } from "./job-sql";

/** A job as its claim returns it. */
export interface ClaimedJobRow {
  id: string;
  queue: string;
  family_id: string;
  subject_id: string | null;
  payload: unknown;
  /** Claims so far, this one included. */
  attempts: number;
  lease_token: string;
  /** Claimed from a worker that died while running it. */
  taken_over: boolean;
  /** A cancel was asked for (cancelJobs) before this claim. */
  cancel_requested: boolean;
  /** The row the queue's `onClaim` statement returned in the claim's transaction (null: none, or no such statement ran). */
  on_claim: unknown;
  /**
   * Whether another job may be due now: false when this claim saw no other (so the runner does
   * not ask again at once; a job queued meanwhile is poked, or found at the next poll).
   */
  more_due: boolean;
}

/** A job as one claim statement returns it (what it saw of the queue besides is the claim's). */
type ClaimRow = Omit<ClaimedJobRow, "more_due">;

const CLAIMED = `id::text, queue, family_id::text, subject_id::text, payload, attempts, lease_token::text, cancel_requested_at IS NOT NULL AS cancel_requested`;

/**
 * Claims the next job of `queue` on `client`, which then holds the job's lock until it is
 * released (releaseJobLock) or the connection ends. A dead worker's job first; then, between
 * families, the one with the fewest jobs running in the queue, then the one served longest ago
 * (or never), each family's jobs oldest first; a family already running `perFamilyLimit` waits.
 */
export async function claimJob(
  client: pg.PoolClient,
  { queue, perFamilyLimit, onClaim }: ClaimOf,
  stall: { ms: number; look: boolean },
): Promise<ClaimedJobRow | null> {
  if (!Number.isInteger(perFamilyLimit)) throw new RangeError(`perFamilyLimit must be a whole number (got ${perFamilyLimit})`);
  if (stall.look) await endStalledHolders(client, queue, stall.ms);
  // The usual claim in one round trip (a claim is on the path of every write's balance sync: its
  // round trips showed there). A dead worker's job, or a claim that lost its race, takes the full look.
  const first = await claimFirstInTurn(client, { queue, perFamilyLimit, onClaim });
  if (first.row) return { ...first.row, taken_over: false, more_due: first.moreDue };
  if (!first.deadSeen && !first.familyTried) return null;
  const candidates = await client.query<{ kind: "dead" | "family"; id: string; due: number }>(
    `SELECT kind, id, due FROM (
       (SELECT 'dead' AS kind, j.id::text AS id, 0 AS due, 0 AS branch, row_number() OVER (ORDER BY j.heartbeat_at NULLS FIRST, j.id) AS rank
          FROM jobs j WHERE j.queue = $1 AND j.status = 'running' AND ${jobLockFree("j.id")}
         ORDER BY j.heartbeat_at NULLS FIRST, j.id LIMIT 5)
       UNION ALL
       (SELECT 'family', f.family_id::text, f.due::int, 1, row_number() OVER (ORDER BY ${FAMILY_TURN_ORDER})
          FROM ${familiesDue("$1", "$2")}
         ORDER BY ${FAMILY_TURN_ORDER}
         LIMIT 6)) c
      ORDER BY branch, rank`,
    [queue, perFamilyLimit],
  );
  const dead = candidates.rows.filter((candidate) => candidate.kind === "dead");
  const families = candidates.rows.filter((candidate) => candidate.kind === "family");
  for (const { id } of dead) {
    const taken = await inTransaction(client, () => takeOver(client, id));
    if (taken) return { ...taken, more_due: true };
  }
  // Five are tried; a sixth only tells that more is due.
  for (const [at, { id: familyId, due }] of families.slice(0, 5).entries()) {
    const taken = await takeQueued(client, { queue, perFamilyLimit, onClaim }, familyId);
    if (taken) return { ...taken, more_due: due > 1 || at < families.length - 1 };
  }
  return null;
}

/** What a claim is of: the queue, its running limit per family, and its `onClaim` statement (JobDefinition's). */
export interface ClaimOf {
  queue: string;
  perFamilyLimit: number;
  onClaim?: string | undefined;
}

/**
 * The families with a job of the queue due and fewer than the limit running (`f`: family_id, due,
 * oldest; `r.running`; `t.last_claimed_at`), for SQL expressions naming the queue and the limit.
 */
const familiesDue = (queueSql: string, limitSql: string) => `
  (SELECT family_id, min(run_after) AS oldest, count(*) AS due FROM jobs
    WHERE queue = ${queueSql} AND status = 'queued' AND run_after <= now() GROUP BY family_id) f
  CROSS JOIN LATERAL (SELECT count(*) AS running FROM jobs r WHERE r.queue = ${queueSql} AND r.family_id = f.family_id AND r.status = 'running') r
  LEFT JOIN job_family_turns t ON t.queue = ${queueSql} AND t.family_id = f.family_id
  WHERE r.running < ${limitSql}`;

/** Between families: the fewest running, then the one served longest ago (or never), then the oldest job. */
const FAMILY_TURN_ORDER = `r.running, t.last_claimed_at NULLS FIRST, f.oldest, f.family_id`;

/**
 * The claim when no dead worker's job waits: the family first in turn is chosen, its claims
 * serialised, and its oldest due job taken, in one round trip (the family travels between the
 * statements as a transaction-local setting). No row when a dead worker's job was seen (it goes
 * first, in the full look) or the family's claim found nothing (another claim took it first).
 */
async function claimFirstInTurn(
  client: pg.PoolClient,
  claimOf: ClaimOf,
): Promise<{ row: ClaimRow | null; moreDue: boolean; deadSeen: boolean; familyTried: boolean }> {
  const { queue, perFamilyLimit } = claimOf;
  const q = client.escapeLiteral(queue);
  // NULL when no family was chosen: every statement after is then a no-op (an empty cast would fail).
  const family = `nullif(current_setting('hearth.claim_family'), '')`;
  const claim = `BEGIN ISOLATION LEVEL READ COMMITTED;
    SELECT d.dead, f.families::int, f.due::int,
           set_config('hearth.claim_family', CASE WHEN d.dead THEN '' ELSE coalesce(f.family_id::text, '') END, true) AS family
      FROM (SELECT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${q} AND j.status = 'running' AND ${jobLockFree("j.id")}) AS dead) d
      LEFT JOIN LATERAL (
        SELECT f.family_id, f.due, count(*) OVER () AS families FROM ${familiesDue(q, String(perFamilyLimit))}
         ORDER BY ${FAMILY_TURN_ORDER} LIMIT 1) f ON true;
    ${takeStatements(q, family, claimOf, `${family} IS NOT NULL`)}
    COMMIT;`;
  const results = await runClaimStatements<{ dead: boolean; families: number | null; due: number | null; family: string }>(client, claim);
  const seen = results[1]?.rows[0];
  const row = results[3]?.rows[0] as Omit<ClaimRow, "taken_over"> | undefined;
  return {
    row: row ? { ...row, taken_over: false } : null,
    moreDue: (seen?.families ?? 0) > 1 || (seen?.due ?? 0) > 1,
    deadSeen: seen?.dead === true,
    familyTried: (seen?.family ?? "") !== "",
  };
}

/**
 * A holder whose heartbeat stopped `stallMs` ago while its lock stays held is gone without its
 * connection knowing yet (its host lost, a network split: the server learns of it only from TCP
 * keepalives): its connection is ended, so the job is taken over at a next claim. A live but
 * stalled worker ended so loses the job cleanly (every write of it names its lease token).
 */
async function endStalledHolders(client: pg.PoolClient, queue: string, stallMs: number): Promise<void> {
  await client.query(
    `SELECT pg_terminate_backend(l.pid) FROM jobs j
       JOIN pg_locks l ON l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid = ((${jobLockKey("j.id")} >> 32) & 4294967295)::oid AND l.objid = (${jobLockKey("j.id")} & 4294967295)::oid
      WHERE j.queue = $1 AND j.status = 'running' AND j.heartbeat_at < now() - $2 * interval '1 millisecond' AND l.pid <> pg_backend_pid()`,
    [queue, stallMs],
  );
}

/** A dead worker's job, unless a live one took it first (its row is locked, or its lock held). */
async function takeOver(client: pg.PoolClient, id: string): Promise<ClaimRow | null> {
  const row = await client.query(`SELECT id FROM jobs WHERE id = $1 AND status = 'running' FOR UPDATE SKIP LOCKED`, [id]);
  if (row.rowCount === 0 || !(await tryJobLock(client, id))) return null;
  return markClaimed(client, id, true);
}

/**
 * The family's oldest waiting job, when the family is still under its running limit: one round
 * trip (the simple protocol runs the statements one after the other, values written in as
 * literals), where it took eight. The family's claims are serialised by a transaction lock taken
 * first (read committed: the count after it sees every claim committed before). The job's own lock
 * is tried once, on the one row chosen, in a CTE of its own: tried in the UPDATE's condition, it was
 * tried again when a concurrent change of the row made PostgreSQL recheck that condition, and the
 * lock was then held twice (released once, it stayed on a pooled connection). It can still be held
 * for a moment by the worker of its previous attempt, releasing it: then nothing is claimed.
 */
async function takeQueued(client: pg.PoolClient, claimOf: ClaimOf, familyId: string): Promise<ClaimRow | null> {
  const q = client.escapeLiteral(claimOf.queue);
  const claim = `BEGIN ISOLATION LEVEL READ COMMITTED;
    ${takeStatements(q, client.escapeLiteral(familyId), claimOf, "true")}
    COMMIT;`;
  const row = (await runClaimStatements(client, claim))[2]?.rows[0] as Omit<ClaimRow, "taken_over"> | undefined;
  return row ? { ...row, taken_over: false } : null;
}

/**
 * The two statements of a family's claim (see takeQueued), for SQL expressions naming the queue
 * and the family (its uuid as text), when `whenSql` holds; the queue's onClaim statement rides on
 * the job claimed.
 */
function takeStatements(q: string, family: string, { perFamilyLimit, onClaim }: ClaimOf, whenSql: string): string {
  return `SELECT pg_advisory_xact_lock(${familyClaimLockKey(q, family)}) WHERE ${whenSql};
    WITH next AS (
      SELECT id FROM jobs
       WHERE ${whenSql} AND queue = ${q} AND family_id = (${family})::uuid AND status = 'queued' AND run_after <= now()
         AND (SELECT count(*) FROM jobs WHERE queue = ${q} AND family_id = (${family})::uuid AND status = 'running') < ${perFamilyLimit}
       ORDER BY run_after, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED),
    locked AS (
      SELECT id AS locked_id FROM next WHERE pg_try_advisory_lock(${jobLockKey("next.id")})),
    claimed AS (
      UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_token = gen_random_uuid(),
                      heartbeat_at = now(), started_at = now(), updated_at = now()
        FROM locked WHERE jobs.id = locked.locked_id
      RETURNING ${CLAIMED}),
    turn AS (
      INSERT INTO job_family_turns (queue, family_id, last_claimed_at) SELECT ${q}, (${family})::uuid, now() FROM claimed
      ON CONFLICT (queue, family_id) DO UPDATE SET last_claimed_at = now())${
        onClaim
          ? `,
    on_claim AS (${onClaim})`
          : ""
      }
    SELECT claimed.*, ${onClaim ? "(SELECT row_to_json(o) FROM on_claim o LIMIT 1)" : "NULL::json"} AS on_claim FROM claimed;`;
}

/** Runs a claim's statements in one round trip: their results, one per statement. */
async function runClaimStatements<R extends pg.QueryResultRow>(client: pg.PoolClient, statements: string): Promise<pg.QueryResult<R>[]> {
  try {
    return (await client.query(statements)) as unknown as pg.QueryResult<R>[];
  } catch (err) {
    // The transaction is left aborted, and a job lock may have been taken: the connection is ended.
    throw Object.assign(err as Error, { endConnection: true });
  }
}

async function tryJobLock(client: pg.PoolClient, id: string): Promise<boolean> {
  const locked = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${jobLockKey("$1::uuid")}) AS locked`, [id]);
  return locked.rows[0]?.locked === true;
}

async function markClaimed(client: pg.PoolClient, id: string, takenOver: boolean): Promise<ClaimRow> {
  const claimed = await client.query<Omit<ClaimRow, "taken_over">>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_token = gen_random_uuid(),
                     heartbeat_at = now(), started_at = now(), updated_at = now()
      WHERE id = $1 RETURNING ${CLAIMED}, NULL::json AS on_claim`,
    [id],
  );
  return { ...claimed.rows[0]!, taken_over: takenOver };
}

/**
 * Runs `fn` in a transaction on `client`. The job lock it may take is the session's, and stays
 * after a rollback: on any failure the connection is ended (with it the lock), and the error thrown.
 */
async function inTransaction<T>(client: pg.PoolClient, fn: () => Promise<T | null>): Promise<T | null> {
  await client.query("BEGIN");
  try {
    const result = await fn();
    await client.query(result === null ? "ROLLBACK" : "COMMIT");
    return result;
  } catch (err) {
    throw Object.assign(err as Error, { endConnection: true });
  }
}

/**
 * Gives the job's lock back once its end is written (a failure ends the connection instead: the
 * caller's). Every session lock of the connection goes: it served this one job, and a lock left
 * on a pooled connection would make its job look alive, and its family's claims fail, for as long
 * as the connection lives.
 */
export async function releaseJobLock(client: pg.PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock_all()`);
}

/**
 * The worker's sign of life, on the connection that holds the job's lock: false when the job is
 * no longer this worker's (taken over after a lost connection, or ended); `cancel` when asked to stop.
 */
export async function heartbeat(client: pg.PoolClient, id: string, leaseToken: string): Promise<"held" | "lost" | "cancel"> {
  const beat = await client.query<{ cancel: boolean }>(
    `UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND lease_token = $2 AND status = 'running'
     RETURNING cancel_requested_at IS NOT NULL AS cancel`,
    [id, leaseToken],
  );
  const row = beat.rows[0];
  return !row ? "lost" : row.cancel ? "cancel" : "held";
}
