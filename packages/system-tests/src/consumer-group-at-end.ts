import { Kafka, logLevel } from "kafkajs";
import { AUDIT_TOPICS } from "@hearth/contracts";

/**
 * Commits a new consumer group's offsets at the current end of the audit topics, so a test
 * system's audit consumer reads only what is produced from now on. Otherwise every test file's
 * fresh group reads the topics from the beginning, and a broker holding a benchmark's tens of
 * thousands of events made the tracing test wait past its timeout for its one login.
 * Topics not created yet are left out: their consumer starts at their beginning, which is now.
 */
export async function startGroupAtEnd(brokers: string, groupId: string): Promise<void> {
  const kafka = new Kafka({ clientId: "system-tests", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    for (const topic of AUDIT_TOPICS.filter((name) => existing.has(name))) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
    }
  } finally {
    await admin.disconnect();
  }
}
