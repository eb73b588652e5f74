import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "./processes";

const run = promisify(execFile);
const KAFKA_SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../infra/kafka/kafka.sh");

/** A broker run by infra/kafka/kafka.sh on ports and in a folder of its own. */
export interface KafkaBroker {
  brokers: string;
  start: () => Promise<void>;
  /** SIGTERM (a controlled shutdown), SIGKILL after kafka.sh's timeout. */
  stop: () => Promise<void>;
}

/**
 * The broker kafka.sh runs in `dataDir` on `port` (its controller on `controllerPort`): stopping
 * it never touches the shared broker on 9092 that the other test files use.
 */
export function kafkaBrokerAt(dataDir: string, port: number, controllerPort: number): KafkaBroker {
  const env = { ...process.env, KAFKA_DATA_DIR: dataDir, KAFKA_PORT: String(port), KAFKA_CONTROLLER_PORT: String(controllerPort) };
  const kafka = async (command: string) => void (await run("bash", [KAFKA_SCRIPT, command], { env, timeout: 300_000 }));
  return { brokers: `127.0.0.1:${port}`, start: () => kafka("start"), stop: () => kafka("stop") };
}

export interface PrivateKafkaBroker extends KafkaBroker {
  /** Stops the broker and deletes its folder. */
  remove: () => Promise<void>;
}

/**
 * A broker of the calling test file's own, started: for tests that stop and start their broker,
 * which can then run beside the files that share the run's broker. Fails (with kafka.sh's
 * output) where kafka.sh cannot run a broker, e.g. without Java.
 */
export async function startPrivateKafkaBroker(): Promise<PrivateKafkaBroker> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "hearth-test-kafka-"));
  const broker = kafkaBrokerAt(dataDir, await freePort(), await freePort());
  const remove = async () => {
    await broker.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await broker.start();
  } catch (error) {
    await remove();
    const output = String((error as { stdout?: string }).stdout ?? "") + String((error as { stderr?: string }).stderr ?? "");
    throw new Error(`infra/kafka/kafka.sh could not start a broker of the test's own: ${output.trim().slice(-800) || String(error)}`);
  }
  return { ...broker, remove };
}
