// `npm start`: the whole of Hearth on one machine with nothing installed but Node.js.
// Embedded PostgreSQL (unless every <APP>_DATABASE_URL is set), generated secrets kept in the
// data directory, the four internal services, then the gateway; Ctrl-C stops them in reverse.
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureDatabase, redactUrl } from "@hearth/service-kit/migrations";
import { publicUrl, printBanner } from "./banner";
import type { Child } from "./child";
import { prepareDataDir } from "./data-dir";
import { embeddedPostgresUrl, startEmbeddedPostgres, type RunningPostgres } from "../embedded-postgres/server";
import { StartError, describeError, say, warn } from "./log";
import { createRestartPolicy } from "./restart-policy";
import { assertPortFree, choosePort } from "./ports";
import { writeRunFile } from "./run-file";
import { loadSecrets } from "./secrets";
import { internalUrl, localUrl, startApp, waitUntilReady } from "./services";
import { APP_NAMES, INTERNAL_SERVICES, databaseName, readSettings, type AppName, type InternalService, type Settings } from "./settings";

const STOP_TIMEOUT_MS = 15_000;
/** Every app: the first start creates the cluster while the apps already run, so give them time. */
const APP_ENV = { DATABASE_WAIT_SECONDS: "180" }; // the services give themselves 10s to drain before exiting

const children: Child[] = [];
let postgresStarting: Promise<RunningPostgres> | undefined;
let postgresRunning: RunningPostgres | undefined;
let stopping: Promise<void> | undefined;
/** Set once every app answered /ready: from then on a crashed app is restarted (see launch). */
let systemUp = false;

/** Gateway first (no new requests), then the services, then the database they all use. */
function shutdown(code: number, reason?: string): Promise<void> {
  stopping ??= (async () => {
    if (reason) warn(reason);
    try {
      // Once PostgreSQL is up (or failed), nothing else is starting: the children started before it.
      const postgres = await postgresStarting?.catch(() => undefined);
      if (children.length > 0 || postgres) say("Stopping (Ctrl-C again to force)");
      const gateway = children.find((child) => child.name === "gateway");
      await gateway?.stop(STOP_TIMEOUT_MS);
      await Promise.all(children.filter((child) => child !== gateway).map((child) => child.stop(STOP_TIMEOUT_MS)));
      if (postgres) {
        say("Stopping PostgreSQL");
        await postgres.stop();
      }
      if (children.length > 0 || postgres) say("Stopped");
    } catch (error) {
      warn(`Error while stopping: ${describeError(error)}`);
      code ||= 1;
    }
    process.exit(code);
  })();
  return stopping;
}

function forceExit(): never {
  for (const child of children) child.kill();
  postgresRunning?.kill();
  process.exit(130);
}

function assertNotStopping(): void {
  if (stopping) throw new StartError("Stopped while starting.");
}

/**
 * Starts an app and keeps it running: once the whole system is up, an app that exits is started
 * again after a backoff (restart-policy.ts), its exit cause logged; after repeated crashes in a
 * short window everything stops. Meanwhile the gateway answers its routes 503. While starting,
 * an exit stops everything at once: it is a configuration error far more often than bad luck.
 */
function launch(app: AppName, port: number, env: Record<string, string>, readyUrl: string): Child {
  assertNotStopping();
  const policy = createRestartPolicy();
  let current = startApp({ app, port, env });
  const watch = (child: Child) =>
    void child.exited.then(async (how) => {
      if (stopping) return;
      if (!systemUp) return void shutdown(1, `${app} exited unexpectedly (${how}); stopping everything.`);
      const decision = policy.afterCrash();
      if (!decision.restart) {
        return void shutdown(1, `${app} exited unexpectedly (${how}), its ${decision.crashesInWindow}th crash in a short time; stopping everything.`);
      }
      warn(`${app} exited unexpectedly (${how}); starting it again in ${decision.delayMs / 1000} s (crash ${decision.crashesInWindow} in a short time)`);
      await sleep(decision.delayMs);
      if (stopping) return;
      current = startApp({ app, port, env });
      watch(current);
      waitUntilReady(current, readyUrl).then(
        () => say(`${app} is running again`),
        () => {}, // its exit is handled by watch
      );
    });
  watch(current);
  const supervised: Child = {
    name: app,
    get exited() {
      return current.exited;
    },
    stop: (timeoutMs) => current.stop(timeoutMs),
    kill: () => current.kill(),
  };
  children.push(supervised);
  return supervised;
}

