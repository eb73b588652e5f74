import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { LOAD_FRIENDLY_ENV } from "./hearth-start";
import { ROOT, answersOk, until } from "./processes";
import type { Stack } from "./stack";

export interface GatewayInstance {
  url: string;
  /** SIGTERM (the gateway drains its requests), resolved once the process exited. */
  stop: () => Promise<void>;
}

/**
 * One more gateway process beside npm start's (as a second instance behind a load balancer): the
 * compiled apps/gateway/dist/main.js npm start built, on the same database, secrets, services and broker.
 */
export async function startGatewayInstance(stack: Stack, port: number): Promise<GatewayInstance> {
  const secrets = await stack.secrets();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...LOAD_FRIENDLY_ENV,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: stack.cluster.url("hearth_gateway"),
    INTERNAL_AUTH_SECRET: secrets.INTERNAL_AUTH_SECRET,
    JWT_SECRET: secrets.JWT_SECRET,
    SECRETS_ENCRYPTION_KEY: secrets.SECRETS_ENCRYPTION_KEY,
    FINANCE_URL: await stack.serviceUrl("finance"),
    CHAT_URL: await stack.serviceUrl("chat"),
    NOTIFICATIONS_URL: await stack.serviceUrl("notifications"),
    AUDIT_URL: await stack.serviceUrl("audit"),
    KAFKA_BROKERS: stack.broker.brokers,
  };
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/main.js"], {
    cwd: path.join(ROOT, "apps", "gateway"),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(path.join(stack.base, `gateway-${port}.log`), { flags: "a" });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await until(async () => gone || (await answersOk(`${url}/ready`)), 60_000, `the gateway on port ${port} getting ready`);
  if (gone) throw new Error(`the gateway on port ${port} exited while starting (see ${stack.base}/gateway-${port}.log)`);
  return {
    url,
    stop: async () => {
      if (!gone) child.kill("SIGTERM");
      await exited;
    },
  };
}
