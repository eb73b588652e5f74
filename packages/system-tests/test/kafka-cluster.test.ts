// The audit pipeline on a three-broker cluster (past one machine): topics made with
// replication 3 and min.insync.replicas 2 from KAFKA_TOPIC_*, a steady stream of audited
// requests, one broker stopped mid-run and started again; every event in the gateway's outbox
// is stored once in the audit store. Runs only against infra/kafka/cluster.sh's cluster:
//
//   bash infra/kafka/cluster.sh start
//   KAFKA_CLUSTER_BROKERS=127.0.0.1:19092,127.0.0.1:19093,127.0.0.1:19094 npx vitest run test/kafka-cluster.test.ts
//
// KAFKA_CLUSTER_STOP=kill-node crashes the broker (SIGKILL) instead of a controlled shutdown;
// KAFKA_CLUSTER_NODE (2), KAFKA_CLUSTER_RATE (requests/s, 80) and KAFKA_CLUSTER_DOWN_SECONDS (20) tune the run.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ConfigResourceTypes, Kafka, Partitioners, logLevel, type PartitionMetadata } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_TOPICS } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

const run = promisify(execFile);
const CLUSTER_SCRIPT = fileURLToPath(new URL("../../../infra/kafka/cluster.sh", import.meta.url));
const brokers = process.env.KAFKA_CLUSTER_BROKERS;
const NODE = process.env.KAFKA_CLUSTER_NODE ?? "2";
const STOP = process.env.KAFKA_CLUSTER_STOP === "kill-node" ? "kill-node" : "stop-node";
const RATE = Number(process.env.KAFKA_CLUSTER_RATE ?? 80);
const DOWN_SECONDS = Number(process.env.KAFKA_CLUSTER_DOWN_SECONDS ?? 20);
const WRITERS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.round(ms / 100) / 10;

async function cluster(command: string, node: string): Promise<number> {
  const started = Date.now();
  await run("bash", [CLUSTER_SCRIPT, command, node], { timeout: 300_000 });
  return Date.now() - started;
}

/** Our events' ids, and how many are published / stored (ids outside the outbox, from earlier runs on the same cluster, do not count). */
async function pipelineCounts(system: TestSystem) {
  const outbox = await system.db.gateway.outboxEvent.findMany({ select: { eventId: true, publishedAt: true } });
  const ids = outbox.map((row) => row.eventId);
  const [stored] = await system.db.audit.$queryRaw<{ total: number; distinct: number }[]>`
    SELECT count(*)::int AS total, count(DISTINCT event_id)::int AS distinct FROM audit_log_entries WHERE event_id = ANY(${ids}::uuid[])`;
  return { ids, written: ids.length, published: outbox.filter((row) => row.publishedAt).length, stored: stored?.total ?? 0, distinct: stored?.distinct ?? 0 };
}

