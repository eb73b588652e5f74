import { StatusTally, type Answer } from "./http";

export interface LoadResult {
  tally: StatusTally;
  sent: number;
  seconds: number;
  perSecond: number;
}

export interface RunningLoad {
  /** Requests sent so far. */
  sent: () => number;
  tally: StatusTally;
  /** Stops sending, waits for the requests in flight, and sums up. */
  stop: () => Promise<LoadResult>;
  /** Resolves once `limit` requests were sent and answered (never without a limit). */
  done: Promise<LoadResult>;
}

/**
 * `concurrency` clients, each sending its next request as soon as the last one answered (a
 * closed loop: the rate is what the system sustains), until stopped or `limit` requests in all.
 */
export function startLoad(concurrency: number, step: (client: number, sequence: number) => Promise<Answer>, limit = Infinity): RunningLoad {
  const tally = new StatusTally();
  const started = Date.now();
  let sent = 0;
  let stopping = false;
  const client = async (index: number) => {
    while (!stopping && sent < limit) {
      const sequence = sent++;
      tally.add(await step(index, sequence));
    }
  };
  const clients = Promise.all(Array.from({ length: concurrency }, (_, index) => client(index)));
  const sumUp = async (): Promise<LoadResult> => {
    await clients;
    const seconds = (Date.now() - started) / 1000;
    return { tally, sent, seconds, perSecond: sent / seconds };
  };
  const done = sumUp();
  done.catch(() => {}); // a load that is stopped instead is awaited there; its failure surfaces in stop()
  return {
    sent: () => sent,
    tally,
    done,
    stop: () => {
      stopping = true;
      return sumUp();
    },
  };
}