/** Two of ours configured on one port would pass the free-port check and then fight over it. */
function assertDistinctPorts(ports: Record<string, number>): void {
  const owners = new Map<number, string>();
  for (const [what, port] of Object.entries(ports)) {
    const other = owners.get(port);
    if (other) throw new StartError(`${other} and ${what} would both use port ${port}; set one of them to another port.`);
    owners.set(port, what);
  }
}

/** The ports of this start: configured ones as given (they must be free), the others the defaults or, when taken, free ones. */
async function choosePorts(settings: Settings, embeddedPostgres: boolean) {
  const configured: Record<string, number> = { gateway: settings.gatewayPort };
  if (embeddedPostgres && settings.pgPort.configured) configured["embedded PostgreSQL"] = settings.pgPort.port;
  for (const service of INTERNAL_SERVICES) if (settings.internalPorts[service].configured) configured[service] = settings.internalPorts[service].port;
  assertDistinctPorts(configured);
  await assertPortFree(settings.gatewayPort, settings.gatewayHost, "gateway");
  const taken = new Set(Object.values(configured));
  const pick = async (choice: { port: number; configured: boolean }, what: string) => {
    const port = await choosePort(choice, "127.0.0.1", what, taken);
    taken.add(port);
    return port;
  };
  const pgPort = embeddedPostgres ? await pick(settings.pgPort, "embedded PostgreSQL") : settings.pgPort.port;
  const internal = {} as Record<InternalService, number>;
  for (const service of INTERNAL_SERVICES) internal[service] = await pick(settings.internalPorts[service], service);
  return { pgPort, internal };
}

export interface SupervisorOptions {
  /** Settles when every app's dist/main.js is built: PostgreSQL starts meanwhile. */
  appsBuilt: Promise<unknown>;
}

