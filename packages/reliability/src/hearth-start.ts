import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { ROOT, until } from "./processes";

export interface RunningHearth {
  gatewayUrl: string;
  /** Everything npm start printed, for failures and for the supervisor's restart messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** The variables every Hearth app of the suite gets: no rate limit gets in the way of the load. */
export const LOAD_FRIENDLY_ENV = {
  LOG_LEVEL: "warn",
  RATE_LIMIT_REQUESTS: "100000000",
  SESSION_RATE_LIMIT_REQUESTS: "100000000",
  FAMILY_RATE_LIMIT_REQUESTS: "100000000",
  SIGNUP_RATE_LIMIT_REQUESTS: "100000",
};

/**
 * `npm start` as a household runs it, with its databases on our cluster (<APP>_DATABASE_URL, so
 * the supervisor starts no embedded PostgreSQL) and its events through our broker (KAFKA_BROKERS).
 */
export async function startHearth(options: {
  dataDir: string;
  logFile: string;
  port: number;
  databaseUrl: (app: string) => string;
  kafkaBrokers: string;
}): Promise<RunningHearth> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...LOAD_FRIENDLY_ENV,
    HEARTH_DATA_DIR: options.dataDir,
    PORT: String(options.port),
    KAFKA_BROKERS: options.kafkaBrokers,
  };
  for (const app of ["gateway", "finance", "chat", "notifications", "audit"]) env[`${app.toUpperCase()}_DATABASE_URL`] = options.databaseUrl(`hearth_${app}`);
  const supervisor: ChildProcess = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  // Also kept in a file: the scenarios (other processes) read the supervisor's restart messages there.
  const log = createWriteStream(options.logFile);
  let output = "";
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  supervisor.stdout?.on("data", keep);
  supervisor.stderr?.on("data", keep);
  const stop = async () => {
    if (!supervisor.pid || supervisor.exitCode !== null || supervisor.signalCode !== null) return;
    const exited = new Promise((resolve) => supervisor.once("exit", resolve));
    process.kill(-supervisor.pid, "SIGINT");
    await exited;
    log.end();
  };
  try {
    await until(() => output.includes("Hearth is running at") || supervisor.exitCode !== null, 240_000, "npm start getting ready");
    if (supervisor.exitCode !== null) throw new Error(`npm start exited (${supervisor.exitCode})`);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; npm start said:\n${output.slice(-4000)}`);
  }
  return { gatewayUrl: `http://127.0.0.1:${options.port}`, output: () => output, stop };
}
