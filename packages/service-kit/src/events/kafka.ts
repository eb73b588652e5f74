import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from "@opentelemetry/api";
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type ITopicConfig,
  type Message,
  type Producer,
  type ProducerBatch,
  type ProducerConfig,
  type RecordMetadata,
} from "kafkajs";
import type { Logger } from "pino";
import type { KafkaSecurity } from "../kafka-security";
import { DEFAULT_KAFKA_TOPIC_SETTINGS, type KafkaTopicSettings } from "../kafka-topics";
import { deadLetterMessage } from "./dead-letter-record";
import type { EventPublisher, OutboxMessage } from "./relay";

const tracer = trace.getTracer("@hearth/service-kit/kafka");

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

/**
 * Creates the topics that are missing with `settings` (KAFKA_TOPIC_PARTITIONS, _REPLICATION_FACTOR,
 * _MIN_INSYNC_REPLICAS; partitions keep per-key order). Existing topics are left as they are:
 * when their partition count or replication differs from the settings, `log` is told (changing
 * them is an operator's decision: more partitions move keys, so per-family order would break).
 */
export async function ensureTopics(
  kafka: Kafka,
  topics: string[],
  settings: KafkaTopicSettings = DEFAULT_KAFKA_TOPIC_SETTINGS,
  log?: Pick<Logger, "warn">,
): Promise<void> {
  const admin: Admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await createTopicsAndWait(
        admin,
        missing.map((topic) => ({
          topic,
          numPartitions: settings.partitions,
          replicationFactor: settings.replicationFactor,
          configEntries: [{ name: "min.insync.replicas", value: String(settings.minInsyncReplicas) }],
        })),
      );
    }
    const present = topics.filter((topic) => existing.has(topic));
    if (log && present.length > 0) {
      // Only a warning: a broker that will not describe the topics must not stop the service.
      const metadata = await admin.fetchTopicMetadata({ topics: present }).then(
        (answer) => answer.topics,
        () => [],
      );
      for (const drift of topicSettingsDrift(metadata, settings)) log.warn(drift, "existing Kafka topic differs from the topic settings; left as it is");
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Creates the topics and waits until the broker describes them with their leaders. kafkajs's own
 * wait (waitForLeaders) retries only LEADER_NOT_AVAILABLE; a KRaft broker busy enough answers the
 * first metadata request after a create with UNKNOWN_TOPIC_OR_PARTITION ("This server does not
 * host this topic-partition"), which failed a CI run once: that answer is waited out too (10 s).
 */
export async function createTopicsAndWait(admin: Admin, topics: ITopicConfig[]): Promise<void> {
  try {
    await admin.createTopics({ waitForLeaders: true, topics });
    return;
  } catch (err) {
    if ((err as { type?: unknown }).type !== "UNKNOWN_TOPIC_OR_PARTITION") throw err;
  }
  const names = topics.map((topic) => topic.topic);
  let last: unknown = null;
  for (let waited = 0; waited < 10_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics: names });
      if (described.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0))) return;
    } catch (err) {
      if ((err as { type?: unknown }).type !== "UNKNOWN_TOPIC_OR_PARTITION") throw err;
      last = err;
    }
  }
  throw new Error(`Kafka topics ${names.join(", ")} have no leader 10 s after their creation`, { cause: last });
}

/** Existing topics whose partition count or replication factor (replicas of its widest partition) is not what `settings` asks for. */
export function topicSettingsDrift(
  metadata: { name: string; partitions: { replicas: number[] }[] }[],
  settings: KafkaTopicSettings,
): { topic: string; partitions: number; replicationFactor: number; wantedPartitions: number; wantedReplicationFactor: number }[] {
  return metadata
    .map((topic) => ({
      topic: topic.name,
      partitions: topic.partitions.length,
      replicationFactor: Math.max(0, ...topic.partitions.map((partition) => partition.replicas.length)),
      wantedPartitions: settings.partitions,
      wantedReplicationFactor: settings.replicationFactor,
    }))
    .filter((topic) => topic.partitions !== topic.wantedPartitions || topic.replicationFactor !== topic.wantedReplicationFactor);
}

