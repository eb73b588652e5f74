import type { LookupAddress } from "node:dns";
import { createSecretBox, type Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createProviderConnectionHandlers } from "./provider-connection-handlers";
import { createProviderConnectionRepository } from "./provider-connection-repository";
import { DEFAULT_PROVIDER_SYNC, providerSyncJob, type ProviderSyncOptions } from "./provider-sync-job";
import { createProviderSyncQueries, PROVIDER_SYNC_QUEUE } from "./provider-sync-queries";
import { createSimplefinClient, type SimplefinClientOptions } from "./simplefin-client";
import { createCredentialStore } from "./simplefin-credentials";

export interface ProviderConnectionOptions extends ProviderSyncOptions, Omit<SimplefinClientOptions, "resolveHost"> {
  /** Every address of a host name; the system resolver unless set (tests answer their own). */
  resolveHost?: (hostname: string) => Promise<LookupAddress[]>;
}

export const DEFAULT_PROVIDER_CONNECTIONS: ProviderConnectionOptions = {
  ...DEFAULT_PROVIDER_SYNC,
  allowPrivateHosts: false,
  claimTimeoutMs: 15_000,
  fetchTimeoutMs: 60_000,
  maxResponseBytes: 20 * 1024 * 1024,
};

/** The HKDF purpose of the key that seals bridge credentials (finance's only use of its internal auth secret for sealing). */
const CREDENTIALS_KEY_PURPOSE = "finance:provider-credentials";

/**
 * Provider connections wired on the database: their procedures and the job that syncs them
 * (`poke` starts a queued one now). Credentials are sealed under a key derived from the internal auth secret: rotating
 * that secret leaves stored credentials unreadable (their connections then need new ones).
 */
export function createProviderConnectionsModule(
  db: FinanceDb,
  log: Logger,
  internalAuthSecret: string,
  poke: (queue: string) => void,
  overrides: Partial<ProviderConnectionOptions> = {},
) {
  const options = { ...DEFAULT_PROVIDER_CONNECTIONS, ...overrides };
  const credentials = createCredentialStore(createSecretBox(internalAuthSecret, CREDENTIALS_KEY_PURPOSE));
  const bridge = createSimplefinClient(options);
  return {
    handlers: createProviderConnectionHandlers({
      connections: createProviderConnectionRepository(db),
      credentials,
      checkDestination: (url) => bridge.checkDestination(url),
      queued: () => poke(PROVIDER_SYNC_QUEUE),
    }),
    job: providerSyncJob({ db, queries: createProviderSyncQueries(db), bridge, credentials, log, options }),
  };
}
