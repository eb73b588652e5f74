import type pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutboxRelay } from "../../src/events/relay";
import { cleanup } from "../migrations/helpers";
import { RecordingPublisher, insertEvent, outboxDatabase } from "./outbox-db";

let pool: pg.Pool;
let publisher: RecordingPublisher;

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
});

const silent = pino({ level: "silent" });
const unpublished = () =>
  pool.query<{ event_id: string }>("SELECT event_id FROM outbox_events WHERE published_at IS NULL ORDER BY id").then((r) => r.rows.map((row) => row.event_id));
const insertMany = async (count: number, key = "fam") => {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await insertEvent(pool, { seq: i }, key));
  return ids;
};

/** Ends the session that holds the relay claim, as a crash of the relay's connection (or PostgreSQL restarting) would. */
async function killClaimHolder(): Promise<void> {
  const { rows } = await pool.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND objsubid = 2`,
    [...OutboxRelay.CLAIM_LOCK],
  );
  expect(rows).toHaveLength(1);
  await pool.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
}

describe("a drain of several batches", () => {
  it("re-sends every event of a drain whose marks never committed (crash between publish and mark): at least once, in order", async () => {
    const relay = new OutboxRelay({ pool, publisher, log: silent, batchSize: 2 });
    const ids = await insertMany(5);
    const publish = publisher.publish.bind(publisher);
    let calls = 0;
    publisher.publish = async (messages) => {
      await publish(messages);
      // The broker acknowledged the second batch; the session dies before its marks (and the first batch's) commit.
      if (++calls === 2) await killClaimHolder();
    };
    await expect(relay.drainOnce()).rejects.toThrow();
    expect(publisher.published.map((m) => m.eventId)).toEqual(ids.slice(0, 4));
    expect(await unpublished()).toEqual(ids);

    publisher.publish = publish;
    expect(await relay.drainOnce()).toBe(5);
    // The first four went out twice (consumers store them once by event id), all five in order the second time.
    expect(publisher.published.map((m) => m.eventId)).toEqual([...ids.slice(0, 4), ...ids]);
    expect(await unpublished()).toEqual([]);
  });

  it("publishes only rows of transactions that had ended when it began; a row committed meanwhile goes in the next drain", async () => {
    const relay = new OutboxRelay({ pool, publisher, log: silent, batchSize: 1 });
    const before = await insertMany(3);
    let release = () => {};
    publisher.hold = new Promise<void>((resolve) => (release = resolve));
    const drain = relay.drainOnce();
    await expect.poll(() => publisher.calls.length).toBe(1);
    const during = await insertEvent(pool, { label: "during" });
    release();
    publisher.hold = null;
    expect(await drain).toBe(3);
    expect(publisher.published.map((m) => m.eventId)).toEqual(before);
    expect(await relay.drainOnce()).toBe(1);
    expect(publisher.published.map((m) => m.eventId)).toEqual([...before, during]);
  });

  it("does not pass a transaction that was open when it began, even after it commits mid-drain", async () => {
    const relay = new OutboxRelay({ pool, publisher, log: silent, batchSize: 1 });
    const first = await insertEvent(pool);
    const slow = await pool.connect();
    try {
      await slow.query("BEGIN");
      const late = await insertEvent(slow, { label: "late" }); // a lower id than `after`, visible only at its commit
      const after = await insertEvent(pool, { label: "after" });
      let release = () => {};
      publisher.hold = new Promise<void>((resolve) => (release = resolve));
      const drain = relay.drainOnce();
      await expect.poll(() => publisher.calls.length).toBe(1);
      await slow.query("COMMIT");
      release();
      publisher.hold = null;
      // The open transaction held the horizon below `late` and `after`: this drain publishes `first` only.
      expect(await drain).toBe(1);
      expect(await relay.drainOnce()).toBe(2);
      expect(publisher.published.map((m) => m.eventId)).toEqual([first, late, after]);
    } finally {
      slow.release();
    }
  });

  it("reads 1,000 rows a round trip by default and splits them into calls the receiver takes", async () => {
    const relay = new OutboxRelay({ pool, publisher, log: silent });
    publisher.maxMessagesPerCall = 400;
    await pool.query(
      `INSERT INTO outbox_events (event_id, topic, message_key, payload)
       SELECT gen_random_uuid(), 'hearth.audit.auth', 'fam', jsonb_build_object('seq', n) FROM generate_series(1, 1500) AS n`,
    );
    expect(await relay.drainOnce()).toBe(1500);
    expect(publisher.calls.map((call) => call.length)).toEqual([400, 400, 200, 400, 100]);
    expect(publisher.published.map((m) => (m.payload as { seq: number }).seq)).toEqual(Array.from({ length: 1500 }, (_, n) => n + 1));
    expect(await unpublished()).toEqual([]);
  });
});

describe("the running relay", () => {
  it("looks again right after a drain that published (a poke during it is not lost), instead of sleeping its idle delay", async () => {
    const relay = new OutboxRelay({ pool, publisher, log: silent, idleDelayMs: 60_000, lingerMs: 5 });
    const first = await insertEvent(pool);
    let release = () => {};
    publisher.hold = new Promise<void>((resolve) => (release = resolve));
    relay.start();
    try {
      await expect.poll(() => publisher.calls.length).toBe(1);
      const second = await insertEvent(pool);
      relay.poke(); // the relay is publishing, not asleep
      release();
      publisher.hold = null;
      await expect.poll(() => publisher.published.map((m) => m.eventId), { timeout: 5_000 }).toEqual([first, second]);
    } finally {
      await relay.stop();
    }
  });
});
