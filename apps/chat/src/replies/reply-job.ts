import type { JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { ChatDb, ChatTx } from "../db";
import { queueOrphanedReplies, REPLY_QUEUE } from "./reply-queue-queries";
import type { ReplyRepository } from "./reply-repository";
import type { ReplyRunner } from "./reply-runner";

export interface ReplyJobOptions {
  /** Answers produced at once by this instance (each mostly waits on its provider or on finance). */
  concurrency: number;
  /** Answers of one family produced at once, over every instance: one family's questions never take every slot. */
  perFamilyLimit: number;
}

export const DEFAULT_REPLY_JOB: ReplyJobOptions = { concurrency: 4, perFamilyLimit: 2 };

/**
 * The assistant's answers on the job runner, one job per answer: families take turns, a family
 * has at most `perFamilyLimit` answers in progress. An answer whose worker died, whose first
 * attempt failed to end, or that a worker began under another job, is failed as interrupted, not
 * produced again (its tools may have run).
 * The answer's end is written with the job's end.
 */
export function replyJob(db: ChatDb, replies: ReplyRepository, runner: ReplyRunner, options = DEFAULT_REPLY_JOB): JobDefinition<object, ChatTx> {
  return {
    queue: REPLY_QUEUE,
    payload: z.object({}),
    concurrency: options.concurrency,
    perFamilyLimit: options.perFamilyLimit,
    async run(job) {
      if (!job.subjectId) return;
      const fenced = { signal: job.signal, fence: (tx: ChatTx) => job.complete(tx) };
      if (job.takenOver || job.attempt > 1) return runner.interrupted({ id: job.subjectId }, fenced);
      const reply = await replies.begin(job.subjectId, fenced.fence);
      // Gone with its chat, or ended meanwhile.
      if (!reply) return;
      // Begun by a worker before this job (its job lost to a purge, or queued again by a reconcile): not run twice.
      if (reply.wasStarted) return runner.interrupted(reply, fenced);
      await runner.run(reply, fenced);
    },
    // Its attempts spent (its end could not be written): the answer ends failed.
    failed: (tx, job) =>
      job.subjectId ? replies.endIn(tx, job.subjectId, { status: "failed", content: "", error: "The assistant could not answer" }) : Promise.resolve(),
    reconcile: () => queueOrphanedReplies(db),
  };
}
