import type pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutboxRelay } from "../../src/events/relay";
import { cleanup } from "../migrations/helpers";
import { RecordingPublisher, capturingLogger, insertEvent, outboxDatabase } from "./outbox-db";

let pool: pg.Pool;

beforeAll(async () => {
  pool = await outboxDatabase();
});
afterAll(async () => {
  await pool.end();
  await cleanup();
});
beforeEach(async () => {
  await pool.query("TRUNCATE outbox_events, outbox_dead_letters");
});

describe("several relays on one database (several gateway instances)", () => {
  it("publishes every event exactly once, in order per key", async () => {
    // One publisher shared by both relays: what reaches the broker, in the order it arrives.
    const publisher = new RecordingPublisher();
    publisher.delayMs = 5;
    const relays = [0, 1].map(() => new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), batchSize: 5, idleDelayMs: 10 }));
    for (const relay of relays) relay.start();
    const keys = ["fam-a", "fam-b", "fam-c"];
    const written: { eventId: string; key: string }[] = [];
    try {
      for (let i = 0; i < 60; i++) {
        const key = keys[i % keys.length] as string;
        written.push({ eventId: await insertEvent(pool, { seq: i }, key), key });
        for (const relay of relays) relay.poke();
      }
      await expect.poll(() => new Set(publisher.published.map((m) => m.eventId)).size, { timeout: 30_000 }).toBe(written.length);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
    }
    const published = publisher.published.map((m) => m.eventId);
    expect(published).toHaveLength(written.length);
    for (const key of keys) {
      expect(publisher.published.filter((m) => m.key === key).map((m) => m.eventId)).toEqual(written.filter((w) => w.key === key).map((w) => w.eventId));
    }
  });

  it("does not publish while another relay holds the claim, and takes over once it is released", async () => {
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }) });
    const id = await insertEvent(pool);
    // What an active relay holds while it publishes a batch.
    const other = await pool.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock($1, $2)", [...OutboxRelay.CLAIM_LOCK]);
      expect(await relay.drainOnce()).toBe(0);
      await other.query("COMMIT");
      expect(await relay.drainOnce()).toBe(1);
      expect(publisher.published.map((m) => m.eventId)).toEqual([id]);
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      other.release();
    }
  });

  it("frees the claim of a relay whose publish call hangs, so another relay takes over (and the hung one survives its session's end)", async () => {
    const hung = new RecordingPublisher();
    let release = () => {};
    hung.hold = new Promise<void>((resolve) => (release = resolve));
    const stuck = new OutboxRelay({ pool, publisher: hung, log: pino({ level: "silent" }), claimTimeoutMs: 200 });
    const healthy = new RecordingPublisher();
    const standby = new OutboxRelay({ pool, publisher: healthy, log: pino({ level: "silent" }) });
    const id = await insertEvent(pool);

    const stuckDrain = stuck.drainOnce();
    await expect.poll(() => hung.calls.length).toBe(1);
    // PostgreSQL ends the hung relay's session after the claim timeout; the standby then claims and publishes.
    await expect.poll(() => standby.drainOnce(), { timeout: 10_000, interval: 50 }).toBe(1);
    expect(healthy.published.map((m) => m.eventId)).toEqual([id]);
    release();
    await expect(stuckDrain).rejects.toThrow();
    // The hung relay marked nothing (at-least-once: its late publish is a duplicate consumers drop).
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL");
    expect(rows[0].n).toBe(0);
    expect(await stuck.drainOnce()).toBe(0);
  });
});

describe("stall reports", () => {
  it("logs a stall naming the idle-in-transaction session that holds the relay back, and for how long", async () => {
    const { log, lines } = capturingLogger();
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay({ pool, publisher, log, stallAfterMs: 60_000 });
    const idle = await pool.connect();
    try {
      await idle.query("BEGIN");
      await idle.query("SELECT txid_current()"); // an xid, as a transaction that wrote something holds
      const id = await insertEvent(pool);
      // As if it had been waiting for two minutes (a test waits for no clock).
      await pool.query("UPDATE outbox_events SET created_at = now() - interval '2 minutes' WHERE event_id = $1", [id]);
      expect(await relay.drainOnce()).toBe(0);
      const { rows } = await idle.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");

      const stall = await relay.checkForStall();
      expect(stall).toMatchObject({
        reason: "held_back_by_transaction",
        pending: 1,
        oldestEventId: id,
        blocker: { pid: rows[0]?.pid, state: "idle in transaction" },
      });
      expect(stall?.waitingMs).toBeGreaterThanOrEqual(119_000);
      const warning = lines.find((line) => line.level === 40 && line.msg.startsWith("outbox relay stalled"));
      expect(warning).toMatchObject({ reason: "held_back_by_transaction", blocker: { pid: rows[0]?.pid, state: "idle in transaction" } });
      expect(warning?.["waiting_ms"]).toBeGreaterThanOrEqual(119_000);
    } finally {
      await idle.query("ROLLBACK");
      idle.release();
    }
  });

  it("reports nothing while the oldest unpublished event is younger than the threshold", async () => {
    const { log, lines } = capturingLogger();
    const relay = new OutboxRelay({ pool, publisher: new RecordingPublisher(), log, stallAfterMs: 60_000 });
    await insertEvent(pool);
    expect(await relay.checkForStall()).toBeNull();
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it("says the publisher is failing when that is what holds the events back", async () => {
    const { log, lines } = capturingLogger();
    const publisher = new RecordingPublisher();
    publisher.failing = true;
    const relay = new OutboxRelay({ pool, publisher, log, stallAfterMs: 60_000 });
    const id = await insertEvent(pool);
    await pool.query("UPDATE outbox_events SET created_at = now() - interval '5 minutes' WHERE event_id = $1", [id]);
    await expect(relay.drainOnce()).rejects.toThrow("broker down");
    expect(await relay.checkForStall()).toMatchObject({ reason: "publisher_failing", lastError: "broker down" });
    expect(lines.some((line) => line.level === 40 && line["reason"] === "publisher_failing")).toBe(true);
  });
});
