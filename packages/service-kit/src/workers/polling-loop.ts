import type { Logger } from "../logger";

export interface PollingLoop {
  /** Runs `step` again now (work was queued), or right after the current pass. */
  poke(): void;
  /** Runs `step` until it reports nothing left (tests and callers that want the queue empty now). */
  drain(): Promise<void>;
  start(): void;
  /** Ends the loop after the step in progress. */
  stop(): Promise<void>;
  readonly running: boolean;
}

/**
 * The loop every background worker of this service runs: `step` until it has nothing to do, then
 * a sleep of `pollMs` that a poke cuts short (work queued by this instance) and the timer ends
 * otherwise (work queued by another instance, a claim whose lease ran out). A failing step is
 * logged and tried again on the next pass: the work stays queued.
 */
export function createPollingLoop({ step, pollMs, log, name }: { step(): Promise<boolean>; pollMs: number; log: Logger; name: string }): PollingLoop {
  let running = false;
  let poked = false;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (await step()) {
      /* until nothing is left */
    }
  }

  async function runLoop(): Promise<void> {
    while (running) {
      poked = false;
      try {
        // Not drain(): a stop ends the loop after the step in progress, not after the whole queue.
        while (running && (await step())) {
          /* until nothing is left, or stopped */
        }
      } catch (err) {
        log.error({ err }, `${name} step failed`);
      }
      if (!running || poked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }

  return {
    poke() {
      poked = true;
      wake?.();
    },
    drain,
    start() {
      running = true;
      loop = runLoop();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
    get running() {
      return running;
    },
  };
}
