import { Kafka, logLevel, type TopicPartitionOffsetAndMetadata } from "kafkajs";
import { AUDIT_TOPICS } from "@hearth/contracts";

/**
 * Commits a new consumer group's offsets at the current end of the audit topics, so a test
 * system's audit consumer reads only what is produced from now on. Otherwise every test file's
 * fresh group reads the topics from the beginning, and a broker holding a benchmark's tens of
 * thousands of events made the tracing test wait past its timeout for its one login.
 * Topics not created yet are left out: their consumer starts at their beginning, which is now.
 *
 * One short-polling member of the group commits every topic's end at once. kafkajs'
 * `admin.setOffsets` joins the group with a consumer of its own per topic and stops it only after
 * a fetch of up to 5 s: 20 s of every Kafka test file's start went there.
 */
export async function startGroupAtEnd(brokers: string, groupId: string): Promise<void> {
  const kafka = new Kafka({ clientId: "system-tests", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let ends: TopicPartitionOffsetAndMetadata[];
  try {
    const existing = new Set(await admin.listTopics());
    const topics = AUDIT_TOPICS.filter((name) => existing.has(name));
    const offsets = await Promise.all(topics.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) })));
    ends = offsets.flatMap(({ topic, partitions }) => partitions.map(({ partition, high }) => ({ topic, partition, offset: high })));
  } finally {
    await admin.disconnect();
  }
  if (ends.length === 0) return;

  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 50 });
  await consumer.connect();
  try {
    const joined = new Promise((resolve) => consumer.on(consumer.events.GROUP_JOIN, resolve));
    await consumer.subscribe({ topics: [...new Set(ends.map(({ topic }) => topic))], fromBeginning: false });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => {} });
    await joined;
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}
