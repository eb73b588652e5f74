import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AppName } from "./settings";

/** Where the latest `npm start` of a data directory listens (its internal ports may have been chosen free). */
export type RunPorts = Record<AppName, number>;

const runFileOf = (dataDir: string) => path.join(dataDir, "run.json");

export async function writeRunFile(dataDir: string, ports: RunPorts): Promise<void> {
  const file = runFileOf(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ ports }, null, 2)}\n`);
  await rename(temporary, file);
}

/** The ports the latest start wrote, or null when it never ran here (or the file is not ours). */
export async function readRunFile(dataDir: string): Promise<Partial<RunPorts> | null> {
  let text: string;
  try {
    text = await readFile(runFileOf(dataDir), "utf8");
  } catch {
    return null;
  }
  try {
    const ports = (JSON.parse(text) as { ports?: Record<string, unknown> }).ports ?? {};
    return Object.fromEntries(Object.entries(ports).filter(([, port]) => Number.isInteger(port))) as Partial<RunPorts>;
  } catch {
    return null;
  }
}