/** Thrown when kafkajs resolved a send that never reached some of its partitions. */
export class KafkaSendIncompleteError extends Error {
  constructor(readonly partitions: string[]) {
    super(`kafkajs resolved a send without an answer from ${partitions.join(", ")} (a leader moved mid-send, tulios/kafkajs#1303): send it again`);
    this.name = "KafkaSendIncompleteError";
  }
}

/** The "topic/partition"s in `expected` that no answer of the send covers. */
export function partitionsNotAnswered(expected: Iterable<string>, answers: { topicName: string; partition: number }[]): string[] {
  const answered = new Set(answers.map((answer) => `${answer.topicName}/${answer.partition}`));
  return [...expected].filter((partition) => !answered.has(partition));
}

/**
 * A kafkajs producer whose sends fail unless every partition they were to reach answered.
 * kafkajs's own retry of a send skips every broker that answered the first attempt, so when a
 * partition's leader moves mid-send to one of those, that partition's messages are never sent and
 * the send resolves all the same (tulios/kafkajs#1303): kafka-cluster.test.ts lost 2-3 events of
 * ~2,500 that way with one of three brokers stopped. The default partitioner (kafkajs calls it
 * for every message on every attempt) notes where each message goes; a send missing an answer
 * from one of those partitions throws, so its caller sends it whole again (the outbox relay, the
 * consumer's redelivery), and the copies that went through the first time are stored once by
 * event id. Sends of one producer run one after another, so each tally is its own.
 */
export function checkedProducer(kafka: Kafka, config: ProducerConfig): { producer: Producer; sendBatch: (batch: ProducerBatch) => Promise<RecordMetadata[]> } {
  const partitionOf = Partitioners.DefaultPartitioner();
  const reached = new Set<string>();
  const producer = kafka.producer({
    ...config,
    createPartitioner: () => (args) => {
      const partition = partitionOf(args);
      reached.add(`${args.topic}/${partition}`);
      return partition;
    },
  });
  let previous: Promise<unknown> = Promise.resolve();
  const sendBatch = (batch: ProducerBatch): Promise<RecordMetadata[]> => {
    const send = previous.then(async () => {
      reached.clear();
      const answers = await producer.sendBatch(batch);
      // acks=0 gets no answers at all, so nothing to check.
      const missing = batch.acks === 0 ? [] : partitionsNotAnswered(reached, answers);
      if (missing.length > 0) throw new KafkaSendIncompleteError(missing);
      return answers;
    });
    previous = send.catch(() => {});
    return send;
  };
  return { producer, sendBatch };
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
 * Errors by which the broker says this producer's idempotence state is gone or out of step: a
 * broker restarted (or a partition moved) while a send was in flight. kafkajs keeps the
 * producer's id and sequence numbers and retries with them for ever (the reliability suite saw
 * "out of order sequence number" every 10 s for minutes after a broker restart); only a new
 * producer, with a new id, gets through.
 */
const PRODUCER_STATE_ERRORS = new Set(["OUT_OF_ORDER_SEQUENCE_NUMBER", "UNKNOWN_PRODUCER_ID", "INVALID_PRODUCER_EPOCH", "INVALID_PRODUCER_ID_MAPPING"]);

/** True for a kafkajs error (or one it wraps) that only a new producer gets past. */
export function isProducerStateError(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current && depth < 4; depth++) {
    const { type } = current as { type?: unknown };
    if (typeof type === "string" && PRODUCER_STATE_ERRORS.has(type)) return true;
    current = (current as { cause?: unknown; originalError?: unknown }).cause ?? (current as { originalError?: unknown }).originalError;
  }
  return false;
}

