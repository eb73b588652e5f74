import path from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { APP_NODE_FLAGS } from "./app-node-flags";
import { spawnChild, type Child } from "./child";
import { StartError } from "./log";
import { APP_NAMES, databaseUrlKey, type AppName } from "./settings";

// This file runs compiled, from packages/dev-tools/dist/, next to its own compiled preload.
const root = path.resolve(import.meta.dirname, "..", "..", "..");
const COMPILE_CACHE = path.join(root, "node_modules", ".cache", "hearth-node-compile");
const exitWithParent = pathToFileURL(path.join(import.meta.dirname, "exit-with-parent.js")).href;

/** Variables this script sets per child: the user's values for them must not leak into every child. */
const OWNED_KEYS = [
  "DATABASE_URL",
  "PORT",
  "HOST",
  "INTERNAL_AUTH_SECRET",
  "JWT_SECRET",
  "SECRETS_ENCRYPTION_KEY",
  "FINANCE_URL",
  "CHAT_URL",
  "NOTIFICATIONS_URL",
  "AUDIT_URL",
  "GATEWAY_URL",
];

export interface AppLaunch {
  app: AppName;
  port: number;
  env: Record<string, string>;
}

export const internalUrl = (port: number) => `http://127.0.0.1:${port}`;

/** A URL this machine reaches a server by: loopback when it listens on every address. */
export function localUrl(host: string, port: number): string {
  if (host === "0.0.0.0") return internalUrl(port);
  if (host === "::") return `http://[::1]:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Runs the compiled apps/<name>/dist/main.js (see bin/hearth-start.mjs), with the same Node.js as this script. */
export function startApp(launch: AppLaunch): Child {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of OWNED_KEYS) delete env[key];
  for (const app of APP_NAMES) delete env[databaseUrlKey(app)];
  return spawnChild(launch.app, process.execPath, ["--enable-source-maps", ...APP_NODE_FLAGS[launch.app], "--import", exitWithParent, "dist/main.js"], {
    cwd: path.join(root, "apps", launch.app),
    // Node's on-disk code cache (outside the data dir, shared by every start of this checkout):
    // the second and later starts skip most of the JavaScript compilation.
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE, ...env, ...launch.env, PORT: String(launch.port) },
  });
}

/** Polls GET /ready until 200; fails when the child exits first or after `timeoutMs`. */
export async function waitUntilReady(child: Child, url: string, timeoutMs = 180_000): Promise<void> {
  let exitedHow: string | undefined;
  void child.exited.then((how) => (exitedHow = how));
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  for (;;) {
    if (exitedHow !== undefined) throw new StartError(`${child.name} exited before it was ready (${exitedHow}); see its output above.`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new StartError(`${child.name} was not ready after ${timeoutMs / 1000}s (GET ${url}: ${last}).`);
    await sleep(100);
  }
}
