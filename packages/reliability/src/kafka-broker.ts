import path from "node:path";
import { ROOT, run } from "./processes";

const KAFKA_SCRIPT = path.join(ROOT, "infra", "kafka", "kafka.sh");

export interface KafkaBroker {
  brokers: string;
  start: () => Promise<void>;
  /** SIGTERM (a controlled shutdown), SIGKILL after kafka.sh's timeout. */
  stop: () => Promise<void>;
}

/**
 * A broker of our own through infra/kafka/kafka.sh (its data dir and ports from its env
 * variables), so stopping it never touches the shared broker on 9092.
 */
export function kafkaBroker(dataDir: string, port: number, controllerPort: number): KafkaBroker {
  const env = { ...process.env, KAFKA_DATA_DIR: dataDir, KAFKA_PORT: String(port), KAFKA_CONTROLLER_PORT: String(controllerPort) };
  const kafka = async (command: string) => void (await run("bash", [KAFKA_SCRIPT, command], { env, timeout: 300_000 }));
  return { brokers: `127.0.0.1:${port}`, start: () => kafka("start"), stop: () => kafka("stop") };
}
