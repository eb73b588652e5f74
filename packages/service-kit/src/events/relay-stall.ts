import type pg from "pg";
import { RELAY_CLAIM_LOCK } from "./outbox-queries";

/** A session of the database, as pg_stat_activity describes it. */
export interface SessionFacts {
  pid: number;
  state: string | null;
  applicationName: string | null;
  /** How long its transaction has been open. */
  transactionMs: number | null;
  /** Its current or last statement, cut short. */
  query: string | null;
}

/**
 * Why the oldest unpublished event is still waiting:
 * - held_back_by_transaction: a transaction of this database older than the event is still
 *   open (often "idle in transaction"); the relay may not pass it, or a late commit would be skipped;
 * - claimed_by_another_relay: another relay holds the claim (it publishes, or it hangs);
 * - publisher_failing: this relay's last attempt failed (broker or audit service down);
 * - backlog: the relay is publishing but has not caught up yet.
 */
export type StallReason = "held_back_by_transaction" | "claimed_by_another_relay" | "publisher_failing" | "backlog";

export interface StallDiagnosis {
  reason: StallReason;
  /** How long the oldest unpublished event has been waiting. */
  waitingMs: number;
  pending: number;
  oldestEventId: string;
  blocker?: SessionFacts;
  claimHolder?: SessionFacts;
  lastError?: string;
}

interface StallRow {
  waiting_ms: number;
  pending: number;
  oldest_event_id: string;
  held_back: boolean;
  blocker: SessionRow | null;
  claim_holder: SessionRow | null;
}

interface SessionRow {
  pid: number;
  state: string | null;
  application_name: string | null;
  transaction_ms: number | null;
  query: string | null;
}

const SESSION_JSON = `json_build_object('pid', a.pid, 'state', a.state, 'application_name', nullif(a.application_name, ''),
  'transaction_ms', (extract(epoch FROM now() - a.xact_start) * 1000)::bigint, 'query', left(a.query, 200))`;

/**
 * What holds the outbox back, or null when its oldest unpublished event waits less than
 * `stallAfterMs`. Reads pg_stat_activity and pg_locks only; never blocks.
 */
export async function diagnoseStall(pool: pg.Pool, stallAfterMs: number, lastError: string | null): Promise<StallDiagnosis | null> {
  const { rows } = await pool.query<StallRow>(
    `WITH oldest AS (
       SELECT event_id, txid, created_at FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 1),
     blocker AS (
       SELECT a.backend_xid, ${SESSION_JSON} AS facts FROM pg_stat_activity a
        WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()
        ORDER BY age(a.backend_xid) DESC LIMIT 1),
     claim_holder AS (
       SELECT ${SESSION_JSON} AS facts FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $2 AND l.objid = $3 AND l.objsubid = 2
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) LIMIT 1)
     SELECT (extract(epoch FROM now() - oldest.created_at) * 1000)::float8 AS waiting_ms,
            (SELECT count(*)::int FROM outbox_events WHERE published_at IS NULL) AS pending,
            oldest.event_id AS oldest_event_id,
            coalesce(age((oldest.txid % 4294967296)::text::xid) <= age(blocker.backend_xid), false) AS held_back,
            (SELECT facts FROM blocker) AS blocker,
            (SELECT facts FROM claim_holder) AS claim_holder
       FROM oldest LEFT JOIN blocker ON true
      WHERE oldest.created_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [stallAfterMs, ...RELAY_CLAIM_LOCK],
  );
  const row = rows[0];
  if (!row) return null;
  const base = { waitingMs: Math.round(row.waiting_ms), pending: row.pending, oldestEventId: row.oldest_event_id };
  if (row.held_back && row.blocker) return { ...base, reason: "held_back_by_transaction", blocker: sessionFacts(row.blocker) };
  if (row.claim_holder) return { ...base, reason: "claimed_by_another_relay", claimHolder: sessionFacts(row.claim_holder) };
  if (lastError !== null) return { ...base, reason: "publisher_failing", lastError };
  return { ...base, reason: "backlog" };
}

function sessionFacts(row: SessionRow): SessionFacts {
  return { pid: row.pid, state: row.state, applicationName: row.application_name, transactionMs: row.transaction_ms, query: row.query };
}
