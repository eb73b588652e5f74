import { randomUUID } from "node:crypto";
import { ConfigResourceTypes } from "kafkajs";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseServiceEnvSchema, ConfigError, DEFAULT_KAFKA_TOPIC_SETTINGS, createLogger, kafkaTopicSettingsOf, loadConfig } from "../../src";
import { createKafka, ensureTopics, topicSettingsDrift } from "../../src/events/kafka";

const BASE = { DATABASE_URL: "postgresql://hearth@127.0.0.1:5432/x", INTERNAL_AUTH_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" };
const schema = BaseServiceEnvSchema.extend({ PORT: z.coerce.number().default(1) });

describe("Kafka topic settings", () => {
  it("default to one broker's: 3 partitions, replication 1, min.insync.replicas 1 (empty counts as unset)", () => {
    expect(kafkaTopicSettingsOf(loadConfig(schema, BASE))).toEqual({ partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 });
    expect(kafkaTopicSettingsOf(loadConfig(schema, { ...BASE, KAFKA_TOPIC_REPLICATION_FACTOR: "" }))).toEqual(DEFAULT_KAFKA_TOPIC_SETTINGS);
  });

  it("take a three-broker cluster's from the environment", () => {
    const config = loadConfig(schema, { ...BASE, KAFKA_TOPIC_PARTITIONS: "12", KAFKA_TOPIC_REPLICATION_FACTOR: "3", KAFKA_TOPIC_MIN_INSYNC_REPLICAS: "2" });
    expect(kafkaTopicSettingsOf(config)).toEqual({ partitions: 12, replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it("refuse at boot a min.insync.replicas above the replication factor, and counts below 1, naming the variable", () => {
    try {
      loadConfig(schema, { ...BASE, KAFKA_TOPIC_REPLICATION_FACTOR: "1", KAFKA_TOPIC_MIN_INSYNC_REPLICAS: "2" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        "KAFKA_TOPIC_MIN_INSYNC_REPLICAS (2) must not exceed KAFKA_TOPIC_REPLICATION_FACTOR (1): a topic with fewer copies than that refuses every write made with acks=all",
      ]);
    }
    // The default replication factor (1) counts too.
    expect(() => loadConfig(schema, { ...BASE, KAFKA_TOPIC_MIN_INSYNC_REPLICAS: "2" })).toThrow(/must not exceed KAFKA_TOPIC_REPLICATION_FACTOR \(1\)/);
    expect(() => loadConfig(schema, { ...BASE, KAFKA_TOPIC_PARTITIONS: "0" })).toThrow(/KAFKA_TOPIC_PARTITIONS:/);
    expect(() => loadConfig(schema, { ...BASE, KAFKA_TOPIC_REPLICATION_FACTOR: "three" })).toThrow(/KAFKA_TOPIC_REPLICATION_FACTOR:/);
  });

  it("name existing topics whose partitions or replication differ", () => {
    const three = { replicas: [1, 2, 3] };
    const one = { replicas: [1] };
    const drift = topicSettingsDrift(
      [
        { name: "as-wanted", partitions: [three, three, three] },
        { name: "one-copy", partitions: [one, one, one] },
        { name: "more-partitions", partitions: [three, three, three, three] },
      ],
      { partitions: 3, replicationFactor: 3, minInsyncReplicas: 2 },
    );
    expect(drift).toEqual([
      { topic: "one-copy", partitions: 3, replicationFactor: 1, wantedPartitions: 3, wantedReplicationFactor: 3 },
      { topic: "more-partitions", partitions: 4, replicationFactor: 3, wantedPartitions: 3, wantedReplicationFactor: 3 },
    ]);
  });
});

const brokers = process.env.KAFKA_BROKERS;
if (!brokers) {
  if (process.env.REQUIRE_KAFKA === "1") throw new Error("REQUIRE_KAFKA=1 but KAFKA_BROKERS is not set for the ensureTopics test");
  console.warn("[service-kit] skipping ensureTopics against a broker: KAFKA_BROKERS is not set");
}

describe.skipIf(!brokers)("ensureTopics on a real broker", () => {
  const log = createLogger("kafka-topics-test", "silent");
  const kafka = createKafka((brokers ?? "").split(","), "kafka-topics-test", log);
  const topic = `hearth.test.topics-${randomUUID()}`;

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.disconnect();
  });

  it("creates a missing topic with the settings' partitions and min.insync.replicas, and leaves an existing one alone with a warning", async () => {
    await ensureTopics(kafka, [topic], { partitions: 2, replicationFactor: 1, minInsyncReplicas: 1 });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0]?.partitions).toHaveLength(2);
      expect(topics[0]?.partitions.every((partition) => partition.replicas.length === 1)).toBe(true);
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ["min.insync.replicas"] }],
      });
      expect(resources[0]?.configEntries.find((entry) => entry.configName === "min.insync.replicas")).toMatchObject({ configValue: "1", isDefault: false });

      const warnings: unknown[] = [];
      await ensureTopics(
        kafka,
        [topic],
        { partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 },
        { warn: (facts: unknown) => void warnings.push(facts) },
      );
      expect(warnings).toEqual([{ topic, partitions: 2, replicationFactor: 1, wantedPartitions: 3, wantedReplicationFactor: 1 }]);
      expect((await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]?.partitions).toHaveLength(2);
    } finally {
      await admin.disconnect();
    }
  });
});