async function main(options: SupervisorOptions): Promise<void> {
  const settings = readSettings();
  const embeddedApps = APP_NAMES.filter((app) => !settings.externalDatabaseUrls[app]);
  await prepareDataDir(settings.dataDir);
  const secrets = await loadSecrets(settings.dataDir, process.env, warn);
  say(`Data directory: ${settings.dataDir}${settings.dataDirIsDefault ? " (set HEARTH_DATA_DIR to change it)" : ""}`);

  const ports = await choosePorts(settings, embeddedApps.length > 0);
  // Where this start listens, for `npm run seed:demo` and other tools run beside it.
  await writeRunFile(settings.dataDir, { gateway: settings.gatewayPort, ...ports.internal });

  const embedded = { user: "hearth", password: secrets.POSTGRES_PASSWORD, port: ports.pgPort };
  const databaseUrls = {} as Record<AppName, string>;
  for (const app of APP_NAMES) databaseUrls[app] = settings.externalDatabaseUrls[app] ?? embeddedPostgresUrl(embedded, databaseName(app));

  // PostgreSQL starts (its first start creates the cluster) while the apps are still being built.
  const logFile = path.join(settings.dataDir, "postgres.log");
  if (embeddedApps.length > 0) {
    postgresStarting = startEmbeddedPostgres({
      clusterDir: path.join(settings.dataDir, "postgres"),
      logFile,
      port: ports.pgPort,
      user: embedded.user,
      password: embedded.password,
    });
    // Known to forceExit as soon as it runs (a second Ctrl-C must not leave it behind), and
    // watched from then on; awaited below, so a failure meanwhile is not an unhandled rejection.
    postgresStarting.then(
      (running) => {
        postgresRunning = running;
        void running.exited.then((how) => {
          if (!stopping) void shutdown(1, `PostgreSQL exited unexpectedly (${how}); see ${logFile}. Stopping everything.`);
        });
      },
      () => {},
    );
  }
  await options.appsBuilt;
  assertNotStopping();

  // Every app starts at once, without waiting for PostgreSQL: loading its code overlaps the
  // database's start (each waits for its database, then applies its own migrations). Each one's /ready is
  // awaited together (the gateway's is only its own), so nothing waits in a row.
  const internal = INTERNAL_SERVICES.map((service) => {
    const port = ports.internal[service];
    const readyUrl = `${internalUrl(port)}/ready`;
    const child = launch(
      service,
      port,
      {
        ...APP_ENV,
        ...(service === "finance" ? { LEDGER_IMPORT: "on" } : {}), // npm run seed:demo writes history through it
        // The assistant's tools read through finance; its answers ask the gateway whether the asker still holds.
        ...(service === "chat" ? { FINANCE_URL: internalUrl(ports.internal.finance), GATEWAY_URL: localUrl(settings.gatewayHost, settings.gatewayPort) } : {}),
        DATABASE_URL: databaseUrls[service],
        INTERNAL_AUTH_SECRET: secrets.INTERNAL_AUTH_SECRET,
        HOST: "127.0.0.1",
      },
      readyUrl,
    );
    return waitUntilReady(child, readyUrl);
  });
  const gatewayReadyUrl = `${localUrl(settings.gatewayHost, settings.gatewayPort)}/ready`;
  const gateway = launch(
    "gateway",
    settings.gatewayPort,
    {
      ...APP_ENV,
      DATABASE_URL: databaseUrls.gateway,
      INTERNAL_AUTH_SECRET: secrets.INTERNAL_AUTH_SECRET,
      JWT_SECRET: secrets.JWT_SECRET,
      SECRETS_ENCRYPTION_KEY: secrets.SECRETS_ENCRYPTION_KEY,
      HOST: settings.gatewayHost,
      FINANCE_URL: internalUrl(ports.internal.finance),
      CHAT_URL: internalUrl(ports.internal.chat),
      NOTIFICATIONS_URL: internalUrl(ports.internal.notifications),
      AUDIT_URL: internalUrl(ports.internal.audit),
    },
    gatewayReadyUrl,
  );
  // Awaited below; until then a child that dies (say, PostgreSQL failed and shutdown began) must
  // not become an unhandled rejection.
  for (const wait of internal) wait.catch(() => {});
  let postgres: RunningPostgres | undefined;
  if (postgresStarting) {
    postgres = await postgresStarting;
    say(`PostgreSQL is listening on 127.0.0.1:${ports.pgPort} (log: ${logFile})`);
  }

  assertNotStopping();
  await Promise.all(
    APP_NAMES.map(async (app) => {
      const url = databaseUrls[app];
      try {
        if (await ensureDatabase(url)) say(`Created database ${decodeURIComponent(new URL(url).pathname.slice(1))}`);
      } catch (error) {
        throw new StartError(`Cannot reach or create the ${app} database at ${redactUrl(url)}: ${(error as Error).message}`);
      }
    }),
  );

  // Settle all: a wait rejected after Promise.all gave up would be an unhandled rejection.
  const failed = (await Promise.allSettled(internal)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  await waitUntilReady(gateway, gatewayReadyUrl);
  assertNotStopping();
  systemUp = true;
  printBanner({
    url: publicUrl(settings.gatewayHost, settings.gatewayPort),
    dataDir: settings.dataDir,
    ...(postgres ? { postgres: `on 127.0.0.1:${ports.pgPort}` } : {}),
  });
}

// A closed terminal or pipe must not take the supervisor down with the children still running.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
let firstSignalAt = 0;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (firstSignalAt) {
      // Wrappers (npm, the tsx CLI when used directly) may relay the terminal's Ctrl-C a few
      // ms after we got it: only a later one is the user's second Ctrl-C.
      if (Date.now() - firstSignalAt < 500) return;
      warn(`${signal} again: killing everything`);
      forceExit();
    }
    firstSignalAt = Date.now();
    say(`${signal} received`);
    void shutdown(0);
  });
}
process.on("uncaughtException", (error) => {
  if (stopping) forceExit();
  void shutdown(1, `Unexpected error: ${describeError(error)}`);
});

/** Runs the whole system until a signal stops it (bin/hearth-start.mjs calls it). */
export function runSupervisor(options: SupervisorOptions): void {
  main(options).catch((error: unknown) => shutdown(1, describeError(error)));
}
