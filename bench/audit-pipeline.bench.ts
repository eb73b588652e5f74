// `npm run bench` (audit pipeline): audit events written into the gateway's outbox by
// 32 concurrent writers -> the real outbox relay -> Kafka -> the real audit consumer -> the audit
// store, against a bare kafkajs producer and consumer moving events of the same size through the
// same broker, in the same run and process. Goals: 20,000 events/s sustained, at least 0.5x the
// bare pair, and every event stored exactly once (counted as distinct stored rows). A second
// Hearth run writes its events with the relay stopped and then times relay -> Kafka -> store
// alone (the sustained rate includes the writers, whose transactions can bound it).
//
// KAFKA_BROKERS (default 127.0.0.1:9092) must answer: the bench refuses to run without a broker.
// BENCH_AUDIT_EVENTS (default 10,000: a run of one to two minutes on the busy 2-core machine at
// today's rate, most of it start-up; raise it as the pipeline gets faster) events are measured after a warm-up of up to 2,000;
// BENCH_AUDIT_WRITERS (default 32) writers; BENCH_AUDIT_EVENTS_PER_TX (default 10) events per
// writer transaction.
//
// The pipeline's topics are fixed (hearth.audit.*) and the audit consumer reads them from the
// beginning under a new group: the bench starts its group at the topics' current end, so events
// already on a shared broker are not counted or waited for, and counts only its own families.
// The events it leaves there are read by every later consumer group that starts from the
// beginning (the system tests do): prefer a broker of your own for repeated runs.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Kafka } from "kafkajs";
import pg from "pg";
import { AUDIT_DEAD_LETTER_TOPIC, AUDIT_TOPICS, type AuditEvent, type AuditEventType } from "@hearth/contracts";
import { createLogger, kafkaBrokersOf } from "@hearth/service-kit";
import { DEFAULT_RELAY_BATCH_SIZE, buildAuditEvent, createKafka, enqueueAuditEvents, ensureTopics } from "@hearth/service-kit/events";
import { startTestPostgres } from "@hearth/test-kit";
import { startSystem } from "@hearth/system-tests";
import { saveSection } from "./report";

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 10_000);
const WRITERS = Number(process.env.BENCH_AUDIT_WRITERS ?? 32);
const EVENTS_PER_TX = Number(process.env.BENCH_AUDIT_EVENTS_PER_TX ?? 10);
const WARMUP_EVENTS = Math.min(2_000, EVENTS);
/** The relay's batch (OutboxRelay's default batchSize): the bare producer sends batches of the same size. */
const RELAY_BATCH = DEFAULT_RELAY_BATCH_SIZE;
/** Seconds without progress after which the missing events count as lost. */
const STALL_S = 30;
const GOAL_RATE = 20_000;
const GOAL_RATIO = 0.5;
const BROKERS = process.env.KAFKA_BROKERS || "127.0.0.1:9092";
/** The topic the bench's events go to: every event is an auth.* one, as most of the gateway's are. */
const AUTH_TOPIC = "hearth.audit.auth";

const EVENT_KINDS: [AuditEventType, string][] = [
  ["auth.login.success", "login"],
  ["auth.token.issued", "issue_token"],
  ["auth.token.refreshed", "refresh_token"],
  ["auth.logout", "logout"],
];
const USER_AGENT = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

/** One writer: a family and a signed-in user of it, as the gateway's identity events carry them. */
interface Writer {
  familyId: string;
  user: { id: string; email: string };
  sessionId: string;
}

const runId = randomUUID().slice(0, 8);
const newWriters = (count: number, label: string): Writer[] =>
  Array.from({ length: count }, (_, i) => ({
    familyId: randomUUID(),
    user: { id: randomUUID(), email: `bench-${label}-${runId}-${i}@hearth.example` },
    sessionId: randomUUID(),
  }));

