import type { TestProject } from "vitest/node";
import { startTestKafka } from "./kafka";
import { startTestPostgres } from "./postgres";
import type {} from "./provided-context";

/**
 * Vitest global setup: one PostgreSQL server and one Kafka (or the reason there is none) per
 * test run, handed to every test file through `inject`.
 */
export default async function setup(project: TestProject) {
  const postgres = await startTestPostgres();
  const kafka = project.config.env?.HEARTH_TEST_NEEDS_KAFKA === "0" ? null : await startTestKafka();
  project.provide("hearthPostgresAdminUrl", postgres.adminUrl);
  project.provide("hearthKafkaBrokers", kafka?.brokers ?? null);
  project.provide("hearthKafkaSkipReason", kafka && kafka.brokers === null ? kafka.reason : kafka ? null : "this package does not use Kafka");
  return async () => {
    await kafka?.stop();
    await postgres.stop();
  };
}
