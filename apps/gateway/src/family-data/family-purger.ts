import type { FamilyPurgeScope } from "@hearth/contracts";
import type { Logger, ServiceCall } from "@hearth/service-kit";
import type { ClaimedPurge, FamilyPurgeRepository } from "./family-purge-repository";

export interface FamilyPurgerOptions {
  /** How long a claimed purge is held without renewal; a gateway that dies midway loses it after this. */
  leaseMs: number;
  /** How often due purges are looked for (a new one is started at once through `poke`). */
  pollMs: number;
  /** Waits after a failed step double from this, up to `maxRetryMs`. */
  retryBaseMs: number;
  maxRetryMs: number;
}

export const DEFAULT_FAMILY_PURGER: FamilyPurgerOptions = { leaseMs: 60_000, pollMs: 5_000, retryBaseMs: 5_000, maxRetryMs: 600_000 };

/** What each kind of purge asks the services to remove. */
const SCOPE_OF: Record<ClaimedPurge["kind"], FamilyPurgeScope> = { reset: "financial_data", family_deleted: "everything" };

/**
 * Works family purges: for each service still holding data of the family, calls its
 * `familyData.purge` step after step (each removes a bounded batch) until it answers done, and
 * records that service as done before going to the next. State lives in `family_purges`, so a
 * purge interrupted by a crash or a down service resumes where it stopped, never half-done for good.
 */
export function createFamilyPurger(
  purges: FamilyPurgeRepository,
  services: Record<ClaimedPurge["pendingServices"][number], ServiceCall>,
  log: Logger,
  options: FamilyPurgerOptions = DEFAULT_FAMILY_PURGER,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = true;
  // Set by stop(): a purge under way ends after its current step, not after the whole family.
  let stopping = false;
  let again = false;

  async function work(purge: ClaimedPurge): Promise<void> {
    const scope = SCOPE_OF[purge.kind];
    for (const service of purge.pendingServices) {
      for (;;) {
        if (stopping) {
          // Let go at once: the next start (here or on another gateway) resumes it without waiting out the lease.
          await purges.release(purge.id, "stopped midway by a gateway shutdown", new Date());
          return;
        }
        const step = (await services[service](
          "familyData.purge",
          "mutation",
          { familyId: purge.familyId, scope },
          {
            requestId: `family-purge-${purge.id}`,
            actor: null,
          },
        )) as { done: boolean; deleted: number };
        if (step.done) break;
        if (!(await purges.renew(purge.id, options.leaseMs))) return;
      }
      await purges.serviceDone(purge.id, service);
    }
    await purges.complete(purge.id);
    log.info({ purgeId: purge.id, familyId: purge.familyId, kind: purge.kind }, "family data purged in every service");
  }

  /** Works every due purge, one after another; answers how many it finished or gave up on for now. */
  async function runOnce(): Promise<number> {
    let handled = 0;
    for (;;) {
      if (stopping) return handled;
      const purge = await purges.claimDue(options.leaseMs);
      if (!purge) return handled;
      handled += 1;
      try {
        await work(purge);
      } catch (err) {
        const waitMs = Math.min(options.maxRetryMs, options.retryBaseMs * 2 ** Math.min(purge.attempts - 1, 20));
        log.warn({ err, purgeId: purge.id, familyId: purge.familyId, retryInMs: waitMs }, "family purge step failed; it resumes later");
        await purges.release(purge.id, err instanceof Error ? err.message : String(err), new Date(Date.now() + waitMs));
      }
    }
  }

  function run(): void {
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, "family purger could not read its queue; retrying at the next poll"))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      run();
      schedule();
    }, options.pollMs);
    timer.unref();
  }

  return {
    /** Runs due purges now (the tests' hook, and the purger's own loop). */
    runOnce,
    /** A purge was just asked for: start it without waiting for the poll. */
    poke(): void {
      if (!stopped) run();
    },
    start(): void {
      if (!stopped) return;
      stopped = false;
      run();
      schedule();
    },
    /** Ends after the step in progress; an unfinished purge keeps its state and resumes at the next start. */
    async stop(): Promise<void> {
      stopped = true;
      stopping = true;
      clearTimeout(timer);
      await running;
      stopping = false;
    },
  };
}
export type FamilyPurger = ReturnType<typeof createFamilyPurger>;
