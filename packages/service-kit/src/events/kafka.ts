import { SpanKind, context, propagation, trace, type Link } from "@opentelemetry/api";
import { Kafka, logLevel, type Admin, type Consumer, type EachBatchPayload, type IHeaders, type Producer } from "kafkajs";
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

export interface RunningConsumer {
  /** Resolves once the consumer has joined its group and subscribed (for tests and readiness). */
  ready: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Consumes whole batches; offsets are committed only after the handler stored the batch,
 * so a crash means redelivery (deduplicated by the handler), never loss. Each batch is
 * processed in a consumer span linked to the producing traces.
 *
 * Start-up never blocks or fails the service: a broker that is down (or topics not there
 * yet) is retried in the background with backoff, and a crash kafkajs will not restart
 * itself from is restarted here, so an outage only delays consumption.
 */
export function startKafkaConsumer(options: KafkaConsumerOptions): RunningConsumer {
  let stopped = false;
  let consumer: Consumer | null = null;
  let markReady: () => void = () => {};
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));
  let restartTimer: NodeJS.Timeout | null = null;

  const scheduleRestart = (attempt: number) => {
    if (stopped) return;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
    restartTimer = setTimeout(() => void attemptStart(attempt + 1), delay);
  };

  async function attemptStart(attempt: number): Promise<void> {
    if (stopped) return;
    const current = options.kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false, retry: { retries: 10 } });
    consumer = current;
    current.on(current.events.CRASH, (event) => {
      const { error, restart } = event.payload as { error: Error; restart: boolean };
      options.log.error({ err: error, restart }, "kafka consumer crashed");
      if (!restart && !stopped) void current.disconnect().finally(() => scheduleRestart(0));
    });
    try {
      await ensureTopics(options.kafka, options.topics);
      await current.connect();
      await current.subscribe({ topics: options.topics, fromBeginning: true });
      await current.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => processBatch(options, payload) });
      options.log.info({ groupId: options.groupId, topics: options.topics }, "kafka consumer running");
      markReady();
    } catch (err) {
      options.log.warn({ err, attempt }, "kafka consumer could not start yet; retrying");
      await current.disconnect().catch(() => {});
      scheduleRestart(attempt);
    }
  }

  void attemptStart(0);
  return {
    ready: () => readyPromise,
    async stop() {
      stopped = true;
      if (restartTimer) clearTimeout(restartTimer);
      await consumer?.disconnect().catch(() => {});
    },
  };
}

async function processBatch(options: KafkaConsumerOptions, { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }: EachBatchPayload): Promise<void> {
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
  const attributes = { "messaging.system": "kafka", "messaging.destination.name": batch.topic, "messaging.batch.message_count": messages.length };
  await tracer.startActiveSpan(`${batch.topic} process`, { kind: SpanKind.CONSUMER, links, attributes }, parent, async (span) => {
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
}
