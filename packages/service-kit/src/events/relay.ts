import type { Logger } from "pino";
import type pg from "pg";
import { DEFAULT_MAX_BATCH_BYTES, chunkByBytes } from "./batching";
import { RELAY_CLAIM_LOCK, beginDrain, countDeadLetters, markAndCommit, markAndReadNext, moveToDeadLetters, purgePublishedBefore } from "./outbox-queries";
import { diagnoseStall, type StallDiagnosis } from "./relay-stall";
import { outboxDeadLetteredTotal, outboxPublishedTotal, registerOutbox } from "../metrics/outbox";
import { registerPgPool } from "../metrics/pool";

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
  /** Messages one publish call may carry at most (the receiver's own limit), besides the bytes. */
  readonly maxMessagesPerCall?: number;
  publish(messages: OutboxMessage[]): Promise<void>;
  /**
   * True when the receiver refused the batch for what it holds (an invalid event, one too
   * large): sending it again as it is can never work. Anything else (down, timed out,
   * unauthorised) may pass and is retried.
   */
  isPermanentRejection?(err: unknown): boolean;
  /** Also reports a dead-lettered event where consumers of this publisher look (a Kafka topic). */
  publishDeadLetter?(message: OutboxMessage, error: string): Promise<void>;
  close(): Promise<void>;
}

export interface OutboxRelayOptions {
  pool: pg.Pool;
  publisher: EventPublisher;
  log: Logger;
  /** Rows read per round trip (then split into publish calls by bytes). */
  batchSize?: number;
  /** Rows one drain publishes before it commits its marks and lets the claim go (the next drain follows at once). */
  maxDrainRows?: number;
  /** Bytes one publish call may carry (see DEFAULT_MAX_BATCH_BYTES). */
  maxBatchBytes?: number;
  idleDelayMs?: number;
  /**
   * After a drain that caught up, how long the relay lets new rows gather before it looks
   * again, pokes or not: under a steady stream of commits each poke would otherwise start a
   * drain of a few rows, and the round trips of those cost more than the rows.
   */
  lingerMs?: number;
  maxBackoffMs?: number;
  /** How long published rows are kept (for inspection and replay) before they are purged. */
  retainPublishedMs?: number;
  /**
   * How long a relay's claim may sit idle in its transaction (a publish call in flight)
   * before PostgreSQL ends the session and frees the claim for another relay: a hung relay
   * never holds the others back for longer. Longer than any publish call takes.
   */
  claimTimeoutMs?: number;
  /** An unpublished event older than this is a stall, logged with its cause. */
  stallAfterMs?: number;
  /** How often the running relay looks for a stall. */
  stallCheckIntervalMs?: number;
}

/**
 * Rows read per round trip. With 100 the relay spent most of its time on round trips (about
 * 1,700 events/s in the audit pipeline bench); a read of 1,000 audit events (~700 KB) is still
 * split into publish calls of at most maxBatchBytes.
 */
export const DEFAULT_RELAY_BATCH_SIZE = 1000;
const DEFAULT_LINGER_MS = 50;
const PURGE_INTERVAL_MS = 3600_000;
const MAX_ERROR_TEXT = 2000;

/**
 * Publishes the outbox in id order, in drains: one transaction that takes the claim and the
 * publish horizon (rows of transactions that had ended, see publishHorizon), then reads batches
 * of `batchSize` rows below it, each read also marking the batch before it published, and
 * commits with the last marks. Each batch goes out in publish calls bounded by bytes. Three round
 * trips to the database for a drain of less than a batch, one more per full batch.
 *
 * With several gateway instances on one database, a drain runs under a transaction-scoped
 * claim (an advisory lock): one relay publishes at a time, the others stand by, so every event
 * goes out once, in order. A row is marked published only after the publisher acknowledged it,
 * and the mark counts only once the drain commits; a crash in between re-sends it (at most
 * maxDrainRows events), and consumers dedupe by event id.
 *
 * A batch the receiver refuses for what it holds is split until the event it cannot take is
 * found; that event moves to `outbox_dead_letters` with the error (and the publisher's dead-letter
 * channel), logged at error level, and the events behind it go on. Failures that may pass
 * (receiver down) back off exponentially and dead-letter nothing.
 */
