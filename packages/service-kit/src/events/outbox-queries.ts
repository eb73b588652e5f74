import type pg from "pg";
import { publishHorizon } from "./publish-horizon";
import type { OutboxMessage } from "./relay";

/**
 * The advisory lock (two int keys, per database) an outbox relay holds for the transaction in
 * which it reads, publishes and marks a batch. With several gateway instances one relay
 * publishes at a time and the others stand by: a single publisher is what keeps each family's
 * events in order. Transaction-scoped, so a relay that dies or is cut off releases it.
 */
export const RELAY_CLAIM_LOCK = [0x4845_4152, 0x4f42_5831] as const; // "HEAR", "OBX1"

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: unknown;
  headers: Record<string, string>;
}

type Sql = pg.Pool | pg.PoolClient;

/** What a drain starts from: whether it holds the claim, and the horizon of the rows it may publish. */
export interface DrainStart {
  claimed: boolean;
  horizon: bigint;
}

/**
 * Opens the relay's transaction, bounds how long it may sit idle (`claimTimeoutMs`), takes the
 * claim if no other relay holds it and reads the publish horizon, in one round trip. The next
 * xid is read in a statement before pg_stat_activity (which a transaction reads once and keeps):
 * every xid below it is then either listed as running or ended. Only this database's sessions
 * count: the cluster-wide snapshot xmin would let a long transaction in another database (another
 * service, a test) stall the relay.
 */
export async function beginDrain(client: pg.PoolClient, claimTimeoutMs: number): Promise<DrainStart> {
  const results = (await client.query(
    `BEGIN;
     SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1, Math.round(claimTimeoutMs))};
     SELECT pg_try_advisory_xact_lock(${RELAY_CLAIM_LOCK[0]}, ${RELAY_CLAIM_LOCK[1]}) AS claimed, pg_snapshot_xmax(pg_current_snapshot())::text AS next_xid;
     SELECT backend_xid::text AS xid FROM pg_stat_activity
      WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()`,
  )) as unknown as pg.QueryResult[];
  const claim = results[2]?.rows[0] as { claimed: boolean; next_xid: string } | undefined;
  const running = (results[3]?.rows ?? []) as { xid: string }[];
  if (!claim) throw new Error("the relay's drain start returned no claim row");
  return {
    claimed: claim.claimed,
    horizon: publishHorizon(
      BigInt(claim.next_xid),
      running.map((row) => row.xid),
    ),
  };
}

/**
 * Marks `markIds` published and reads the next unpublished rows below the horizon after
 * `afterId`, in id order, in one statement (one round trip per batch). The read sees the rows as
 * they were before the mark, which is why it starts after `afterId`: below the horizon no row
 * can appear behind it (see publishHorizon).
 */
export async function markAndReadNext(
  client: pg.PoolClient,
  next: { horizon: bigint; afterId: bigint; limit: number; markIds: readonly bigint[] },
): Promise<OutboxMessage[]> {
  const { rows } = await client.query<OutboxRow>(
    `WITH marked AS (UPDATE outbox_events SET published_at = clock_timestamp() WHERE id = ANY($4::bigint[]))
     SELECT id, event_id, topic, message_key, payload, headers FROM outbox_events
      WHERE published_at IS NULL AND txid < $1 AND id > $2
      ORDER BY id LIMIT $3`,
    [next.horizon.toString(), next.afterId.toString(), next.limit, next.markIds.map(String)],
  );
  return rows.map((row) => ({
    id: BigInt(row.id),
    eventId: row.event_id,
    topic: row.topic,
    key: row.message_key,
    payload: row.payload,
    headers: row.headers,
  }));
}

/**
 * Marks the last published rows and commits the drain, in one round trip. The ids are bigints
 * written into the statement (a simple query of two statements takes no parameters).
 */
export async function markAndCommit(client: pg.PoolClient, markIds: readonly bigint[]): Promise<void> {
  if (markIds.length === 0) {
    await client.query("COMMIT");
    return;
  }
  const ids = markIds.map((id) => BigInt(id).toString()).join(",");
  await client.query(`UPDATE outbox_events SET published_at = clock_timestamp() WHERE id = ANY('{${ids}}'::bigint[]); COMMIT`);
}

/** Moves a row from the outbox to `outbox_dead_letters` with the error that refused it. */
export async function moveToDeadLetters(sql: Sql, message: OutboxMessage, error: string): Promise<void> {
  await sql.query(
    `WITH moved AS (DELETE FROM outbox_events WHERE id = $1 RETURNING event_id, topic, message_key, payload, headers, created_at)
     INSERT INTO outbox_dead_letters (event_id, topic, message_key, payload, headers, error, created_at)
     SELECT event_id, topic, message_key, payload, headers, $2, created_at FROM moved
     ON CONFLICT (event_id) DO NOTHING`,
    [message.id.toString(), error],
  );
}

/** How many events were dead-lettered and wait for an operator (a gauge for metrics). */
export async function countDeadLetters(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_dead_letters");
  return rows[0]?.n ?? 0;
}

/** Deletes published rows older than `before`; unpublished rows are never touched. */
export async function purgePublishedBefore(sql: Sql, before: Date): Promise<number> {
  const result = await sql.query("DELETE FROM outbox_events WHERE published_at IS NOT NULL AND published_at < $1", [before]);
  return result.rowCount ?? 0;
}
