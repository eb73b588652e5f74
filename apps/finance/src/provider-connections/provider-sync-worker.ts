import type { Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createPollingLoop, type PollingLoop } from "@hearth/service-kit";
import { ProviderSyncLeaseLost, writeBridgeAnswer } from "./provider-ledger-queries";
import { ProviderSyncFailure } from "./provider-sync-failure";
import type { ClaimedProviderSync, ProviderSyncQueries } from "./provider-sync-queries";
import type { SimplefinClient } from "./simplefin-client";
import { bridgeAccessOf, type CredentialStore, type SimplefinCredentials } from "./simplefin-credentials";
import { readBridgeAnswer } from "./simplefin-payload";

export interface ProviderSyncWorkerOptions {
  pollMs: number;
  /** How long a run is held: longer than its claim, fetch and write together (see the client's timeouts). */
  leaseMs: number;
  /** A connection in good standing is synced again this long after its latest sync (Sure: daily); 0 never. */
  autoSyncMs: number;
  /** How far back the first sync asks for transactions. */
  firstSyncDays: number;
  /** Later syncs ask again from this long before the previous one started (late postings); what is there already is skipped. */
  overlapDays: number;
}

export const DEFAULT_PROVIDER_SYNC_WORKER: ProviderSyncWorkerOptions = {
  pollMs: 30_000,
  leaseMs: 10 * 60_000,
  autoSyncMs: 24 * 60 * 60_000,
  firstSyncDays: 90,
  overlapDays: 7,
};

const DAY_MS = 24 * 60 * 60_000;
/** Due connections queued per pass. */
const DUE_BATCH = 50;

export interface ProviderSyncWorkerDeps {
  db: FinanceDb;
  queries: ProviderSyncQueries;
  bridge: SimplefinClient;
  credentials: CredentialStore;
  log: Logger;
  options: ProviderSyncWorkerOptions;
}

/**
 * Runs queued provider syncs one at a time: opens the connection's sealed credentials, claims a
 * setup token the first time (keeping the access URL at once), fetches the bridge's accounts and
 * writes them (provider-ledger-queries.ts). A failure is stored as its stable category; nothing
 * the bridge said and no credential is logged. Runs whose worker died turn stale; due
 * connections are queued again (daily by default). Stopping cuts a request to the bridge short
 * and puts its run back in the queue, so a slow bridge does not hold up a shutdown.
 */
export function createProviderSyncWorker({ db, queries, bridge, credentials, log, options }: ProviderSyncWorkerDeps) {
  /** Aborted by stop(); a new one at every start (a stopped service may be started again). */
  let stopping = new AbortController();

  async function opened(claim: ClaimedProviderSync): Promise<SimplefinCredentials> {
    let held: SimplefinCredentials;
    try {
      held = credentials.open(claim.sealedCredentials);
    } catch {
      throw new ProviderSyncFailure("credentials_unreadable");
    }
    if (held.kind === "access_url") return held;
    const claimed: SimplefinCredentials = { kind: "access_url", url: await bridge.claim(held.url, stopping.signal) };
    await queries.storeClaimedCredentials(claim.connectionId, credentials.seal(claimed));
    return claimed;
  }

  async function since(connectionId: string): Promise<Date> {
    const previous = await queries.lastCompletedStart(connectionId);
    return previous ? new Date(previous.getTime() - options.overlapDays * DAY_MS) : new Date(Date.now() - options.firstSyncDays * DAY_MS);
  }

  async function run(claim: ClaimedProviderSync): Promise<void> {
    const context = { providerSyncId: claim.id, connectionId: claim.connectionId, familyId: claim.familyId };
    try {
      const access = bridgeAccessOf((await opened(claim)).url);
      const answer = readBridgeAnswer(await bridge.accounts(access, await since(claim.connectionId), stopping.signal));
      if (!answer) throw new ProviderSyncFailure("bad_response");
      if (answer.accounts.length === 0 && answer.errorCount > 0) throw new ProviderSyncFailure("bridge_reported");
      const stats = await writeBridgeAnswer(db, claim, answer);
      log.info({ ...context, stats }, "provider sync completed");
    } catch (err) {
      if (err instanceof ProviderSyncLeaseLost) {
        log.warn(context, "provider sync lost to another worker or its connection was deleted");
        return;
      }
      if (stopping.signal.aborted) {
        await queries.release(claim);
        return;
      }
      const failure = err instanceof ProviderSyncFailure ? err : new ProviderSyncFailure("internal");
      // Our own errors are logged whole; the bridge's are only their category (its URLs may carry a claim token).
      if (failure === err) log.warn({ ...context, category: failure.category }, "provider sync failed");
      else log.error({ ...context, err }, "provider sync failed");
      await queries.fail(claim, failure);
    }
  }

  const loop = createPollingLoop({
    name: "provider sync worker",
    pollMs: options.pollMs,
    log,
    step: async () => {
      await queries.markStale();
      if (options.autoSyncMs > 0) await queries.queueDue(options.autoSyncMs, DUE_BATCH);
      const claim = await queries.claim(options.leaseMs);
      if (!claim) return false;
      await run(claim);
      return true;
    },
  });
  return {
    poke: () => loop.poke(),
    drain: () => loop.drain(),
    start(): void {
      stopping = new AbortController();
      loop.start();
    },
    async stop(): Promise<void> {
      stopping.abort();
      await loop.stop();
    },
    get running() {
      return loop.running;
    },
  } satisfies PollingLoop;
}
export type ProviderSyncWorker = ReturnType<typeof createProviderSyncWorker>;
