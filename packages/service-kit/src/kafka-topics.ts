import { z } from "zod";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const count = (fallback: number, max: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(max).default(fallback));

/**
 * How the services create the topics they use when those are missing (an existing topic is
 * left as it is). The defaults suit one broker; a three-broker cluster takes replication 3 with
 * `min.insync.replicas` 2, so an acks=all write survives one broker down and is never on one disk only.
 */
export const KafkaTopicEnvSchema = z.object({
  /** Partitions of each topic (events of one key, a family, stay in order within one). */
  KAFKA_TOPIC_PARTITIONS: count(3, 10_000),
  /** Copies of each partition, on as many brokers; at most the number of brokers. */
  KAFKA_TOPIC_REPLICATION_FACTOR: count(1, 32_767),
  /** Copies an acks=all write needs before it counts (`min.insync.replicas`); at most the replication factor. */
  KAFKA_TOPIC_MIN_INSYNC_REPLICAS: count(1, 32_767),
});
export type KafkaTopicEnv = z.output<typeof KafkaTopicEnvSchema>;

/** What ensureTopics creates a missing topic with. */
export interface KafkaTopicSettings {
  partitions: number;
  replicationFactor: number;
  minInsyncReplicas: number;
}

export const DEFAULT_KAFKA_TOPIC_SETTINGS: KafkaTopicSettings = { partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 };

export function kafkaTopicSettingsOf(env: KafkaTopicEnv): KafkaTopicSettings {
  return {
    partitions: env.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: env.KAFKA_TOPIC_REPLICATION_FACTOR,
    minInsyncReplicas: env.KAFKA_TOPIC_MIN_INSYNC_REPLICAS,
  };
}

/** A min ISR above the replication factor refuses every acks=all write: refused at boot, named by variable. */
export function kafkaTopicProblems(env: Partial<KafkaTopicEnv>): string[] {
  const { KAFKA_TOPIC_REPLICATION_FACTOR: replicas, KAFKA_TOPIC_MIN_INSYNC_REPLICAS: minInsync } = env;
  if (typeof replicas !== "number" || typeof minInsync !== "number" || minInsync <= replicas) return [];
  return [
    `KAFKA_TOPIC_MIN_INSYNC_REPLICAS (${minInsync}) must not exceed KAFKA_TOPIC_REPLICATION_FACTOR (${replicas}): ` +
      "a topic with fewer copies than that refuses every write made with acks=all",
  ];
}
