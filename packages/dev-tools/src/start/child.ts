import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { styleText } from "node:util";

export interface Child {
  name: string;
  /** Resolves with how the process exited, once its output is flushed. */
  exited: Promise<string>;
  /** SIGTERM, then SIGKILL when it has not exited after `timeoutMs`. */
  stop: (timeoutMs: number) => Promise<void>;
  kill: () => void;
}

const COLORS = ["cyan", "magenta", "yellow", "green", "blue"] as const;
let nextColor = 0;

function prefixLines(input: Readable, output: Writable, prefix: string): void {
  createInterface({ input, crlfDelay: Infinity }).on("line", (line) => output.write(`${prefix}${line}\n`));
}

/**
 * Spawns a child in its own process group, its output prefixed with its name. Its own group
 * keeps the terminal's Ctrl-C from reaching it, so shutdown runs in our order, and a kill
 * reaches anything it spawned. Its stdin stays open (unused) for exit-with-parent.ts.
 */
export function spawnChild(name: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Child {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  const color = COLORS[nextColor++ % COLORS.length] ?? "cyan";
  prefixLines(child.stdout, process.stdout, `${styleText(color, `[${name}]`, { stream: process.stdout })} `);
  prefixLines(child.stderr, process.stderr, `${styleText(color, `[${name}]`, { stream: process.stderr })} `);

  let done = false;
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) => resolve(`failed to start: ${error.message}`));
    child.once("close", (code, signal) => resolve(signal ? `killed by ${signal}` : `exit code ${code}`));
  }).finally(() => {
    done = true;
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    if (done || child.pid === undefined) return;
    try {
      if (process.platform === "win32") child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    name,
    exited,
    kill: () => signalGroup("SIGKILL"),
    stop: async (timeoutMs) => {
      signalGroup("SIGTERM");
      const stopped = await Promise.race([exited.then(() => true), sleep(timeoutMs, false)]);
      if (stopped) return;
      signalGroup("SIGKILL");
      await exited;
    },
  };
}