/**
 * An idempotent producer (acks from all in-sync replicas, one request in flight, every send
 * checked by checkedProducer) that is replaced when the broker no longer knows its idempotence
 * state: the failed send's error goes up (its caller sends the batch again, nothing was
 * acknowledged) and the next send goes out under a new producer id. Copies the old one had
 * written are stored once by event id.
 */
export class ReplaceableProducer {
  private producer!: Producer;
  private sender!: ReturnType<typeof checkedProducer>;
  private connected: Promise<void> | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly config: ProducerConfig,
  ) {
    this.renew();
  }

  private renew(): void {
    this.sender = checkedProducer(this.kafka, { idempotent: true, maxInFlightRequests: 1, ...this.config });
    this.producer = this.sender.producer;
    this.connected = null;
  }

  private connect(): Promise<void> {
    // A failed connect is forgotten, unless the producer was replaced meanwhile.
    const connecting: Promise<void> = this.producer.connect().catch((err: unknown) => {
      if (this.connected === connecting) this.connected = null;
      throw err;
    });
    this.connected = connecting;
    return connecting;
  }

  async send(batch: ProducerBatch): Promise<void> {
    await (this.connected ?? this.connect());
    try {
      await this.sender.sendBatch(batch);
    } catch (err) {
      if (isProducerStateError(err)) {
        const stale = this.producer;
        this.renew();
        await stale.disconnect().catch(() => {});
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect().catch(() => {});
  }
}

/**
 * Publishes outbox batches through a ReplaceableProducer (kafkajs loses or reorders messages with
 * more than one request in flight: see the pitfalls notes). One send per relay batch: sending
 * message by message is ten times slower. Events the relay dead-letters also go to
 * `deadLetterTopic`, when there is one.
 */
export class KafkaPublisher implements EventPublisher {
  readonly name = "kafka";
  private readonly producer: ReplaceableProducer;

  constructor(
    kafka: Kafka,
    private readonly options: { deadLetterTopic?: string } = {},
  ) {
    this.producer = new ReplaceableProducer(kafka, { allowAutoTopicCreation: true });
  }

  async publish(messages: OutboxMessage[]): Promise<void> {
    // One producer span per event, in the trace of the request that wrote it (its stored
    // traceparent); the message carries the span's own context on to the consumer.
    const spans = messages.map((m) =>
      tracer.startSpan(
        `${m.topic} publish`,
        { kind: SpanKind.PRODUCER, attributes: { "messaging.system": "kafka", "messaging.destination.name": m.topic, "messaging.message.id": m.eventId } },
        propagation.extract(ROOT_CONTEXT, m.headers),
      ),
    );
    const byTopic = new Map<string, Message[]>();
    messages.forEach((m, i) => {
      const headers: Record<string, string> = { ...m.headers, "event-id": m.eventId };
      propagation.inject(trace.setSpan(ROOT_CONTEXT, spans[i]!), headers);
      const batch = byTopic.get(m.topic) ?? [];
      batch.push({ key: m.key, value: JSON.stringify(m.payload), headers });
      byTopic.set(m.topic, batch);
    });
    try {
      await this.producer.send({ acks: -1, topicMessages: [...byTopic].map(([topic, batch]) => ({ topic, messages: batch })) });
    } catch (err) {
      for (const span of spans) span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      for (const span of spans) span.end();
    }
  }

  isPermanentRejection(err: unknown): boolean {
    return isRefusedRecordError(err);
  }

  async publishDeadLetter(message: OutboxMessage, error: string): Promise<void> {
    if (!this.options.deadLetterTopic) return;
    const letter = deadLetterMessage({
      source: "outbox-relay",
      key: message.key,
      value: JSON.stringify(message.payload),
      headers: message.headers,
      error,
      originalTopic: message.topic,
      eventId: message.eventId,
    });
    await this.producer.send({ acks: -1, topicMessages: [{ topic: this.options.deadLetterTopic, messages: [letter] }] });
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}