/** An audit event the way the gateway builds one for a request (buildAuditEvent, as toIdentityAuditEvent calls it). */
function auditEvent(writer: Writer, n: number): AuditEvent {
  const [eventType, action] = EVENT_KINDS[n % EVENT_KINDS.length]!;
  return buildAuditEvent({
    eventType,
    familyId: writer.familyId,
    user: writer.user,
    provider: "local",
    request: { ipAddress: "203.0.113.24", userAgent: USER_AGENT, requestId: randomUUID(), sessionId: writer.sessionId },
    action,
    resource: "session",
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;

/** What the process's one thread and its CPU did during a phase (everything runs in this process). */
function processLoad() {
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  return () => {
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { eventLoop: performance.eventLoopUtilization(elu).utilization, cores: (used.user + used.system) / 1000 / wall };
  };
}

/** Fails clearly, and fast, when no broker answers at KAFKA_BROKERS. */
async function requireBroker(kafka: Kafka): Promise<void> {
  const admin = kafka.admin({ retry: { retries: 1 } });
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (err) {
    throw new Error(
      `no Kafka broker answers at KAFKA_BROKERS=${BROKERS} (${err instanceof Error ? err.message : String(err)}): ` +
        "start one (`npm run kafka start`) or point KAFKA_BROKERS at one; this bench measures the pipeline through a real broker",
    );
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** The topic's end offset per partition; a topic just created may not have its leaders known yet: asked again then. */
async function endOffsets(kafka: Kafka, topic: string): Promise<{ partition: number; offset: string }[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({ partition, offset: high }));
      } catch (err) {
        if (attempt >= 10 || (err as { retriable?: unknown }).retriable !== true) throw err;
        await sleep(500);
      }
    }
  } finally {
    await admin.disconnect();
  }
}

const messagesIn = (offsets: { offset: string }[]) => offsets.reduce((sum, { offset }) => sum + Number(offset), 0);

// ------------------------------------------------------------------------------------------
// Baseline: a bare kafkajs producer (idempotent, acks=-1, one request in flight, batches of the
// relay's size) and a bare consumer (eachBatch, auto-commit) on a fresh topic of its own.

interface Arrivals {
  received: number;
  duplicates: number;
  lastAt: number;
  lags: number[];
}

async function bareBaseline(kafka: Kafka, warmup: AuditEvent[], measured: AuditEvent[]) {
  const topic = `bench-audit-bare-${runId}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3, replicationFactor: 1 }] });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: topic });
  let expected = new Set<string>();
  let seen = new Set<string>();
  let arrivals: Arrivals = { received: 0, duplicates: 0, lastAt: 0, lags: [] };
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  try {
    await Promise.all([producer.connect(), consumer.connect()]);
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        const now = Date.now();
        for (const message of batch.messages) {
          // The consumer reads each event as a store would: parses it and takes its id.
          const { eventId } = JSON.parse(message.value?.toString() ?? "{}") as { eventId?: string };
          if (!eventId || !expected.has(eventId)) continue;
          if (seen.has(eventId)) arrivals.duplicates += 1;
          else {
            seen.add(eventId);
            arrivals.received += 1;
            arrivals.lags.push(now - Number(message.timestamp));
            arrivals.lastAt = now;
          }
        }
      },
    });
    await joined;

    const run = async (events: AuditEvent[]) => {
      expected = new Set(events.map((event) => event.eventId));
      seen = new Set();
      arrivals = { received: 0, duplicates: 0, lastAt: 0, lags: [] };
      // Built before the clock starts: the bare pair measures the transport only.
      const messages = events.map((event) => ({ key: event.familyId ?? event.eventId, value: JSON.stringify(event), headers: { "event-id": event.eventId } }));
      const load = processLoad();
      const startedAt = Date.now();
      for (let i = 0; i < messages.length; i += RELAY_BATCH) {
        const timestamp = String(Date.now());
        await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: messages.slice(i, i + RELAY_BATCH).map((m) => ({ ...m, timestamp })) }] });
      }
      const sentAt = Date.now();
      let progress = { received: -1, at: Date.now() };
      while (arrivals.received < events.length) {
        if (arrivals.received !== progress.received) progress = { received: arrivals.received, at: Date.now() };
        else if (Date.now() - progress.at > STALL_S * 1000) break;
        await sleep(20);
      }
      const lags = arrivals.lags.sort((a, b) => a - b);
      return {
        sent: events.length,
        received: arrivals.received,
        duplicates: arrivals.duplicates,
        sendMs: sentAt - startedAt,
        totalMs: arrivals.lastAt - startedAt,
        rate: perSecond(arrivals.received, arrivals.lastAt - startedAt),
        lagP50: percentile(lags, 0.5),
        lagP99: percentile(lags, 0.99),
        load: load(),
      };
    };
    await run(warmup);
    return await run(measured);
  } finally {
    await consumer.disconnect().catch(() => {});
    await producer.disconnect().catch(() => {});
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.deleteGroups([topic]).catch(() => {});
    await admin.disconnect();
  }
}

// ------------------------------------------------------------------------------------------
// Hearth: the gateway's outbox, relay and the audit service's consumer and store, as startSystem
// wires them with KAFKA_BROKERS.

const log = createLogger("bench-audit-pipeline", "warn");
const kafka = createKafka(kafkaBrokersOf(BROKERS), "bench-audit-pipeline", log);
await requireBroker(kafka);

// The audit consumer's group starts at the end of the audit topics: earlier events on the broker are not this run's.
const auditGroup = `bench-audit-pipeline-${runId}`;
await ensureTopics(kafka, [...AUDIT_TOPICS, AUDIT_DEAD_LETTER_TOPIC]);
{
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (const topic of AUDIT_TOPICS) await admin.setOffsets({ groupId: auditGroup, topic, partitions: await endOffsets(kafka, topic) });
  } finally {
    await admin.disconnect();
  }
}

const postgres = await startTestPostgres();
const system = await startSystem({ adminUrl: postgres.adminUrl, kafkaBrokers: BROKERS, auditConsumerGroupId: auditGroup });
const gatewaySql = new pg.Pool({ connectionString: system.databaseUrls.gateway, max: 1 });
const auditSql = new pg.Pool({ connectionString: system.databaseUrls.audit, max: 1 });
let failed = false;
try {
  if (system.gateway.publisherName !== "kafka") throw new Error(`the gateway's relay publishes to ${system.gateway.publisherName}, not Kafka`);

  /**
   * `total` events written by the writers, each transaction `EVENTS_PER_TX` of them, the way the
   * gateway's withIdentityEvents writes a request's events: built during the transaction,
   * written in order with enqueueAuditEvents through the gateway's Prisma client, the relay poked after the commit.
   * A transaction Prisma refuses to start (P2028: no pooled connection within its maxWait, 2 s by
   * default) wrote nothing: it is counted and tried again, as a client would retry its request.
   */
  const writeThroughOutbox = async (writers: Writer[], total: number) => {
    let next = 0;
    let refused = 0;
    const startedAt = Date.now();
    await Promise.all(
      writers.map(async (writer) => {
        while (next < total) {
          const first = next;
          const take = Math.min(EVENTS_PER_TX, total - first);
          next += take;
          for (;;) {
            try {
              await system.db.gateway.$transaction(async (tx) => {
                const events = Array.from({ length: take }, (_, i) => auditEvent(writer, first + i));
                await enqueueAuditEvents(tx, events);
              });
              break;
            } catch (err) {
              const { code, message } = err as { code?: unknown; message?: unknown };
              if (code !== "P2028" || typeof message !== "string" || !message.includes("Unable to start a transaction")) throw err;
              refused += 1;
            }
          }
          system.gateway.relay.poke();
        }
      }),
    );
    return { startedAt, writtenAt: Date.now(), refused };
  };

  const storedCounts = async (families: string[]) => {
    const { rows } = await auditSql.query<{ rows: number; distinct: number }>(
      "SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS distinct FROM audit_log_entries WHERE family_id = ANY($1::uuid[])",
      [families],
    );
    return rows[0] ?? { rows: 0, distinct: 0 };
  };

  /** Polls the audit store until it holds `total` distinct events of these families, or nothing moved for STALL_S. */
  const waitStored = async (families: string[], total: number) => {
    let progress = { distinct: -1, at: Date.now() };
    for (;;) {
      const counts = await storedCounts(families);
      if (counts.distinct >= total) return counts;
      if (counts.distinct !== progress.distinct) progress = { distinct: counts.distinct, at: Date.now() };
      else if (Date.now() - progress.at > STALL_S * 1000) return counts;
      await sleep(200);
    }
  };

  const runHearth = async (writers: Writer[], total: number) => {
    const families = writers.map((writer) => writer.familyId);
    const topicBefore = messagesIn(await endOffsets(kafka, AUTH_TOPIC));
    const deadBefore = messagesIn(await endOffsets(kafka, AUDIT_DEAD_LETTER_TOPIC));
    const load = processLoad();
    const { startedAt, writtenAt, refused } = await writeThroughOutbox(writers, total);
    await waitStored(families, total);
    const processed = load();
    // A late duplicate would be a second row: look once more after the pipeline went quiet.
    await sleep(1_000);
    const { rows: stored } = await auditSql.query<{ rows: number; distinct: number; last: number; p10: number; p90: number; lag50: number; lag99: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS distinct,
              (extract(epoch FROM max(received_at)) * 1000)::float8 AS last,
              (extract(epoch FROM percentile_disc(0.1) WITHIN GROUP (ORDER BY received_at)) * 1000)::float8 AS p10,
              (extract(epoch FROM percentile_disc(0.9) WITHIN GROUP (ORDER BY received_at)) * 1000)::float8 AS p90,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM received_at - occurred_at) * 1000)::float8 AS lag50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM received_at - occurred_at) * 1000)::float8 AS lag99
         FROM audit_log_entries WHERE family_id = ANY($1::uuid[])`,
      [families],
    );
    const { rows: outbox } = await gatewaySql.query<{ rows: number; unpublished: number; published: number; wait50: number; wait99: number; dead: number }>(
      `SELECT count(*)::int AS rows, count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished,
              (extract(epoch FROM max(published_at)) * 1000)::float8 AS published,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - created_at) * 1000)::float8 AS wait50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - created_at) * 1000)::float8 AS wait99,
              (SELECT count(*)::int FROM outbox_dead_letters WHERE message_key = ANY($1::text[])) AS dead
         FROM outbox_events WHERE message_key = ANY($1::text[])`,
      [families],
    );
    const audit = stored[0]!;
    const relay = outbox[0]!;
    return {
      total,
      refusedTransactions: refused,
      stored: audit.rows,
      distinct: audit.distinct,
      lost: total - audit.distinct,
      doubled: audit.rows - audit.distinct,
      outboxRows: relay.rows,
      unpublished: relay.unpublished,
      deadLettered: relay.dead + messagesIn(await endOffsets(kafka, AUDIT_DEAD_LETTER_TOPIC)) - deadBefore,
      onTopic: messagesIn(await endOffsets(kafka, AUTH_TOPIC)) - topicBefore,
      writeMs: writtenAt - startedAt,
      publishMs: relay.published - startedAt,
      totalMs: audit.last - startedAt,
      rate: perSecond(audit.distinct, audit.last - startedAt),
      middleRate: perSecond(0.8 * audit.distinct, audit.p90 - audit.p10),
      lagP50: audit.lag50,
      lagP99: audit.lag99,
      outboxWaitP50: relay.wait50,
      outboxWaitP99: relay.wait99,
      load: processed,
    };
  };

  /**
   * The relay, Kafka and the audit store alone: the events are written while the relay is
   * stopped, then it starts and the clock runs from its start to the last stored row. The
   * sustained rate above includes the writers (the gateway's Prisma pool and one commit per
   * transaction bound it); this is what the rest of the pipeline moves once events are in the outbox.
   */
  const runBacklog = async (writers: Writer[], total: number) => {
    const families = writers.map((writer) => writer.familyId);
    await system.gateway.relay.stop();
    let startedAt = 0;
    let written = { startedAt: 0, writtenAt: 0 };
    try {
      written = await writeThroughOutbox(writers, total);
    } finally {
      startedAt = Date.now();
      system.gateway.relay.start();
    }
    const load = processLoad();
    await waitStored(families, total);
    const processed = load();
    await sleep(1_000);
    const { rows } = await auditSql.query<{ rows: number; distinct: number; last: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS distinct, (extract(epoch FROM max(received_at)) * 1000)::float8 AS last
         FROM audit_log_entries WHERE family_id = ANY($1::uuid[])`,
      [families],
    );
    const audit = rows[0]!;
    return {
      total,
      lost: total - audit.distinct,
      doubled: audit.rows - audit.distinct,
      writeMs: written.writtenAt - written.startedAt,
      totalMs: audit.last - startedAt,
      rate: perSecond(audit.distinct, audit.last - startedAt),
      load: processed,
    };
  };

  const sample = auditEvent(newWriters(1, "sample")[0]!, 0);
  console.log(
    `audit pipeline through Kafka at ${BROKERS}: ${EVENTS.toLocaleString("en")} events (after ${WARMUP_EVENTS.toLocaleString("en")} to warm up), ` +
      `${WRITERS} writers, ${EVENTS_PER_TX} events per transaction, events of ${Buffer.byteLength(JSON.stringify(sample))} bytes, Node ${process.version}`,
  );
  console.log(
    `note: the run leaves ${(2 * EVENTS + WARMUP_EVENTS).toLocaleString("en")} events on ${AUTH_TOPIC}, which every consumer group starting from the beginning reads (the system tests' do)`,
  );
  console.log("warming up Hearth's pipeline (also waits for the audit consumer to join its group)...");
  const warm = await runHearth(newWriters(WRITERS, "warm"), WARMUP_EVENTS);
  if (warm.lost > 0) throw new Error(`the warm-up lost ${warm.lost} of ${WARMUP_EVENTS} events: is the audit consumer running?`);

  console.log("bare kafkajs producer and consumer (warm-up, then measured)...");
  const bareWriters = newWriters(WRITERS, "bare");
  const bareEvents = (count: number) => Array.from({ length: count }, (_, n) => auditEvent(bareWriters[n % bareWriters.length]!, n));
  const bare = await bareBaseline(kafka, bareEvents(WARMUP_EVENTS), bareEvents(EVENTS));
  if (bare.received < bare.sent) throw new Error(`the bare consumer received ${bare.received} of ${bare.sent} events`);

  console.log("Hearth: outbox -> relay -> Kafka -> audit store...");
  const hearth = await runHearth(newWriters(WRITERS, "hearth"), EVENTS);
  console.log("Hearth from a backlog: events written with the relay stopped, then relay -> Kafka -> audit store...");
  const backlog = await runBacklog(newWriters(WRITERS, "backlog"), EVENTS);

  const ratio = hearth.rate / bare.rate;
  const row = (name: string, rate: number, p50: number, p99: number, ms: number, load: { eventLoop: number; cores: number }) =>
    `${name.padEnd(40)}${rate.toFixed(0).padStart(10)}${p50.toFixed(0).padStart(11)}${p99.toFixed(0).padStart(11)}${(ms / 1000).toFixed(2).padStart(9)}` +
    `${load.eventLoop.toFixed(2).padStart(8)}${load.cores.toFixed(2).padStart(7)}`;
  console.log(
    `\n${"".padEnd(40)}${"events/s".padStart(10)}${"p50 ms".padStart(11)}${"p99 ms".padStart(11)}${"seconds".padStart(9)}${"ELU".padStart(8)}${"cores".padStart(7)}`,
  );
  console.log(row("bare kafkajs producer + consumer", bare.rate, bare.lagP50, bare.lagP99, bare.totalMs, bare.load));
  console.log(row("Hearth outbox -> Kafka -> audit store", hearth.rate, hearth.lagP50, hearth.lagP99, hearth.totalMs, hearth.load));
  console.log(row("Hearth from an outbox backlog", backlog.rate, NaN, NaN, backlog.totalMs, backlog.load));
  console.log(
    `\nbare: sent in ${seconds(bare.sendMs)} (${perSecond(bare.sent, bare.sendMs).toFixed(0)} events/s produced), all consumed after ${seconds(bare.totalMs)}; ` +
      `lag = consumed - sent.`,
  );
  console.log(
    `Hearth, from the first write: outbox written after ${seconds(hearth.writeMs)} (${perSecond(EVENTS, hearth.writeMs).toFixed(0)} events/s), ` +
      `all published after ${seconds(hearth.publishMs)} (${perSecond(EVENTS, hearth.publishMs).toFixed(0)}/s), all stored after ${seconds(hearth.totalMs)}; ` +
      `middle 80% stored at ${hearth.middleRate.toFixed(0)} events/s. Lag = stored (received_at) - built (occurred_at); ` +
      `of it, in the outbox (published_at - created_at): p50 ${hearth.outboxWaitP50.toFixed(0)} ms, p99 ${hearth.outboxWaitP99.toFixed(0)} ms.`,
  );
  console.log(
    `counts: written ${hearth.total}, outbox rows ${hearth.outboxRows} (unpublished ${hearth.unpublished}), messages on ${AUTH_TOPIC} ${hearth.onTopic}, ` +
      `stored rows ${hearth.stored}, distinct ${hearth.distinct}, lost ${hearth.lost}, stored twice ${hearth.doubled}, dead-lettered ${hearth.deadLettered}; ` +
      `writer transactions Prisma refused to start (P2028, retried) ${hearth.refusedTransactions}; ` +
      `bare: sent ${bare.sent}, received ${bare.received}, delivered twice ${bare.duplicates}`,
  );
  console.log(
    `\nratio Hearth/bare: ${ratio.toFixed(2)}x (goal >= ${GOAL_RATIO}x); ${hearth.rate.toFixed(0)} events/s (goal >= ${GOAL_RATE.toLocaleString("en")}); ` +
      `lost ${hearth.lost}, stored twice ${hearth.doubled} (goal 0 and 0)`,
  );
  console.log(
    `from a backlog (written with the relay stopped at ${perSecond(EVENTS, backlog.writeMs).toFixed(0)} events/s, then the relay started): ` +
      `${backlog.rate.toFixed(0)} events/s, ${(backlog.rate / bare.rate).toFixed(2)}x the bare pair; ` +
      `lost ${backlog.lost}, stored twice ${backlog.doubled}`,
  );
  failed = hearth.lost !== 0 || hearth.doubled !== 0 || backlog.lost !== 0 || backlog.doubled !== 0;

  await saveSection({
    id: "audit-pipeline",
    title: "Audit pipeline: outbox -> Kafka -> audit store",
    method:
      `${EVENTS.toLocaleString("en")} audit events (${Buffer.byteLength(JSON.stringify(sample))} bytes, auth.* events of ${WRITERS} families) after a warm-up of ` +
      `${WARMUP_EVENTS.toLocaleString("en")}, everything in one process on one Kafka broker: ${WRITERS} concurrent writers enqueue them into the gateway's outbox ` +
      `(enqueueAuditEvents through its Prisma client, ${EVENTS_PER_TX} per transaction), its relay publishes them and the audit service's consumer stores them; ` +
      "the rate runs from the first write to the last stored row, the lag from an event's creation to its row. The baseline is a bare kafkajs producer " +
      `(idempotent, acks=-1, batches of ${RELAY_BATCH}) and consumer (eachBatch) moving the same events through a fresh topic of 3 partitions, ` +
      "from the first send to the last message consumed. The backlog figure: the same number of events written with the relay stopped, " +
      "timed from the relay's start to the last stored row.",
    figures: [
      {
        name: "events stored per second, sustained",
        value: hearth.rate,
        unit: "events/s",
        baseline: { name: "bare kafkajs producer + consumer", value: bare.rate },
        goal: { text: `>= ${GOAL_RATIO}x the bare pair`, met: ratio >= GOAL_RATIO },
      },
      {
        name: "events stored per second, sustained",
        value: hearth.rate,
        unit: "events/s",
        goal: { text: `>= ${GOAL_RATE.toLocaleString("en")} events/s`, met: hearth.rate >= GOAL_RATE },
      },
      {
        name: `events written to the outbox per second (${WRITERS} writers, ${EVENTS_PER_TX} per transaction)`,
        value: perSecond(EVENTS, hearth.writeMs),
        unit: "events/s",
        baseline: { name: "bare producer's send rate", value: perSecond(bare.sent, bare.sendMs) },
      },
      {
        name: "events stored per second from an outbox backlog (written with the relay stopped; from its start to the last stored row)",
        value: backlog.rate,
        unit: "events/s",
        baseline: { name: "bare kafkajs producer + consumer", value: bare.rate },
      },
      { name: "end-to-end lag p50", value: hearth.lagP50, unit: "ms", baseline: { name: "bare pair", value: bare.lagP50 } },
      { name: "end-to-end lag p99", value: hearth.lagP99, unit: "ms", baseline: { name: "bare pair", value: bare.lagP99 } },
      {
        name: "writer transactions Prisma refused to start (P2028: no connection within its 2 s maxWait; retried)",
        value: hearth.refusedTransactions,
        unit: "transactions",
      },
      {
        name: "events lost (written, not stored)",
        value: hearth.lost + backlog.lost,
        unit: "events",
        goal: { text: "0", met: hearth.lost + backlog.lost === 0 },
      },
      {
        name: "events stored twice (rows - distinct event ids)",
        value: hearth.doubled + backlog.doubled,
        unit: "events",
        goal: { text: "0", met: hearth.doubled + backlog.doubled === 0 },
      },
    ],
  });
} finally {
  await gatewaySql.end();
  await auditSql.end();
  await system.stop();
  await postgres.stop();
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteGroups([auditGroup]).catch(() => {});
  await admin.disconnect();
}
if (failed) process.exitCode = 1;
