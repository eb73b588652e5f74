import type { FamilyPurgeScope } from "@hearth/contracts";
import type { Logger, ServiceCall } from "@hearth/service-kit";
import { JOB_TRANSACTION, JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { IdentityDb, IdentityTx } from "../db";
import { FAMILY_PURGE_QUEUE, type FamilyPurgeRepository, type StartedPurge } from "./family-purge-repository";

/** What each kind of purge asks the services to remove. */
const SCOPE_OF: Record<StartedPurge["kind"], FamilyPurgeScope> = { reset: "financial_data", family_deleted: "everything" };

/**
 * Family purges on the job runner, one job per purge: for each service still holding data of the
 * family, calls its `familyData.purge` step after step (each removes a bounded batch) until it
 * answers done, and records that service as done before going to the next, so a purge
 * interrupted by a crash, a stopping gateway or a down service resumes where it stopped. A failed
 * step is retried (5 s doubling, at most 10 minutes) without end: a purge is never half-done for
 * good. Two purges at once per gateway, one per family, families in turns.
 */
export function familyPurgeJob(
  db: IdentityDb,
  purges: FamilyPurgeRepository,
  services: Record<StartedPurge["pendingServices"][number], ServiceCall>,
  log: Logger,
): JobDefinition<object, IdentityTx> {
  return {
    queue: FAMILY_PURGE_QUEUE,
    payload: z.object({}),
    concurrency: 2,
    maxAttempts: Number.MAX_SAFE_INTEGER,
    async run(job) {
      const purge = job.subjectId ? await purges.begin(job.subjectId) : null;
      if (!purge) return;
      const scope = SCOPE_OF[purge.kind];
      // Before each step and each service struck off: a gateway that lost the job (taken over) goes no further.
      const stillHeld = () => job.inFence(async () => undefined);
      try {
        for (const service of purge.pendingServices) {
          for (;;) {
            // Between two steps: a stopping gateway lets go here, and the next start (here or elsewhere) resumes.
            job.signal.throwIfAborted();
            await stillHeld();
            const step = (await services[service](
              "familyData.purge",
              "mutation",
              { familyId: purge.familyId, scope },
              { requestId: `family-purge-${purge.id}`, actor: null },
            )) as { done: boolean; deleted: number };
            if (step.done) break;
          }
          await stillHeld();
          await purges.serviceDone(purge.id, service);
        }
      } catch (err) {
        if (job.signal.aborted) throw job.signal.reason;
        if (err instanceof JobLost) throw err;
        log.warn({ err, purgeId: purge.id, familyId: purge.familyId }, "family purge step failed; it resumes later");
        await purges.noteFailure(purge.id, err instanceof Error ? err.message : String(err));
        throw err;
      }
      await db.$transaction(async (tx) => {
        await job.complete(tx);
        await purges.complete(tx, purge.id);
      }, JOB_TRANSACTION);
      log.info({ purgeId: purge.id, familyId: purge.familyId, kind: purge.kind }, "family data purged in every service");
    },
    reconcile: () => purges.queueOrphaned(),
  };
}
