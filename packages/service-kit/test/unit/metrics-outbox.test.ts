import type pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboxRelay } from "../../src/events/relay";
import { metricsText } from "../../src/metrics/registry";
import { cleanup } from "../migrations/helpers";
import { RecordingPublisher, insertEvent, outboxDatabase } from "../events/outbox-db";
import { metricSample } from "../../src/metrics/text-sample";

let pool: pg.Pool;

beforeAll(async () => {
  pool = await outboxDatabase();
});
afterAll(async () => {
  await pool.end();
  await cleanup();
});

describe("outbox metrics", () => {
  it("while a relay runs: pending depth, oldest age and dead letters read at scrape time; published and dead-lettered counted", async () => {
    const publisher = new RecordingPublisher();
    publisher.failing = true;
    const relay = new OutboxRelay({ pool, publisher, log: pino({ level: "silent" }), idleDelayMs: 20, maxBackoffMs: 50 });
    await insertEvent(pool, { n: 1 });
    await insertEvent(pool, { n: 2 });
    await pool.query("UPDATE outbox_events SET created_at = now() - interval '90 seconds'");
    const recording = { publisher: "recording" };

    // Not running yet: no outbox series.
    expect(metricSample((await metricsText()).body, "outbox_pending_events", recording)).toBeUndefined();
    relay.start();
    try {
      let text = (await metricsText()).body;
      expect(metricSample(text, "outbox_pending_events", recording)).toBe(2);
      expect(metricSample(text, "outbox_oldest_pending_age_seconds", recording)).toBeGreaterThanOrEqual(90);
      expect(metricSample(text, "outbox_dead_letter_events", recording)).toBe(0);
      expect(metricSample(text, "pg_pool_connections", { pool: "outbox_relay", state: "total" })).toBeGreaterThanOrEqual(1);

      // The receiver comes back and refuses one event for good.
      publisher.poison = (message) => (message.payload as { n?: number }).n === 2;
      publisher.failing = false;
      // The outbox read is shared for a second (one query per scrape): wait until a scrape shows the published state.
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        text = (await metricsText()).body;
        if (metricSample(text, "outbox_pending_events", recording) === 0) break;
      }
      expect(metricSample(text, "outbox_events_published_total", recording)).toBe(1);
      expect(metricSample(text, "outbox_events_dead_lettered_total", recording)).toBe(1);
      expect(metricSample(text, "outbox_pending_events", recording)).toBe(0);
      expect(metricSample(text, "outbox_oldest_pending_age_seconds", recording)).toBe(0);
      expect(metricSample(text, "outbox_dead_letter_events", recording)).toBe(1);
    } finally {
      await relay.stop();
    }
    // A stopped relay is no longer read (its pool may be gone).
    const text = (await metricsText()).body;
    expect(metricSample(text, "outbox_pending_events", recording)).toBeUndefined();
    expect(metricSample(text, "pg_pool_connections", { pool: "outbox_relay" })).toBeUndefined();
  });
});