export class OutboxRelay {
  /** The advisory lock keys of the relay claim (for tests and operators reading pg_locks). */
  static readonly CLAIM_LOCK = RELAY_CLAIM_LOCK;

  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly batchSize: number;
  private readonly maxDrainRows: number;
  /** The last drain stopped at maxDrainRows: more rows are waiting. */
  private moreWaiting = false;
  /** A poke arrived while the relay was not asleep: it looks again before sleeping. */
  private poked = false;
  private readonly maxBatchBytes: number;
  private readonly idleDelayMs: number;
  private readonly lingerMs: number;
  private readonly maxBackoffMs: number;
  private readonly retainPublishedMs: number;
  private readonly claimTimeoutMs: number;
  private readonly stallAfterMs: number;
  private readonly stallCheckIntervalMs: number;
  private lastPurgeAt = 0;
  private lastStallCheckAt = 0;
  private lastError: string | null = null;
  private unregisterMetrics: (() => void) | null = null;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? DEFAULT_RELAY_BATCH_SIZE;
    this.maxDrainRows = options.maxDrainRows ?? 10 * this.batchSize;
    this.maxBatchBytes = options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
    this.idleDelayMs = options.idleDelayMs ?? 250;
    this.lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.retainPublishedMs = options.retainPublishedMs ?? 7 * 24 * 3600_000;
    this.claimTimeoutMs = options.claimTimeoutMs ?? 120_000;
    // Written into the drain's SET LOCAL: anything but a positive finite number would fail every drain.
    if (!Number.isFinite(this.claimTimeoutMs) || this.claimTimeoutMs <= 0)
      throw new Error(`claimTimeoutMs must be a positive number, not ${this.claimTimeoutMs}`);
    this.stallAfterMs = options.stallAfterMs ?? 60_000;
    this.stallCheckIntervalMs = options.stallCheckIntervalMs ?? 15_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // Scraped while the relay runs: outbox depth, oldest age, dead letters, and its pool's use.
    const unregisterOutbox = registerOutbox(this, this.options.publisher.name, this.options.pool);
    const unregisterPool = registerPgPool("outbox_relay", this.options.pool);
    this.unregisterMetrics = () => {
      unregisterOutbox();
      unregisterPool();
    };
    this.loop = this.run();
  }

  /** Asks the relay to look now instead of at its next poll (called after a commit that wrote events). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unregisterMetrics?.();
    this.unregisterMetrics = null;
    this.poke();
    await this.loop;
  }

  /**
   * Publishes everything currently publishable once, if no other relay holds the claim;
   * returns how many events it handled (published or dead-lettered).
   */
  async drainOnce(): Promise<number> {
    const client = await this.options.pool.connect();
    let broken: Error | undefined;
    let publisherFailure: unknown;
    // PostgreSQL ending the session while a publish call is in flight (the claim timeout)
    // arrives as an 'error' event, which would crash the process without a listener.
    const onSessionError = (err: Error) => (broken = err);
    client.on("error", onSessionError);
    this.moreWaiting = false;
    try {
      const { claimed, horizon } = await beginDrain(client, this.claimTimeoutMs);
      if (!claimed) {
        await client.query("ROLLBACK");
        return 0;
      }
      // Ids published and not yet marked: marked by the next batch's read, or with the commit.
      const delivered: bigint[] = [];
      let handled = 0;
      let afterId = -1n;
      try {
        for (;;) {
          const rows = await markAndReadNext(client, { horizon, afterId, limit: this.batchSize, markIds: delivered.splice(0) });
          for (const chunk of chunkByBytes(rows, this.maxBatchBytes, this.options.publisher.maxMessagesPerCall))
            handled += await this.deliver(client, chunk, delivered);
          const last = rows.at(-1);
          if (!last || rows.length < this.batchSize) break;
          afterId = last.id;
          if (handled >= this.maxDrainRows) {
            // Commits what went out so far; the next drain goes on at once.
            this.moreWaiting = true;
            break;
          }
        }
      } catch (err) {
        if (!(err instanceof PublishFailed)) throw err;
        publisherFailure = err.cause;
        // Keeps what was delivered before the failure marked; the rest is retried.
        await markAndCommit(client, delivered);
        this.lastError = errorText(err.cause);
        throw err.cause;
      }
      await markAndCommit(client, delivered);
      this.lastError = null;
      return handled;
    } catch (err) {
      if (err !== publisherFailure) {
        // A database failure: the session may be unusable (PostgreSQL ends it after the claim timeout), so it is not reused.
        broken = err instanceof Error ? err : new Error(String(err));
        this.lastError = errorText(err);
        await client.query("ROLLBACK").catch(() => {});
      }
      throw err;
    } finally {
      client.off("error", onSessionError);
      client.release(broken);
    }
  }

  /** Deletes published rows older than the retention; unpublished rows are never touched. */
  async purgePublished(now = Date.now()): Promise<number> {
    const purged = await purgePublishedBefore(this.options.pool, new Date(now - this.retainPublishedMs));
    this.lastPurgeAt = now;
    return purged;
  }

  /** How many events wait in `outbox_dead_letters` for an operator. */
  deadLetterCount(): Promise<number> {
    return countDeadLetters(this.options.pool);
  }

  /**
   * Logs a warning when the oldest unpublished event has waited longer than `stallAfterMs`,
   * with how long and why (an old open transaction, another relay's claim, a failing
   * publisher, a backlog); returns that diagnosis, or null when nothing is stalled.
   */
  async checkForStall(): Promise<StallDiagnosis | null> {
    this.lastStallCheckAt = Date.now();
    const stall = await diagnoseStall(this.options.pool, this.stallAfterMs, this.lastError);
    if (stall) {
      this.options.log.warn(
        {
          publisher: this.options.publisher.name,
          reason: stall.reason,
          waiting_ms: stall.waitingMs,
          pending: stall.pending,
          oldest_event_id: stall.oldestEventId,
          ...(stall.blocker ? { blocker: stall.blocker } : {}),
          ...(stall.claimHolder ? { claim_holder: stall.claimHolder } : {}),
          ...(stall.lastError ? { last_error: stall.lastError } : {}),
        },
        `outbox relay stalled: the oldest unpublished event has waited ${Math.round(stall.waitingMs / 1000)}s (${stall.reason})`,
      );
    }
    return stall;
  }

  /** Publishes a run of messages; a permanent refusal is narrowed down by halves to the event(s) refused. */
  private async deliver(client: pg.PoolClient, messages: OutboxMessage[], delivered: bigint[]): Promise<number> {
    try {
      await this.options.publisher.publish(messages);
    } catch (err) {
      if (!this.options.publisher.isPermanentRejection?.(err)) throw new PublishFailed(err);
      const [only] = messages;
      if (messages.length === 1 && only) {
        await this.deadLetter(client, only, errorText(err));
        return 1;
      }
      const half = Math.ceil(messages.length / 2);
      return (await this.deliver(client, messages.slice(0, half), delivered)) + (await this.deliver(client, messages.slice(half), delivered));
    }
    outboxPublishedTotal.inc({ publisher: this.options.publisher.name }, messages.length);
    for (const message of messages) delivered.push(message.id);
    return messages.length;
  }

  private async deadLetter(client: pg.PoolClient, message: OutboxMessage, error: string): Promise<void> {
    await this.options.publisher.publishDeadLetter?.(message, error).catch((err: unknown) => {
      throw new PublishFailed(err);
    });
    await moveToDeadLetters(client, message, error);
    outboxDeadLetteredTotal.inc({ publisher: this.options.publisher.name });
    this.options.log.error(
      { event_id: message.eventId, topic: message.topic, key: message.key, publisher: this.options.publisher.name, error },
      "outbox event dead-lettered: the receiver refused it; it is kept in outbox_dead_letters and the events behind it go on",
    );
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      let handled = 0;
      try {
        handled = await this.drainOnce();
        // By the clock, not after an empty drain: under steady traffic a drain is never empty.
        if (Date.now() - this.lastPurgeAt > PURGE_INTERVAL_MS) await this.purgePublished();
        if (backoff > 0) this.options.log.info({ publisher: this.options.publisher.name }, "outbox relay recovered");
        backoff = 0;
      } catch (err) {
        backoff = Math.min(backoff === 0 ? 200 : backoff * 2, this.maxBackoffMs);
        this.options.log.warn({ err, publisher: this.options.publisher.name, retry_in_ms: backoff }, "outbox relay could not publish; will retry");
      }
      if (Date.now() - this.lastStallCheckAt >= this.stallCheckIntervalMs) {
        await this.checkForStall().catch((err: unknown) => this.options.log.warn({ err }, "outbox relay could not check for a stall"));
      }
      if (backoff === 0 && this.moreWaiting) continue;
      if (backoff === 0 && (handled > 0 || this.poked)) {
        // Rows may have committed during the drain (a poke then came while it was not asleep): looks again after the linger.
        this.poked = false;
        await new Promise((resolve) => setTimeout(resolve, this.lingerMs));
        continue;
      }
      await this.sleep(backoff || this.idleDelayMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.poked = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/** A publisher failure that may pass (carried past the dead-letter narrowing to the drain). */
class PublishFailed extends Error {
  constructor(override readonly cause: unknown) {
    super("publish failed", { cause });
  }
}

/** An error as a dead letter records it: its code (kafkajs type, AppError code), message and details, cut short. */
function errorText(err: unknown): string {
  const { type, code, errors } = (typeof err === "object" && err !== null ? err : {}) as { type?: unknown; code?: unknown; errors?: unknown };
  const label = typeof type === "string" ? type : typeof code === "string" ? code : null;
  const message = err instanceof Error ? err.message : String(err);
  const details = Array.isArray(errors) ? errors.map(String).join("; ") : "";
  const text = [label, message, details && !message.includes(details) ? details : null].filter(Boolean).join(": ");
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}
