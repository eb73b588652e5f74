import { randomBytes } from "node:crypto";
import { chmod, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { StartError } from "./log";

const KEYS = ["INTERNAL_AUTH_SECRET", "JWT_SECRET", "SECRETS_ENCRYPTION_KEY", "POSTGRES_PASSWORD"] as const;
export type Secrets = Record<(typeof KEYS)[number], string>;
/** The secrets a user may supply in the environment instead (e.g. to share them with another deployment). */
const FROM_ENV = ["INTERNAL_AUTH_SECRET", "JWT_SECRET", "SECRETS_ENCRYPTION_KEY"] as const;
/**
 * Secrets whose replacement loses data: a new SECRETS_ENCRYPTION_KEY cannot open the TOTP seeds and SSO
 * client secrets sealed with the old one, a new POSTGRES_PASSWORD cannot open the embedded database.
 * Never generated once the installation exists. (A new JWT_SECRET or INTERNAL_AUTH_SECRET only signs
 * everyone out: those are generated again, with a warning.)
 */
const IRREPLACEABLE: readonly (typeof KEYS)[number][] = ["SECRETS_ENCRYPTION_KEY", "POSTGRES_PASSWORD"];

async function readStored(file: string): Promise<Partial<Secrets> | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
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
export async function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env, onWarning: (message: string) => void = () => {}): Promise<Secrets> {
  const file = path.join(dataDir, "secrets.json");
  const stored = await readStored(file);
  const installed = stored !== null || (await exists(path.join(dataDir, "postgres", "PG_VERSION")));
  const secrets = { ...stored } as Secrets;
  let generated = false;
  for (const key of KEYS) {
    if (secrets[key]) continue;
    const fromEnv = (FROM_ENV as readonly string[]).includes(key) && Boolean(env[key]);
    if (installed && !fromEnv && IRREPLACEABLE.includes(key)) throw new StartError(missingSecretMessage(file, key, stored === null));
    // One given in the environment is the one kept: a later start without it must find the same one.
    if (fromEnv) secrets[key] = env[key] as string;
    else {
      if (installed) onWarning(`${key} was missing from ${file}; a new one was generated (everyone has to sign in again).`);
      secrets[key] = randomBytes(32).toString("hex");
    }
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
    if (!value || value === secrets[key]) continue;
    if (key === "SECRETS_ENCRYPTION_KEY")
      onWarning(`SECRETS_ENCRYPTION_KEY from the environment differs from the one in ${file}: what the stored key sealed cannot be opened with it.`);
    secrets[key] = value;
  }
  return secrets;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function missingSecretMessage(file: string, key: string, fileMissing: boolean): string {
  const what = fileMissing ? `${file} is missing, but this data directory already holds a database` : `${file} has no valid ${key} (32 characters or more)`;
  const loses =
    key === "POSTGRES_PASSWORD"
      ? "a new password cannot open the embedded PostgreSQL database"
      : "a new key cannot open the TOTP seeds and SSO client secrets sealed with the old one";
  return `${what}. Refusing to generate a new ${key}: ${loses}. Restore ${file} from a backup${
    key === "SECRETS_ENCRYPTION_KEY" ? ", or set SECRETS_ENCRYPTION_KEY in the environment to the key this installation used" : ""
  }; or, to start over, use an empty data directory (HEARTH_DATA_DIR).`;
}
