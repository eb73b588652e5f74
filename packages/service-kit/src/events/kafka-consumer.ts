import { SpanKind, context, propagation, trace, type Link } from "@opentelemetry/api";
import type { Admin, Consumer, EachBatchPayload, IHeaders, Kafka, Message } from "kafkajs";
import type { Logger } from "pino";
import { consumedMessagesTotal, consumerDeadLetteredTotal, lagOf, registerConsumerLag, type LagLabel } from "../metrics/kafka";
import { sharedRead, type Sample } from "../metrics/registry";
import { MAX_DEAD_LETTER_VALUE_BYTES, deadLetterMessage } from "./dead-letter-record";
import type { KafkaTopicSettings } from "../kafka-topics";
import { ReplaceableProducer, ensureTopics } from "./kafka";

const tracer = trace.getTracer("@hearth/service-kit/kafka");

export interface ConsumedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/** Sets a message aside that can never be handled (unreadable, refused by the store), with why. */
export type DeadLetterMessage = (message: ConsumedMessage, error: string) => void;

export interface KafkaConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  log: Logger;
  /**
   * Must be idempotent: a batch may be delivered again after a crash or rebalance. Throwing
   * means "try again later" (the store is down) and holds the partition; a message that can
   * never be handled goes to `deadLetter` instead, so the ones behind it go on.
   */
  handleBatch: (messages: ConsumedMessage[], deadLetter: DeadLetterMessage) => Promise<void>;
  /** Where dead-lettered messages are produced (before the batch's offsets are committed); without it they are only logged. */
  deadLetterTopic?: string;
  /** Partitions, replication and min.insync.replicas of the topics it creates when missing (KAFKA_TOPIC_*); the defaults suit one broker. */
  topicSettings?: KafkaTopicSettings;
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
 * Consumes whole batches; a batch's offsets are committed only after the handler stored it
 * (and its dead letters were produced), so a crash means redelivery (deduplicated by the
 * handler), never loss, and a restart resumes after the last committed batch. Each batch is
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
  const deadLetters = options.deadLetterTopic ? new DeadLetterProducer(options.kafka, options.deadLetterTopic) : null;
  const lag = new LagReader(options.kafka, options.groupId, options.topics);
  const unregisterLag = registerConsumerLag(lag, () => lag.read());

  // At most 5 s between attempts: a broker back after a long outage is consumed from within
  // seconds (with 30 s, the reliability suite's Kafka outage took 30 s to recover).
  const scheduleRestart = (attempt: number) => {
    if (stopped) return;
    const delay = Math.min(5_000, 500 * 2 ** Math.min(attempt, 6));
    restartTimer = setTimeout(() => void attemptStart(attempt + 1), delay);
  };

  async function attemptStart(attempt: number): Promise<void> {
    if (stopped) return;
    // A member that died without leaving (SIGKILL) holds its partitions until its session times
    // out: 10 s rather than kafkajs' 30 s, with a heartbeat every second; a batch is stored in far less.
    // A fetch with nothing to read waits at most 1 s, not kafkajs' 5 s: stopping waits for the
    // fetch under way, so a shutdown (and every test system's stop) took 5 s.
    const current = options.kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      retry: { retries: 10 },
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      maxWaitTimeInMs: 1_000,
    });
    consumer = current;
    current.on(current.events.CRASH, (event) => {
      const { error, restart } = event.payload as { error: Error; restart: boolean };
      options.log.error({ err: error, restart }, "kafka consumer crashed");
      if (!restart && !stopped) void current.disconnect().finally(() => scheduleRestart(0));
    });
    try {
      const topics = options.deadLetterTopic ? [...options.topics, options.deadLetterTopic] : options.topics;
      await ensureTopics(options.kafka, topics, options.topicSettings, options.log);
      await current.connect();
      await current.subscribe({ topics: options.topics, fromBeginning: true });
      await current.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: (payload) => processBatch(options, deadLetters, payload) });
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
      unregisterLag();
      if (restartTimer) clearTimeout(restartTimer);
      await consumer?.disconnect().catch(() => {});
      await deadLetters?.close();
      await lag.close();
    },
  };
}

/**
 * The group's lag per partition, read from the broker when Prometheus scrapes (committed offsets
 * and each topic's end offsets), so it shows even while this consumer is stuck, restarting or
 * cut off. One admin connection, opened on the first scrape and kept until the consumer stops.
 */
