import { SpanKind, context, propagation, trace, type Link } from "@opentelemetry/api";
import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type Producer } from "kafkajs";
import type { Logger } from "pino";
import type { EventPublisher, OutboxMessage } from "./relay";

const tracer = trace.getTracer("@hearth/service-kit/kafka");

export function createKafka(brokers: string[], clientId: string, log: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator: () => ({ namespace, level, log: entry }) => {
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
 * Publishes outbox batches with an idempotent producer, acks from all in-sync replicas and
 * one request in flight (kafkajs loses or reorders messages with more: see the pitfalls notes).
 * One `sendBatch` per relay batch: sending message by message is ten times slower.
 */
export class KafkaPublisher implements EventPublisher {
  readonly name = "kafka";
  private readonly producer: Producer;
  private connected: Promise<void> | null = null;

  constructor(kafka: Kafka) {
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
  }

  async publish(messages: OutboxMessage[]): Promise<void> {
    this.connected ??= this.producer.connect().catch((err: unknown) => {
      this.connected = null;
      throw err;
    });
    await this.connected;
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

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}

export interface ConsumedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

export interface KafkaConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  log: Logger;
  /** Must be idempotent: a batch may be delivered again after a crash or rebalance. */
  handleBatch: (messages: ConsumedMessage[]) => Promise<void>;
}

function headersOf(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}

/**
 * Consumes whole batches; offsets are committed only after the handler stored the batch,
 * so a crash means redelivery (deduplicated by the handler), never loss. Each batch is
 * processed in a consumer span linked to the producing traces.
 */
export async function startKafkaConsumer(options: KafkaConsumerOptions): Promise<Consumer> {
  const consumer = options.kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: true, retry: { retries: 10 } });
  await consumer.connect();
  await consumer.subscribe({ topics: options.topics, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }) => {
      if (batch.messages.length === 0) return;
      const messages: ConsumedMessage[] = batch.messages.map((m) => ({
        topic: batch.topic,
        partition: batch.partition,
        offset: m.offset,
        key: m.key?.toString() ?? null,
        value: m.value?.toString() ?? "",
        headers: headersOf(m.headers),
      }));
      const links: Link[] = messages
        .map((m) => trace.getSpanContext(propagation.extract(context.active(), m.headers)))
        .filter((sc) => sc !== undefined)
        .map((spanContext) => ({ context: spanContext }));
      const parent = propagation.extract(context.active(), messages[0]?.headers ?? {});
      await tracer.startActiveSpan(`${batch.topic} process`, { kind: SpanKind.CONSUMER, links, attributes: { "messaging.system": "kafka", "messaging.destination.name": batch.topic, "messaging.batch.message_count": messages.length } }, parent, async (span) => {
        try {
          await options.handleBatch(messages);
        } finally {
          span.end();
        }
      });
      const last = batch.messages.at(-1);
      if (last) resolveOffset(last.offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
    },
  });
  return consumer;
}
