import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import type { Logger } from "pino";
import type { KafkaSecurity } from "../kafka-security";
import { deadLetterMessage } from "./dead-letter-record";
import type { EventPublisher, OutboxMessage } from "./relay";

/** `security`: TLS and SASL for the brokers (see kafkaSecurityOf); none by default. */
export function createKafka(brokers: string[], clientId: string, log: Logger, security: KafkaSecurity = {}): Kafka {
  return new Kafka({
    clientId,
    brokers,
    ...security,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ namespace, level, log: entry }) => {
        const { message, ...rest } = entry;
        const method = level <= logLevel.ERROR ? "error" : level === logLevel.WARN ? "warn" : "debug";
        log[method]({ kafka: namespace, ...rest }, message);
      },
  });
}

/** Creates the topics if missing (partitions keep per-key order; replication from config). */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions = 3, replicationFactor = 1): Promise<void> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({ waitForLeaders: true, topics: missing.map((topic) => ({ topic, numPartitions, replicationFactor })) });
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Broker refusals of the records themselves (too large, malformed): sending them again can
 * never work. Other non-retriable errors (authorisation, unknown topic) concern every record
 * and are retried until an operator fixes them.
 */
const REFUSED_RECORD_ERRORS = new Set(["MESSAGE_TOO_LARGE", "RECORD_LIST_TOO_LARGE", "INVALID_RECORD", "CORRUPT_MESSAGE", "INVALID_TIMESTAMP"]);

/** True for a kafkajs error (or one it wraps) by which the broker refused the records sent. */
export function isRefusedRecordError(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current && depth < 4; depth++) {
    const { type, retriable } = current as { type?: unknown; retriable?: unknown };
    if (typeof type === "string" && REFUSED_RECORD_ERRORS.has(type) && retriable !== true) return true;
    current = (current as { cause?: unknown; originalError?: unknown }).cause ?? (current as { originalError?: unknown }).originalError;
  }
  return false;
}

/**
 * Publishes outbox batches with an idempotent producer, acks from all in-sync replicas and
 * one request in flight (kafkajs loses or reorders messages with more: see the pitfalls notes).
 * One `sendBatch` per relay batch: sending message by message is ten times slower. Events the
 * relay dead-letters also go to `deadLetterTopic`, when there is one.
 */
export class KafkaPublisher implements EventPublisher {
  readonly name = "kafka";
  private readonly producer: Producer;
  private connected: Promise<void> | null = null;

  constructor(
    kafka: Kafka,
    private readonly options: { deadLetterTopic?: string } = {},
  ) {
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  }

  private connect(): Promise<void> {
    this.connected ??= this.producer.connect().catch((err: unknown) => {
      this.connected = null;
      throw err;
    });
    return this.connected;
  }

  async publish(messages: OutboxMessage[]): Promise<void> {
    await this.connect();
    const byTopic = new Map<string, OutboxMessage[]>();
    for (const message of messages) byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, batch]) => ({
        topic,
        messages: batch.map((m) => ({ key: m.key, value: JSON.stringify(m.payload), headers: { ...m.headers, "event-id": m.eventId } })),
      })),
    });
  }

  isPermanentRejection(err: unknown): boolean {
    return isRefusedRecordError(err);
  }

  async publishDeadLetter(message: OutboxMessage, error: string): Promise<void> {
    if (!this.options.deadLetterTopic) return;
    await this.connect();
    const letter = deadLetterMessage({
      source: "outbox-relay",
      key: message.key,
      value: JSON.stringify(message.payload),
      headers: message.headers,
      error,
      originalTopic: message.topic,
      eventId: message.eventId,
    });
    await this.producer.send({ acks: -1, topic: this.options.deadLetterTopic, messages: [letter] });
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}
