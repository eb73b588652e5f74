import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutboxRelay } from "../../src/events/relay";
import { ADMIN_URL, cleanup } from "../migrations/helpers";
import { RecordingPublisher, capturingLogger, insertEvent as insertInto, outboxDatabase } from "./outbox-db";

let pool: pg.Pool;
let publisher: RecordingPublisher;
let relay: OutboxRelay;

const insertEvent = (client: pg.Pool | pg.PoolClient = pool, label = "e") => insertInto(client, { label });

beforeAll(async () => {
  pool = await outboxDatabase();
});
afterAll(async () => {
  await pool.end();
  await cleanup();
});
beforeEach(async () => {
  await pool.query("TRUNCATE outbox_events, outbox_dead_letters");
  publisher = new RecordingPublisher();
  relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 2, retainPublishedMs: 60_000 });
});

describe("OutboxRelay", () => {
  it("refuses a claim timeout that is not a positive number (it is written into every drain's SQL)", () => {
    for (const claimTimeoutMs of [Number.NaN, Infinity, 0, -5]) {
      expect(() => new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), claimTimeoutMs })).toThrow(/claimTimeoutMs must be a positive number/);
    }
  });

  it("publishes in insertion order, in batches, and marks what the publisher acknowledged", async () => {
    const ids = [await insertEvent(), await insertEvent(), await insertEvent()];
    expect(await relay.drainOnce()).toBe(3);
    expect(await relay.drainOnce()).toBe(0);
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids);
    // One publish call per batch read (batchSize 2): the second batch is the short one that ends the drain.
    expect(publisher.calls.map((call) => call.map((m) => m.eventId))).toEqual([ids.slice(0, 2), ids.slice(2)]);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL");
    expect(rows[0].n).toBe(0);
  });

  it("stops a drain at maxDrainRows, commits its marks, and the next drain goes on after them", async () => {
    relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 2, maxDrainRows: 4 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await insertEvent());
    expect(await relay.drainOnce()).toBe(4);
    const { rows } = await pool.query<{ event_id: string }>("SELECT event_id FROM outbox_events WHERE published_at IS NOT NULL ORDER BY id");
    expect(rows.map((r) => r.event_id)).toEqual(ids.slice(0, 4));
    expect(await relay.drainOnce()).toBe(3);
    expect(await relay.drainOnce()).toBe(0);
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids);
    expect(publisher.calls.map((call) => call.length)).toEqual([2, 2, 2, 1]);
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

describe("OutboxRelay with events a receiver can never take", () => {
  const deadLetters = () =>
    pool
      .query<{ event_id: string; topic: string; message_key: string; payload: unknown; error: string }>(
        "SELECT event_id, topic, message_key, payload, error FROM outbox_dead_letters ORDER BY id",
      )
      .then((r) => r.rows);

  it("splits a batch into calls bounded by bytes, so large events never exceed the receiver's body limit", async () => {
    relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 100, maxBatchBytes: 100_000 });
    publisher.maxCallBytes = 120_000;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await insertInto(pool, { label: `big-${i}`, text: "x".repeat(40_000) }));
    expect(await relay.drainOnce()).toBe(10);
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids);
    expect(publisher.calls.length).toBeGreaterThanOrEqual(4);
    for (const call of publisher.calls) expect(Buffer.byteLength(JSON.stringify(call.map((m) => m.payload)))).toBeLessThanOrEqual(100_000);
    expect(await deadLetters()).toEqual([]);
  });

  it("moves a poison event to the dead letters with its error, logs it, and delivers the events behind it in order", async () => {
    const { log, lines } = capturingLogger();
    relay = new OutboxRelay({ pool, publisher, log, batchSize: 100 });
    const before = [await insertEvent(), await insertEvent()];
    const poison = await insertInto(pool, { label: "poison" }, "fam-p");
    const after = [await insertEvent(), await insertEvent(), await insertEvent()];
    publisher.poison = (m) => (m.payload as { label?: string }).label === "poison";

    expect(await relay.drainOnce()).toBe(6);
    expect(publisher.published.map((m) => m.eventId)).toEqual([...before, ...after]);
    expect(await deadLetters()).toEqual([
      { event_id: poison, topic: "hearth.audit.auth", message_key: "fam-p", payload: { label: "poison" }, error: expect.stringContaining("validation_failed") },
    ]);
    expect(await relay.deadLetterCount()).toBe(1);
    // Handed to the publisher's own dead-letter channel (a Kafka topic), and logged at error level with the event id.
    expect(publisher.deadLetters.map((d) => d.message.eventId)).toEqual([poison]);
    expect(lines.filter((line) => line.level === 50 && line["event_id"] === poison)).toHaveLength(1);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL");
    expect(rows[0].n).toBe(0);
    expect(await relay.drainOnce()).toBe(0);
  });

  it("dead-letters a single event that is over the receiver's limit on its own", async () => {
    relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 100, maxBatchBytes: 50_000 });
    publisher.maxCallBytes = 60_000;
    const small = await insertEvent();
    const huge = await insertInto(pool, { text: "x".repeat(70_000) });
    const last = await insertEvent();
    expect(await relay.drainOnce()).toBe(3);
    expect(publisher.published.map((m) => m.eventId)).toEqual([small, last]);
    expect((await deadLetters()).map((d) => [d.event_id, d.error])).toEqual([[huge, expect.stringContaining("payload_too_large")]]);
  });

  it("never dead-letters on a failure that may pass (receiver down): it keeps the events and retries", async () => {
    relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 100 });
    const ids = [await insertEvent(), await insertEvent()];
    publisher.failing = true;
    await expect(relay.drainOnce()).rejects.toThrow("broker down");
    await expect(relay.drainOnce()).rejects.toThrow("broker down");
    expect(await deadLetters()).toEqual([]);
    publisher.failing = false;
    expect(await relay.drainOnce()).toBe(2);
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids);
  });

  it("keeps what it delivered before a failure that may pass, and resumes after it", async () => {
    relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 100, maxBatchBytes: 30_000 });
    const first = await insertInto(pool, { text: "x".repeat(20_000) });
    const second = await insertInto(pool, { text: "y".repeat(20_000) });
    let calls = 0;
    const publish = publisher.publish.bind(publisher);
    publisher.publish = async (messages) => {
      if (++calls === 2) throw new Error("broker down");
      return publish(messages);
    };
    await expect(relay.drainOnce()).rejects.toThrow("broker down");
    const { rows } = await pool.query("SELECT event_id FROM outbox_events WHERE published_at IS NOT NULL");
    expect(rows.map((r) => r.event_id)).toEqual([first]);
    expect(await relay.drainOnce()).toBe(1);
    expect(publisher.published.map((m) => m.eventId)).toEqual([first, second]);
  });
});
