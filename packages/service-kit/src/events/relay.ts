import type { Logger } from "pino";
import type pg from "pg";

export interface OutboxMessage {
  id: bigint;
  eventId: string;
  topic: string;
  key: string;
  payload: unknown;
  headers: Record<string, string>;
}

/** Where the relay delivers: Kafka, or the audit service directly when no broker is configured. */
export interface EventPublisher {
  readonly name: string;
  publish(messages: OutboxMessage[]): Promise<void>;
  close(): Promise<void>;
}

export interface OutboxRelayOptions {
  pool: pg.Pool;
  publisher: EventPublisher;
  log: Logger;
  batchSize?: number;
  idleDelayMs?: number;
  maxBackoffMs?: number;
  /** How long published rows are kept (for inspection and replay) before they are purged. */
  retainPublishedMs?: number;
}

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: unknown;
  headers: Record<string, string>;
}

/**
 * Publishes the outbox in id order, in batches. It reads only rows older than the oldest
 * transaction still running in this database: a BIGSERIAL id is
 * assigned at insert but visible at commit, so reading `id > last` alone would skip rows
 * of transactions that commit late. A row is marked published only after the publisher
 * acknowledged it; a crash in between re-sends it, and consumers dedupe by event id.
 * Failures back off exponentially; nothing is dropped.
 */
const PURGE_INTERVAL_MS = 3600_000;

export class OutboxRelay {
  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly batchSize: number;
  private readonly idleDelayMs: number;
  private readonly maxBackoffMs: number;
  private readonly retainPublishedMs: number;
  private lastPurgeAt = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.idleDelayMs = options.idleDelayMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.retainPublishedMs = options.retainPublishedMs ?? 7 * 24 * 3600_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the relay to look now instead of at its next poll (called after a commit that wrote events). */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  /** Publishes everything currently publishable once; returns how many were published. */
  async drainOnce(): Promise<number> {
    const rows = await this.readBatch();
    if (rows.length === 0) return 0;
    await this.options.publisher.publish(rows);
    await this.options.pool.query("UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::bigint[])", [rows.map((r) => r.id.toString())]);
    return rows.length;
  }

  /** Deletes published rows older than the retention; unpublished rows are never touched. */
  async purgePublished(now = Date.now()): Promise<number> {
    const result = await this.options.pool.query("DELETE FROM outbox_events WHERE published_at IS NOT NULL AND published_at < $1", [
      new Date(now - this.retainPublishedMs),
    ]);
    this.lastPurgeAt = now;
    return result.rowCount ?? 0;
  }

  private async readBatch(): Promise<OutboxMessage[]> {
    const { rows } = await this.options.pool.query<OutboxRow>(
      // The oldest transaction still running *in this database* (by age of its xid) holds back
      // every row written at or after it. The snapshot's xmin would do, but it is cluster-wide:
      // any long transaction in another database (another service, a test) stalled the relay.
      `WITH oldest_running AS (
         SELECT coalesce(max(age(backend_xid)), -1) AS xid_age
           FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL)
       SELECT id, event_id, topic, message_key, payload, headers FROM outbox_events, oldest_running
        WHERE published_at IS NULL AND age((txid % 4294967296)::text::xid) > oldest_running.xid_age
        ORDER BY id LIMIT $1`,
      [this.batchSize],
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

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      let published = 0;
      try {
        published = await this.drainOnce();
        if (published === 0 && Date.now() - this.lastPurgeAt > PURGE_INTERVAL_MS) await this.purgePublished();
        if (backoff > 0) this.options.log.info({ publisher: this.options.publisher.name }, "outbox relay recovered");
        backoff = 0;
      } catch (err) {
        backoff = Math.min(backoff === 0 ? 200 : backoff * 2, this.maxBackoffMs);
        this.options.log.warn({ err, publisher: this.options.publisher.name, retry_in_ms: backoff }, "outbox relay could not publish; will retry");
      }
      if (published === this.batchSize && backoff === 0) continue;
      await this.sleep(backoff || this.idleDelayMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
