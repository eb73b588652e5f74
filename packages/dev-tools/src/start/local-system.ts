import { loadSecrets } from "./secrets";
import { internalUrl } from "./services";
import { readRunFile } from "./run-file";
import { DEFAULT_INTERNAL_PORTS, readSettings } from "./settings";

/** Where the system `npm start` runs on this machine listens, and the secret its services share. */
export interface LocalSystem {
  gatewayUrl: string;
  financeUrl: string;
  internalAuthSecret: string;
  dataDir: string;
}

/**
 * Read from the same environment and data directory `npm start` uses (run from the same checkout);
 * FINANCE_URL and INTERNAL_AUTH_SECRET in the environment name another system's finance service.
 */
export async function localSystem(env: NodeJS.ProcessEnv = process.env): Promise<LocalSystem> {
  const settings = readSettings(env);
  const secrets = await loadSecrets(settings.dataDir, env);
  const ran = await readRunFile(settings.dataDir);
  return {
    gatewayUrl: internalUrl(env.PORT ? settings.gatewayPort : (ran?.gateway ?? settings.gatewayPort)),
    financeUrl: env.FINANCE_URL || internalUrl(ran?.finance ?? DEFAULT_INTERNAL_PORTS.finance),
    internalAuthSecret: secrets.INTERNAL_AUTH_SECRET,
    dataDir: settings.dataDir,
  };
}
