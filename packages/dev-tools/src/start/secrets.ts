import { randomBytes } from "node:crypto";
import { chmod, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { StartError } from "./log";

const KEYS = ["INTERNAL_AUTH_SECRET", "JWT_SECRET", "SECRETS_ENCRYPTION_KEY", "POSTGRES_PASSWORD"] as const;
export type Secrets = Record<(typeof KEYS)[number], string>;
/** The secrets a user may supply in the environment instead (e.g. to share them with another deployment). */
const FROM_ENV = ["INTERNAL_AUTH_SECRET", "JWT_SECRET", "SECRETS_ENCRYPTION_KEY"] as const;

async function readStored(file: string): Promise<Partial<Secrets>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StartError(`${file} is not valid JSON; fix or delete it (deleting it also makes the embedded PostgreSQL data unreachable).`);
  }
  const stored: Partial<Secrets> = {};
  for (const key of KEYS) {
    const value = (parsed as Record<string, unknown> | null)?.[key];
    if (typeof value === "string" && value.length >= 32) stored[key] = value;
  }
  return stored;
}

/**
 * The secrets of this installation: generated on first start and kept in `secrets.json`
 * (mode 0600) so that tokens, sessions and the database password survive a restart.
 */
export async function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Secrets> {
  const file = path.join(dataDir, "secrets.json");
  const stored = await readStored(file);
  const secrets = { ...stored } as Secrets;
  let generated = false;
  for (const key of KEYS) {
    if (secrets[key]) continue;
    secrets[key] = randomBytes(32).toString("hex");
    generated = true;
  }
  if (generated) {
    // Write then rename: a crash never leaves a half-written file behind.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await rename(temporary, file);
  } else if (((await stat(file)).mode & 0o077) !== 0) {
    await chmod(file, 0o600);
  }
  for (const key of FROM_ENV) {
    const value = env[key];
    if (value) secrets[key] = value;
  }
  return secrets;
}