class LagReader {
  private admin: Promise<Admin> | null = null;
  private closed = false;
  readonly read: () => Promise<Sample<LagLabel>[]>;

  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    private readonly topics: string[],
  ) {
    this.read = sharedRead(() => this.fetch());
  }

  private connect(): Promise<Admin> {
    // A scrape still running when the consumer stopped must not open a connection nobody closes.
    if (this.closed) return Promise.reject(new Error("the consumer has stopped"));
    this.admin ??= (async () => {
      const admin = this.kafka.admin({ retry: { retries: 1 } });
      await admin.connect();
      return admin;
    })().catch((err: unknown) => {
      this.admin = null;
      throw err;
    });
    return this.admin;
  }

  private async fetch(): Promise<Sample<LagLabel>[]> {
    const admin = await this.connect();
    const [committed, ...ends] = await Promise.all([
      admin.fetchOffsets({ groupId: this.groupId, topics: this.topics }),
      ...this.topics.map((topic) => admin.fetchTopicOffsets(topic)),
    ]);
    const samples: Sample<LagLabel>[] = [];
    this.topics.forEach((topic, i) => {
      const group = committed.find((entry) => entry.topic === topic)?.partitions ?? [];
      for (const offsets of ends[i] ?? []) {
        const at = group.find((entry) => entry.partition === offsets.partition)?.offset;
        samples.push({ labels: { group: this.groupId, topic, partition: String(offsets.partition) }, value: lagOf(offsets, at) });
      }
    });
    return samples;
  }

  async close(): Promise<void> {
    this.closed = true;
    const admin = this.admin;
    this.admin = null;
    await (await admin?.catch(() => null))?.disconnect().catch(() => {});
  }
}

function sizeOf(message: Message): number {
  const headers = Object.entries(message.headers ?? {}).reduce((sum, [name, value]) => sum + name.length + String(value ?? "").length, 0);
  const text = (part: unknown) => (typeof part === "string" ? Buffer.byteLength(part) : Buffer.isBuffer(part) ? part.length : 0);
  return text(message.value) + text(message.key) + headers + 64;
}

/** Messages in order, in runs of at most `maxBytes` (a larger one alone). */
export function chunkMessages(messages: Message[], maxBytes: number): Message[][] {
  const chunks: Message[][] = [];
  let current: Message[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = sizeOf(message);
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Produces dead letters with a producer of its own, connected on first use. */
class DeadLetterProducer {
  private readonly producer: ReplaceableProducer;

  constructor(
    kafka: Kafka,
    readonly topic: string,
  ) {
    // Checked sends: a dead letter kafkajs drops mid-failover fails the batch, which comes back;
    // replaced after a broker forgot it, as the relay's is.
    this.producer = new ReplaceableProducer(kafka, {});
  }

  async send(letters: { message: ConsumedMessage; error: string }[]): Promise<void> {
    const messages = letters.map(({ message, error }) =>
      deadLetterMessage({
        source: "audit-consumer",
        key: message.key,
        value: message.value,
        headers: message.headers,
        error,
        originalTopic: message.topic,
        partition: message.partition,
        offset: message.offset,
      }),
    );
    // A whole refused batch (up to the fetch size, ~1 MB, plus headers) in one request could pass the
    // broker's limit and be refused each time the batch comes back: send at most ~512 KiB per request.
    for (const chunk of chunkMessages(messages, MAX_DEAD_LETTER_VALUE_BYTES))
      await this.producer.send({ acks: -1, topicMessages: [{ topic: this.topic, messages: chunk }] });
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}

async function processBatch(
  options: KafkaConsumerOptions,
  deadLetters: DeadLetterProducer | null,
  { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }: EachBatchPayload,
): Promise<void> {
  const last = batch.messages.at(-1);
  if (!last) return;
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
  const refused: { message: ConsumedMessage; error: string }[] = [];
  // kafkajs sends no heartbeat while a batch is handled: one a second keeps the member in its
  // group (10 s session) through a slow store or a dead-letter send retrying a failover.
  const beating = setInterval(() => void heartbeat().catch(() => {}), 1_000);
  try {
    await tracer.startActiveSpan(`${batch.topic} process`, { kind: SpanKind.CONSUMER, links, attributes }, parent, async (span) => {
      try {
        await options.handleBatch(messages, (message, error) => void refused.push({ message, error }));
      } finally {
        span.end();
      }
    });
    if (refused.length > 0) {
      if (deadLetters) await deadLetters.send(refused);
      consumerDeadLetteredTotal.inc({ group: options.groupId, topic: batch.topic }, refused.length);
      for (const { message, error } of refused) {
        options.log.error(
          { topic: message.topic, partition: message.partition, offset: message.offset, key: message.key, event_id: message.headers["event-id"], error },
          deadLetters ? `message dead-lettered to ${deadLetters.topic}` : "message skipped: it can never be handled",
        );
      }
    }
  } finally {
    clearInterval(beating);
  }
  resolveOffset(last.offset);
  // With autoCommit off, commitOffsetsIfNecessary() without offsets commits nothing (kafkajs 2):
  // the offset to commit is the next one to read.
  const next = (BigInt(last.offset) + 1n).toString();
  await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] }] });
  consumedMessagesTotal.inc({ group: options.groupId, topic: batch.topic }, messages.length);
  await heartbeat();
}
