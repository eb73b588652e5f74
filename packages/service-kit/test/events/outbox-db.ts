import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import pg from "pg";
import pino, { type Logger } from "pino";
import { ensureDatabase } from "../../src/migrations/ensure-database";
import type { EventPublisher, OutboxMessage } from "../../src/events/relay";
import { freshDatabaseUrl } from "../migrations/helpers";

// The same tables the gateway's migrations create (the relay is written against them).
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
    published_at TIMESTAMPTZ(3));
  CREATE TABLE outbox_dead_letters (
    id BIGSERIAL PRIMARY KEY,
    event_id UUID NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    message_key TEXT NOT NULL,
    payload JSONB NOT NULL,
    headers JSONB NOT NULL DEFAULT '{}',
    error TEXT NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL,
    failed_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP)`;

/** A fresh database with the outbox tables. */
export async function outboxDatabase(): Promise<pg.Pool> {
  const url = freshDatabaseUrl();
  await ensureDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  // Tests end the relay's session on purpose (pg_terminate_backend); when its client is back in
  // the pool by then, the pool reports it here (the gateway's relay pool listens the same way).
  pool.on("error", () => {});
  await pool.query(OUTBOX_DDL);
  return pool;
}

export async function insertEvent(client: pg.Pool | pg.PoolClient, payload: Record<string, unknown> = {}, key = "fam"): Promise<string> {
  const eventId = randomUUID();
  await client.query("INSERT INTO outbox_events (event_id, topic, message_key, payload) VALUES ($1, 'hearth.audit.auth', $2, $3)", [
    eventId,
    key,
    JSON.stringify(payload),
  ]);
  return eventId;
}

/** A refusal no retry can cure (what a publisher reports for an invalid or oversized event). */
export class Rejected extends Error {}

/**
 * Records what it is given; can be told to fail as a broker that is down would, to refuse
 * the events `poison` picks as a validating receiver would, and to refuse calls over a body limit.
 */
export class RecordingPublisher implements EventPublisher {
  readonly name = "recording";
  readonly published: OutboxMessage[] = [];
  readonly calls: OutboxMessage[][] = [];
  readonly deadLetters: { message: OutboxMessage; error: string }[] = [];
  failing = false;
  poison: (message: OutboxMessage) => boolean = () => false;
  maxCallBytes = Infinity;
  /** The receiver's count limit per call, which the relay must respect. */
  maxMessagesPerCall?: number;
  /** Makes every call take this long (so two relays overlap). */
  delayMs = 0;
  /** While set, every call waits for it (a publish call that hangs). */
  hold: Promise<void> | null = null;

  async publish(messages: OutboxMessage[]): Promise<void> {
    this.calls.push(messages);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.hold) await this.hold;
    if (this.failing) throw new Error("broker down");
    if (Buffer.byteLength(JSON.stringify(messages.map((m) => m.payload))) > this.maxCallBytes) throw new Rejected("payload_too_large");
    if (messages.length > (this.maxMessagesPerCall ?? Infinity)) throw new Rejected("too_many_messages");
    const bad = messages.find((m) => this.poison(m));
    if (bad) throw new Rejected(`validation_failed: event ${bad.eventId} is invalid`);
    this.published.push(...messages);
  }

  isPermanentRejection(err: unknown): boolean {
    return err instanceof Rejected;
  }

  async publishDeadLetter(message: OutboxMessage, error: string): Promise<void> {
    this.deadLetters.push({ message, error });
  }

  async close(): Promise<void> {}
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger whose lines a test can read back. */
export function capturingLogger(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { log: pino({ level: "debug" }, sink), lines };
}
