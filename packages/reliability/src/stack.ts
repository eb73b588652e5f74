// What the global setup hands every scenario (through vitest's provide/inject): plain data, from
// which each scenario rebuilds the controls it needs (the broker, the cluster, the databases).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, inject, it } from "vitest";
import { kafkaBrokerAt, type KafkaBroker } from "@hearth/test-kit";
import { postgresClusterAt, type PostgresCluster } from "./postgres-cluster";

export interface StackInfo {
  /** The private base directory: npm start's data dir, the cluster and the broker live under it. */
  base: string;
  gatewayUrl: string;
  dataDir: string;
  npmStartLog: string;
  postgres: { dir: string; port: number };
  kafka: { dir: string; port: number; controllerPort: number };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The running stack, or why there is none (Kafka cannot run on this machine). */
    reliabilityStack: StackInfo | { skipped: string };
  }
}

export interface Stack extends StackInfo {
  broker: KafkaBroker;
  cluster: PostgresCluster;
  /** npm start's internal URL of a service (its ports are chosen free, written to run.json). */
  serviceUrl: (service: "finance" | "chat" | "notifications" | "audit") => Promise<string>;
  /** The secrets npm start generated (JWT_SECRET, INTERNAL_AUTH_SECRET...), for a gateway of our own. */
  secrets: () => Promise<Record<string, string>>;
}

export function stackOrSkipReason(): Stack | string {
  const info = inject("reliabilityStack");
  if ("skipped" in info) return info.skipped;
  const readJson = async (file: string) => JSON.parse(await readFile(path.join(info.dataDir, file), "utf8")) as Record<string, unknown>;
  return {
    ...info,
    broker: kafkaBrokerAt(info.kafka.dir, info.kafka.port, info.kafka.controllerPort),
    cluster: postgresClusterAt(info.postgres.dir, info.postgres.port),
    serviceUrl: async (service) => `http://127.0.0.1:${((await readJson("run.json")).ports as Record<string, number>)[service]}`,
    secrets: async () => (await readJson("secrets.json")) as Record<string, string>,
  };
}

/**
 * `describe` over the running stack; skipped with the printed reason only when Kafka cannot run
 * on this machine (never in CI: the global setup fails there instead).
 */
export function describeWithStack(name: string, body: (stack: Stack) => void): void {
  const stack = stackOrSkipReason();
  if (typeof stack !== "string") return void describe(name, () => body(stack));
  console.warn(`[reliability] skipping "${name}": ${stack}`);
  describe.skip(name, () => void it(`needs a Kafka broker: ${stack}`, () => {}));
}