/** How many copies of each of `ids` the audit topics hold (more than one: the producer sent it again). */
async function copiesOnTopics(kafka: Kafka, ids: Set<string>): Promise<{ seen: number; copies: number }> {
  const counts = new Map<string, number>();
  let copies = 0;
  const consumer = kafka.consumer({ groupId: `cluster-test-reader-${Date.now()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: AUDIT_TOPICS, fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const id = message.headers?.["event-id"]?.toString();
          if (!id || !ids.has(id)) continue;
          counts.set(id, (counts.get(id) ?? 0) + 1);
          copies++;
        }
      },
    });
    const deadline = Date.now() + 120_000;
    while (counts.size < ids.size && Date.now() < deadline) await sleep(500);
    await sleep(2000); // copies behind the last new id
  } finally {
    await consumer.disconnect();
  }
  return { seen: counts.size, copies };
}

/** Leader and replicas of each audit topic partition now. */
async function partitionsOf(kafka: Kafka): Promise<Map<string, PartitionMetadata[]>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: AUDIT_TOPICS });
    return new Map(topics.map((topic) => [topic.name, topic.partitions]));
  } finally {
    await admin.disconnect();
  }
}

/** Events in the outbox but not in the audit store: where they were to go, and when, relative to the broker's stop. */
async function lostEvents(system: TestSystem, kafka: Kafka, leadersBefore: Map<string, PartitionMetadata[]>, stopAt: number) {
  const rows = await system.db.gateway.$queryRaw<{ event_id: string; topic: string; message_key: string; created_at: Date; published_at: Date | null }[]>`
    SELECT event_id::text, topic, message_key, created_at, published_at FROM outbox_events ORDER BY id`;
  const stored = new Set((await system.db.audit.auditLogEntry.findMany({ select: { eventId: true } })).map((row) => row.eventId));
  const partitionOf = Partitioners.DefaultPartitioner();
  const now = await partitionsOf(kafka);
  return rows
    .filter((row) => !stored.has(row.event_id))
    .map((row) => {
      const partition = partitionOf({ topic: row.topic, partitionMetadata: now.get(row.topic) ?? [], message: { key: row.message_key, value: null } });
      return {
        eventId: row.event_id,
        topic: row.topic,
        partition,
        leaderBeforeStop: leadersBefore.get(row.topic)?.find((p) => p.partitionId === partition)?.leader,
        writtenSecondsAfterStop: seconds(row.created_at.getTime() - stopAt),
        publishedSecondsAfterStop: row.published_at ? seconds(row.published_at.getTime() - stopAt) : null,
      };
    });
}

if (!brokers) console.warn("[system-tests] skipping the three-broker cluster test: set KAFKA_CLUSTER_BROKERS after infra/kafka/cluster.sh start");

describe.skipIf(!brokers)("audit pipeline on a three-broker Kafka cluster with one broker stopped mid-run", () => {
  let system: TestSystem;
  let api: ApiClient;
  let kafka: Kafka;
  /** Warnings and errors of the gateway's relay and the audit consumer (kafkajs's among them). */
  const logLines: string[] = [];

  beforeAll(async () => {
    kafka = new Kafka({ clientId: "cluster-test", brokers: (brokers ?? "").split(","), logLevel: logLevel.NOTHING });
    system = await startSystem({
      adminUrl: testPostgresAdminUrl(),
      kafkaBrokers: brokers,
      kafkaEnv: { KAFKA_TOPIC_REPLICATION_FACTOR: "3", KAFKA_TOPIC_MIN_INSYNC_REPLICAS: "2" },
      gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000" },
      logLevel: "warn",
      logDestination: { write: (line: string) => void logLines.push(line) },
    });
    api = apiClient(system.url);
    expect(system.gateway.publisherName).toBe("kafka");
  }, 180_000);

  afterAll(async () => {
    // Whatever happened, leave the cluster whole for the next run.
    await cluster("start-node", NODE).catch((err: unknown) => console.error("[kafka-cluster] could not start the node again", err));
    await system?.stop();
  }, 300_000);

  it("made the audit topics with three replicas and min.insync.replicas 2", async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: AUDIT_TOPICS });
      for (const topic of topics) for (const partition of topic.partitions) expect(partition.replicas).toHaveLength(3);
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: AUDIT_TOPICS.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ["min.insync.replicas"] })),
      });
      for (const resource of resources) expect(resource.configEntries.find((entry) => entry.configName === "min.insync.replicas")?.configValue).toBe("2");
    } finally {
      await admin.disconnect();
    }
  });

  it("stores every event written to the outbox exactly once while a broker is stopped and started again", { timeout: 900_000 }, async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < WRITERS; i++) users.push(await signUpUser(api, `cluster-${i}`));

    // A steady stream: WRITERS users each renaming themselves (one user.updated event per request), RATE requests/s in all.
    let producing = true;
    let sent = 0;
    const failures: string[] = [];
    const t0 = Date.now();
    const writers = users.map(async (user, w) => {
      for (let k = 0; producing; k++) {
        const due = t0 + ((k * WRITERS + w) * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        const res = await api.patch("/api/v1/users/me", { user: { first_name: `w${w}-${k}` } }, { token: user.accessToken });
        if (res.status === 200) sent++;
        else failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    });

    // The pipeline's progress twice a second: the longest stretch with events waiting and none published is the failover's stall.
    const timeline: { at: number; written: number; published: number; stored: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const counts = await pipelineCounts(system);
        timeline.push({ at: Date.now(), written: counts.written, published: counts.published, stored: counts.stored });
        await sleep(500);
      }
    })();

    await sleep(10_000);
    const leadersBefore = await partitionsOf(kafka);
    const stopAt = Date.now();
    const stopMs = await cluster(STOP, NODE);
    const downFrom = Date.now();
    await sleep(DOWN_SECONDS * 1000);
    const startAt = Date.now();
    const startMs = await cluster("start-node", NODE);
    const upAt = Date.now();

    // Back in sync: every partition of the audit topics has its three replicas in the ISR again.
    const admin = kafka.admin();
    await admin.connect();
    let inSyncAt = 0;
    try {
      for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(500)) {
        const { topics } = await admin.fetchTopicMetadata({ topics: AUDIT_TOPICS });
        if (topics.every((topic) => topic.partitions.every((partition) => partition.isr.length === 3))) {
          inSyncAt = Date.now();
          break;
        }
      }
    } finally {
      await admin.disconnect();
    }
    await sleep(5_000);
    producing = false;
    await Promise.all(writers);
    const lastRequestAt = Date.now();

    // Every event delivered: nothing waiting in the outbox, each stored.
    let counts = await pipelineCounts(system);
    let drainedAt = Date.now();
    for (
      const deadline = Date.now() + 240_000;
      Date.now() < deadline && (counts.published < counts.written || counts.distinct < counts.written);
      await sleep(500)
    ) {
      const before = counts.distinct;
      counts = await pipelineCounts(system);
      if (counts.distinct !== before) drainedAt = Date.now();
      // All published, and nothing more arriving for 30 s: what is missing is not coming.
      else if (counts.published === counts.written && Date.now() - drainedAt > 30_000) break;
    }
    if (counts.distinct === counts.written) drainedAt = Date.now();
    sampling = false;
    await sampler;

    let longestStall = 0;
    let stallStart: number | null = null;
    for (let i = 1; i < timeline.length; i++) {
      const [before, now] = [timeline[i - 1]!, timeline[i]!];
      const waiting = before.written > before.published;
      if (waiting && now.published === before.published) {
        stallStart ??= before.at;
        longestStall = Math.max(longestStall, now.at - stallStart);
      } else {
        stallStart = null;
      }
    }
    const deadLetters = await system.db.gateway.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM outbox_dead_letters`;
    const updates = await system.db.gateway.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'eventType' = 'user.updated'`;
    const onTopics = await copiesOnTopics(kafka, new Set(counts.ids));
    const lost = await lostEvents(system, kafka, leadersBefore, stopAt);
    const kafkaLines = logLines.filter((line) => line.includes('"kafka"') || line.includes("outbox"));

    const figures = {
      brokerStopped: `node ${NODE} by ${STOP}`,
      requestsOk: sent,
      requestsFailed: failures.length,
      eventsWrittenToOutbox: counts.written,
      ofWhichUserUpdated: updates[0]?.n ?? 0,
      published: counts.published,
      storedRows: counts.stored,
      storedDistinct: counts.distinct,
      lost: counts.written - counts.distinct,
      storedTwice: counts.stored - counts.distinct,
      deadLettered: deadLetters[0]?.n ?? 0,
      copiesOnTopics: onTopics.copies,
      distinctOnTopics: onTopics.seen,
      sentTwiceToKafka: onTopics.copies - onTopics.seen,
      stopCommandSeconds: seconds(stopMs),
      brokerDownSeconds: seconds(upAt - downFrom),
      brokerNotServingSeconds: seconds(upAt - stopAt),
      startCommandSeconds: seconds(startMs),
      startToFullIsrSeconds: inSyncAt ? seconds(inSyncAt - startAt) : "not within 180 s",
      longestPublishStallSeconds: seconds(longestStall),
      drainAfterLastRequestSeconds: seconds(drainedAt - lastRequestAt),
      runSeconds: seconds(lastRequestAt - t0),
    };
    console.log(`[kafka-cluster] ${JSON.stringify(figures, null, 2)}`);
    if (lost.length > 0) console.log(`[kafka-cluster] lost events:\n${lost.map((event) => JSON.stringify(event)).join("\n")}`);
    const relayLines = kafkaLines.filter((line) => line.includes("outbox relay"));
    console.log(
      `[kafka-cluster] ${kafkaLines.length} relay/kafka log lines at warn or above, ${relayLines.length} of the relay:\n${relayLines.join("").slice(0, 6000)}`,
    );

    expect(failures).toEqual([]);
    expect(updates[0]?.n).toBe(sent); // one event per request answered 200
    expect(deadLetters[0]?.n).toBe(0);
    expect(counts.published).toBe(counts.written);
    expect(counts.distinct).toBe(counts.written); // nothing lost
    expect(counts.stored).toBe(counts.distinct); // nothing stored twice
    expect(inSyncAt).toBeGreaterThan(0);
  });
});
