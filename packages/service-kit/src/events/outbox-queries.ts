import type pg from "pg";
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

/** Takes the relay claim for the current transaction if no other relay holds it. */
export async function tryClaimRelay(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ claimed: boolean }>("SELECT pg_try_advisory_xact_lock($1, $2) AS claimed", [...RELAY_CLAIM_LOCK]);
  return rows[0]?.claimed === true;
}

/**
 * The next unpublished rows in id order, only those older than the oldest transaction still
 * running in this database (by age of its xid): a BIGSERIAL id is assigned at insert but
 * visible at commit, so reading `id > last` alone would skip rows of transactions that commit
 * late. The snapshot's xmin would do, but it is cluster-wide: any long transaction in another
 * database (another service, a test) stalled the relay.
 */
export async function readPublishable(sql: Sql, limit: number): Promise<OutboxMessage[]> {
  const { rows } = await sql.query<OutboxRow>(
    `WITH oldest_running AS (
       SELECT coalesce(max(age(backend_xid)), -1) AS xid_age
         FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL)
     SELECT id, event_id, topic, message_key, payload, headers FROM outbox_events, oldest_running
      WHERE published_at IS NULL AND age((txid % 4294967296)::text::xid) > oldest_running.xid_age
      ORDER BY id LIMIT $1`,
    [limit],
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

export async function markPublished(sql: Sql, messages: OutboxMessage[]): Promise<void> {
  await sql.query("UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::bigint[])", [messages.map((m) => m.id.toString())]);
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
