import { describe, inject } from "vitest";
import type {} from "./provided-context";

/** Admin URL of the run's PostgreSQL server (see global-setup). */
export function testPostgresAdminUrl(): string {
  return inject("hearthPostgresAdminUrl");
}

/** The run's Redis: REDIS_URL, else the one running beside PostgreSQL on every machine the tests run on. */
export function testRedisUrl(): string {
  return process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";
}

/** Brokers of the run's Kafka, or null when there is none. */
export function testKafkaBrokers(): string | null {
  return inject("hearthKafkaBrokers");
}

/**
 * `describe` for tests that need a real Kafka broker: skipped with a printed notice when
 * there is none, failed instead when REQUIRE_KAFKA=1 (CI).
 */
export function describeWithKafka(name: string, body: (brokers: string) => void): void {
  const brokers = testKafkaBrokers();
  if (brokers) {
    describe(name, () => body(brokers));
    return;
  }
  const reason = inject("hearthKafkaSkipReason") ?? "no Kafka";
  if (process.env.REQUIRE_KAFKA === "1") {
    throw new Error(`REQUIRE_KAFKA=1 but there is no Kafka for "${name}": ${reason}`);
  }
  console.warn(`[test-kit] skipping "${name}": ${reason} (set KAFKA_BROKERS, e.g. after infra/kafka/kafka.sh start)`);
  describe.skip(name, () => body(""));
}
