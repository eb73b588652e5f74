import type { Logger } from "@hearth/service-kit";
import { JOB_TRANSACTION, JobLost, JobRunnerStopping, type JobDefinition, type RunningJob } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { BALANCE_SYNC_QUEUE } from "../syncs/sync-queue-queries";
import { ProviderSyncGone, writeBridgeAnswer } from "./provider-ledger-queries";
import { ProviderSyncFailure } from "./provider-sync-failure";
import { PROVIDER_SYNC_QUEUE, type ProviderSyncQueries, type StartedProviderSync } from "./provider-sync-queries";
import type { SimplefinClient } from "./simplefin-client";
import { bridgeAccessOf, type CredentialStore, type SimplefinCredentials } from "./simplefin-credentials";
import { readBridgeAnswer } from "./simplefin-payload";

export interface ProviderSyncOptions {
  /** A connection in good standing is synced again this long after its latest sync (Sure: daily); 0 never. */
  autoSyncMs: number;
  /** How far back the first sync asks for transactions. */
  firstSyncDays: number;
  /** Later syncs ask again from this long before the previous one started (late postings); what is there already is skipped. */
  overlapDays: number;
}

export const DEFAULT_PROVIDER_SYNC: ProviderSyncOptions = { autoSyncMs: 24 * 60 * 60_000, firstSyncDays: 90, overlapDays: 7 };

const DAY_MS = 24 * 60 * 60_000;
/** Due connections queued per pass. */
const DUE_BATCH = 50;

export interface ProviderSyncDeps {
  db: FinanceDb;
  queries: ProviderSyncQueries;
  bridge: SimplefinClient;
  credentials: CredentialStore;
  log: Logger;
  options: ProviderSyncOptions;
}

type SyncJob = RunningJob<object, FinanceTx>;

/**
 * Provider syncs on the job runner, one job per sync run: opens the connection's sealed
 * credentials, claims a setup token the first time (keeping the access URL at once), fetches the
 * bridge's accounts and writes them with the job's end in one transaction
 * (provider-ledger-queries.ts). A failure is stored on the run as its stable category, not
 * retried; nothing the bridge said and no credential is logged. A dead worker's run is taken over
 * and run again; a stopping service cuts a request to the bridge short and puts its run back in
 * the queue. Due connections are queued by the reconcile (daily by default). Two runs at once per
 * instance (they mostly wait on bridges), one per family.
 */
export function providerSyncJob({ db, queries, bridge, credentials, log, options }: ProviderSyncDeps): JobDefinition<object, FinanceTx> {
  async function opened(job: SyncJob, sync: StartedProviderSync): Promise<SimplefinCredentials> {
    let held: SimplefinCredentials;
    try {
      held = credentials.open(sync.sealedCredentials);
    } catch {
      throw new ProviderSyncFailure("credentials_unreadable");
    }
    if (held.kind === "access_url") return held;
    let url: string;
    try {
      // Not cut short by a stopping service: a token the bridge spent must leave its access URL stored
      // (the claim has its own timeout).
      url = await bridge.claim(held.url);
    } catch (err) {
      // Taken over from a worker whose claim went through: the token is spent, its access URL stored.
      const stored = job.takenOver && err instanceof ProviderSyncFailure && err.category === "token_refused" ? await storedAccess(sync.connectionId) : null;
      if (stored) return stored;
      throw err;
    }
    const claimed: SimplefinCredentials = { kind: "access_url", url };
    // Only over the token it claimed: credentials replaced meanwhile (by their owner) stay.
    await queries.storeClaimedCredentials(sync.connectionId, sync.sealedCredentials, credentials.seal(claimed));
    return claimed;
  }

  /** The connection's credentials as stored now, when they are an access URL. */
  async function storedAccess(connectionId: string): Promise<SimplefinCredentials | null> {
    const sealed = await queries.sealedCredentialsOf(connectionId);
    if (!sealed) return null;
    try {
      const held = credentials.open(sealed);
      return held.kind === "access_url" ? held : null;
    } catch {
      return null;
    }
  }

  async function since(connectionId: string): Promise<Date> {
    const previous = await queries.lastCompletedStart(connectionId);
    return previous ? new Date(previous.getTime() - options.overlapDays * DAY_MS) : new Date(Date.now() - options.firstSyncDays * DAY_MS);
  }

  return {
    queue: PROVIDER_SYNC_QUEUE,
    payload: z.object({}),
    concurrency: 2,
    perFamilyLimit: 1,
    // What a sync writes queues its accounts' balance syncs.
    pokes: [BALANCE_SYNC_QUEUE],
    async run(job) {
      if (!job.subjectId) return;
      const started = await job.inFence((tx) => queries.start(tx, job.familyId, job.subjectId!));
      // Ended meanwhile, or deleted with its connection.
      if (!started) return;
      const context = { providerSyncId: started.id, connectionId: started.connectionId, familyId: started.familyId };
      try {
        const access = bridgeAccessOf((await opened(job, started)).url);
        const answer = readBridgeAnswer(await bridge.accounts(access, await since(started.connectionId), job.signal));
        if (!answer) throw new ProviderSyncFailure("bad_response");
        if (answer.accounts.length === 0 && answer.errorCount > 0) throw new ProviderSyncFailure("bridge_reported");
        const stats = await writeBridgeAnswer(db, started, answer, (tx) => job.complete(tx));
        log.info({ ...context, stats }, "provider sync completed");
      } catch (err) {
        if (err instanceof ProviderSyncGone) {
          log.warn(context, "provider sync ended or its connection was deleted while it ran");
          return;
        }
        if (job.signal.aborted) {
          // Stopping: the run waits in the queue as it was, for this or another instance.
          if (job.signal.reason instanceof JobRunnerStopping) await job.inFence((tx) => queries.backToQueue(tx, started.id));
          throw job.signal.reason;
        }
        if (err instanceof JobLost) throw err;
        const failure = err instanceof ProviderSyncFailure ? err : new ProviderSyncFailure("internal");
        // Our own errors are logged whole; the bridge's are only their category (its URLs may carry a claim token).
        if (failure === err) log.warn({ ...context, category: failure.category }, "provider sync failed");
        else log.error({ ...context, err }, "provider sync failed");
        // The failure is the run's outcome: written with the job's end, not retried (the next sync may succeed).
        await db.$transaction(async (tx) => {
          await job.complete(tx);
          await queries.fail(tx, started.id, failure);
        }, JOB_TRANSACTION);
      }
    },
    failed: (tx, job) => (job.subjectId ? queries.fail(tx, job.subjectId, new ProviderSyncFailure("internal")) : Promise.resolve()),
    async reconcile() {
      // Every connection due, a batch at a time (the reconcile runs every ten minutes, not every poll).
      let due = 0;
      for (let queued = DUE_BATCH; options.autoSyncMs > 0 && queued === DUE_BATCH; due += queued)
        queued = await queries.queueDue(options.autoSyncMs, DUE_BATCH);
      return due + (await queries.queueOrphaned());
    },
  };
}
