import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const run = promisify(execFile);

export { freePort } from "@hearth/test-kit";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs` saying what did not happen. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${typeof what === "string" ? what : what()} did not happen within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

export { pidOfStartedApp as pidOf } from "@hearth/test-kit";

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
