import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const KAFKA_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../infra/kafka/kafka.sh");

export interface KafkaBrokerControl {
  stop: () => Promise<void>;
  start: () => Promise<void>;
}

/**
 * Stop and start for the broker of a test run, when it is the one infra/kafka/kafka.sh runs
 * (CI and hosts without Docker), so outage tests use a real broker outage. Null otherwise.
 */
export async function kafkaBrokerControl(brokers: string): Promise<KafkaBrokerControl | null> {
  const port = process.env.KAFKA_PORT ?? "9092";
  if (!existsSync(KAFKA_SCRIPT) || brokers.trim() !== `127.0.0.1:${port}`) return null;
  try {
    await run("bash", [KAFKA_SCRIPT, "status"]);
  } catch {
    return null;
  }
  return {
    stop: async () => void (await run("bash", [KAFKA_SCRIPT, "stop"])),
    start: async () => void (await run("bash", [KAFKA_SCRIPT, "start"], { timeout: 120_000 })),
  };
}
