import { execFile } from "node:child_process";
import { readdir, readFile, readlink } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const run = promisify(execFile);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs` saying what did not happen. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${typeof what === "string" ? what : what()} did not happen within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** The pid of an app `npm start` runs on `dataDir`: the process in apps/<app> with that data directory in its environment. */
export async function pidOf(app: string, dataDir: string): Promise<number> {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readlink(`/proc/${entry}/cwd`)) !== path.join(ROOT, "apps", app)) continue;
      if ((await readFile(`/proc/${entry}/environ`, "utf8")).split("\0").includes(`HEARTH_DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  throw new Error(`no ${app} process of the npm start on ${dataDir}`);
}

/** GET `url` answers 200 (a service's /ready). */
export async function answersOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** When `condition` first held (Date.now()), polling every 250 ms, or null when it did not within `timeoutMs`. */
export async function whenTrue(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return Date.now();
    if (Date.now() > deadline) return null;
    await sleep(250);
  }
}
