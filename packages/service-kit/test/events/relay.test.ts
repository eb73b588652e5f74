import { randomUUID } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutboxRelay, type EventPublisher, type OutboxMessage } from "../../src/events/relay";
import { ADMIN_URL, cleanup, freshDatabaseUrl } from "../migrations/helpers";

// The same table the gateway's migration creates (the relay is written against it).
const OUTBOX_DDL = `
  CREATE TABLE outbox_events (
    id BIGSERIAL PRIMARY KEY,
    txid BIGINT NOT NULL DEFAULT txid_current(),
    event_id UUID NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    message_key TEXT NOT NULL,
    payload JSONB NOT NULL,
    headers JSONB NOT NULL DEFAULT '{}',
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    published_at TIMESTAMPTZ(3))`;

/** Records what it is given; can be told to fail, as a broker that is down would. */
class RecordingPublisher implements EventPublisher {
  readonly name = "recording";
  readonly published: OutboxMessage[] = [];
  failing = false;
  async publish(messages: OutboxMessage[]): Promise<void> {
    if (this.failing) throw new Error("broker down");
    this.published.push(...messages);
  }
  async close(): Promise<void> {}
}

let pool: pg.Pool;
let publisher: RecordingPublisher;
let relay: OutboxRelay;

async function insertEvent(client: pg.Pool | pg.PoolClient = pool, label = "e"): Promise<string> {
  const eventId = randomUUID();
  await client.query("INSERT INTO outbox_events (event_id, topic, message_key, payload) VALUES ($1, 'hearth.audit.auth', 'fam', $2)", [
    eventId,
    JSON.stringify({ label }),
  ]);
  return eventId;
}

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: freshDatabaseUrl() });
  const { ensureDatabase } = await import("../../src/migrations/ensure-database");
  await ensureDatabase(pool.options.connectionString as string);
  await pool.query(OUTBOX_DDL);
});
afterAll(async () => {
  await pool.end();
  await cleanup();
});
beforeEach(async () => {
  await pool.query("TRUNCATE outbox_events");
  publisher = new RecordingPublisher();
  relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 2, retainPublishedMs: 60_000 });
});

describe("OutboxRelay", () => {
  it("publishes in insertion order, in batches, and marks what the publisher acknowledged", async () => {
    const ids = [await insertEvent(), await insertEvent(), await insertEvent()];
    expect(await relay.drainOnce()).toBe(2);
    expect(await relay.drainOnce()).toBe(1);
    expect(await relay.drainOnce()).toBe(0);
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL");
    expect(rows[0].n).toBe(0);
  });

  it("marks nothing when publishing fails, and delivers the same events once it works again", async () => {
    const id = await insertEvent();
    publisher.failing = true;
    await expect(relay.drainOnce()).rejects.toThrow("broker down");
    const { rows } = await pool.query("SELECT published_at FROM outbox_events WHERE event_id = $1", [id]);
    expect(rows[0].published_at).toBeNull();
    publisher.failing = false;
    expect(await relay.drainOnce()).toBe(1);
    expect(publisher.published.map((m) => m.eventId)).toEqual([id]);
  });

  it("does not skip a row whose transaction commits after a later row's (late commit)", async () => {
    const slow = await pool.connect();
    try {
      await slow.query("BEGIN");
      const lateId = await insertEvent(slow, "late"); // lower id, still uncommitted
      const earlyId = await insertEvent(pool, "early"); // higher id, committed now
      // Nothing past the open transaction may be published, or the late row would be overtaken.
      expect(await relay.drainOnce()).toBe(0);
      await slow.query("COMMIT");
      expect(await relay.drainOnce()).toBe(2);
      expect(publisher.published.map((m) => m.eventId)).toEqual([lateId, earlyId]);
    } finally {
      slow.release();
    }
  });

  it("is not held back by a transaction open in another database (regression: the cluster-wide xmin stalled it)", async () => {
    const elsewhere = new pg.Client({ connectionString: ADMIN_URL });
    await elsewhere.connect();
    try {
      await elsewhere.query("BEGIN");
      await elsewhere.query("SELECT txid_current()"); // holds an xid, as a writing transaction does
      const id = await insertEvent();
      expect(await relay.drainOnce()).toBe(1);
      expect(publisher.published.map((m) => m.eventId)).toEqual([id]);
    } finally {
      await elsewhere.query("ROLLBACK");
      await elsewhere.end();
    }
  });

  it("runs in the background, backs off while failing and recovers without losing events", async () => {
    publisher.failing = true;
    relay.start();
    const ids = [await insertEvent(), await insertEvent(), await insertEvent()];
    relay.poke();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(publisher.published).toEqual([]);
    publisher.failing = false;
    await expect.poll(() => publisher.published.map((m) => m.eventId), { timeout: 15_000 }).toEqual(ids);
    await relay.stop();
  });

  it("purges only published rows older than the retention", async () => {
    const old = await insertEvent();
    const recent = await insertEvent();
    const pending = await insertEvent();
    await pool.query("UPDATE outbox_events SET published_at = now() - interval '2 minutes' WHERE event_id = $1", [old]);
    await pool.query("UPDATE outbox_events SET published_at = now() WHERE event_id = $1", [recent]);
    expect(await relay.purgePublished()).toBe(1);
    const { rows } = await pool.query("SELECT event_id FROM outbox_events ORDER BY id");
    expect(rows.map((r) => r.event_id)).toEqual([recent, pending]);
  });
});
