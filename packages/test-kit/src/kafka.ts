import { KafkaContainer } from "@testcontainers/kafka";
import { getContainerRuntimeClient } from "testcontainers";

export type TestKafka =
  { brokers: string; source: "KAFKA_BROKERS" | "testcontainers"; stop: () => Promise<void> } | { brokers: null; reason: string; stop: () => Promise<void> };

const KAFKA_IMAGE = "confluentinc/cp-kafka:7.9.0";

async function dockerAvailable(): Promise<boolean> {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/**
 * The Kafka of a test run: KAFKA_BROKERS if set, else a testcontainers broker when a Docker
 * engine answers, else none (the Kafka tests then skip, or fail under REQUIRE_KAFKA=1).
 */
export async function startTestKafka(env: Record<string, string | undefined> = process.env): Promise<TestKafka> {
  if (env.KAFKA_BROKERS) return { brokers: env.KAFKA_BROKERS, source: "KAFKA_BROKERS", stop: async () => {} };
  if (!(await dockerAvailable())) {
    return { brokers: null, reason: "KAFKA_BROKERS is not set and no Docker engine is reachable for testcontainers", stop: async () => {} };
  }
  const container = await new KafkaContainer(KAFKA_IMAGE).withKraft().withExposedPorts(9093).start();
  return { brokers: `${container.getHost()}:${container.getMappedPort(9093)}`, source: "testcontainers", stop: async () => void (await container.stop()) };
}
