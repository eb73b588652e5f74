import { chmod, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startHearth, type RunningHearth } from "./hearth-start";
import { kafkaBrokerAt, type KafkaBroker } from "@hearth/test-kit";
import { createPostgresCluster, type PostgresCluster } from "./postgres-cluster";
import { freePort } from "./processes";
import type { StackInfo } from "./stack";

/** CI has Java and Maven (kafka.sh fetches the jars): a broker that cannot start there is a failure, not a skip. */
const kafkaRequired = process.env.CI === "true" || process.env.REQUIRE_KAFKA === "1";

/**
 * One stack for the whole run: a PostgreSQL cluster and a Kafka broker of our own (each scenario
 * stops or restarts them), and `npm start` on a fresh data directory using both.
 */
export default async function setup(project: TestProject) {
  const base = await mkdtemp("/tmp/hearth-reliability-");
  await chmod(base, 0o711); // as root, PostgreSQL runs as `postgres` and must reach its folder in here
  let broker: KafkaBroker | undefined;
  let cluster: PostgresCluster | undefined;
  let hearth: RunningHearth | undefined;
  const teardown = async () => {
    await hearth?.stop().catch((error: unknown) => console.error("[reliability] stopping npm start:", error));
    await broker?.stop().catch((error: unknown) => console.error("[reliability] stopping Kafka:", error));
    await cluster?.stop().catch((error: unknown) => console.error("[reliability] stopping PostgreSQL:", error));
    // RELIABILITY_KEEP=1 keeps the logs (npm-start.log, the broker's and PostgreSQL's) for a post-mortem.
    if (process.env.RELIABILITY_KEEP === "1") console.warn(`[reliability] kept ${base}`);
    else await rm(base, { recursive: true, force: true });
  };

  try {
    const kafka = { dir: path.join(base, "kafka"), port: await freePort(), controllerPort: await freePort() };
    const candidate = kafkaBrokerAt(kafka.dir, kafka.port, kafka.controllerPort);
    try {
      await candidate.start();
      broker = candidate;
    } catch (error) {
      await candidate.stop().catch(() => {});
      const reason = `Kafka cannot run here (infra/kafka/kafka.sh start failed: ${String((error as { stderr?: string }).stderr ?? error)
        .trim()
        .slice(-500)})`;
      if (kafkaRequired) throw new Error(reason);
      await rm(base, { recursive: true, force: true });
      project.provide("reliabilityStack", { skipped: reason });
      return;
    }

    const postgres = { dir: path.join(base, "postgres"), port: await freePort() };
    cluster = await createPostgresCluster(postgres.dir, postgres.port);
    await cluster.start();
    const dataDir = path.join(base, "data");
    const npmStartLog = path.join(base, "npm-start.log");
    const started = cluster;
    hearth = await startHearth({ dataDir, logFile: npmStartLog, port: await freePort(), databaseUrl: started.url, kafkaBrokers: broker.brokers });
    const info: StackInfo = { base, gatewayUrl: hearth.gatewayUrl, dataDir, npmStartLog, postgres, kafka };
    project.provide("reliabilityStack", info);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
