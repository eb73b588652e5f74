import { createPollingLoop, type Logger } from "@hearth/service-kit";
import type { ReplyRepository } from "./reply-repository";
import type { ReplyRunner } from "./reply-runner";

export interface ReplyWorkerOptions {
  /** Answers produced at once by this instance (each mostly waits on its provider or on finance). */
  concurrency: number;
  pollMs: number;
  /** How long a claim holds an answer: past its timeout, so only a dead worker's claim runs out. */
  leaseMs: number;
}

export const DEFAULT_REPLY_WORKER: Omit<ReplyWorkerOptions, "leaseMs"> = { concurrency: 4, pollMs: 2000 };

/**
 * Takes pending answers from the queue (the assistant placeholders) and runs them, up to
 * `concurrency` at once. Poked when a question is asked here; the poll finds those asked elsewhere
 * and claims whose worker died (which the runner fails as interrupted).
 */
export function createReplyWorker(deps: { replies: ReplyRepository; runner: ReplyRunner; log: Logger; options: ReplyWorkerOptions }) {
  const { replies, runner, options } = deps;
  const inFlight = new Set<Promise<void>>();

  async function step(): Promise<boolean> {
    if (inFlight.size >= options.concurrency) return false;
    const claimed = await replies.claimNext(options.leaseMs);
    if (!claimed) return false;
    const work = runner
      .run(claimed)
      .catch((err: unknown) => deps.log.error({ err, message_id: claimed.id }, "an answer could not be ended; its claim will lapse and fail it"))
      .finally(() => {
        inFlight.delete(work);
        // A slot is free: look for the next answer now rather than at the next poll.
        loop.poke();
      });
    inFlight.add(work);
    return true;
  }

  const loop = createPollingLoop({ step, pollMs: options.pollMs, log: deps.log, name: "reply worker" });
  return {
    poke: () => loop.poke(),
    start: () => loop.start(),
    /** Waits a little for the answers in progress, then ends those still running as interrupted (their users may retry at once). */
    async stop(graceMs = 5000): Promise<void> {
      await loop.stop();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      if (inFlight.size === 0) return;
      runner.abortAll();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
    },
    /** Until every queued answer has been produced (tests). */
    async drain(): Promise<void> {
      while ((await step()) || inFlight.size > 0) await Promise.race(inFlight);
    },
  };
}
export type ReplyWorker = ReturnType<typeof createReplyWorker>;
