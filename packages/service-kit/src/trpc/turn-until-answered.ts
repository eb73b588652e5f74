import type { ServerResponse } from "node:http";
import { SemaphoreWaitAborted, type Semaphore } from "../fair-semaphore";

export interface AnswerTurnOptions {
  /** Requests that may wait at once; past it, and past one family's share, a request is refused. */
  waiting: number;
  waitingPerFamily: number;
  /** A request waits at most this long for its turn, then is refused: well under its caller's timeout. */
  maxWaitMs: number;
}

/**
 * A turn at `turns` for one of `familyId`'s requests, held from when it starts until the request's
 * answer is sent or its caller has gone (`res` closes). Resolves when the turn starts; rejects
 * with SemaphoreFull when the family (or everyone) has too many waiting, and SemaphoreWaitAborted
 * when it waited `maxWaitMs` or its caller gave up meanwhile (its place in the line is given back).
 */
export function turnUntilAnswered(turns: Semaphore, res: ServerResponse, familyId: string, options: AnswerTurnOptions): Promise<void> {
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(new Error("waited too long")), options.maxWaitMs);
  const gone = () => waiting.abort(new Error("the caller has gone"));
  res.once("close", gone);
  const stopWatching = () => {
    clearTimeout(timer);
    res.off("close", gone);
  };
  return new Promise((started, refused) => {
    turns
      .run(
        () =>
          new Promise<void>((done) => {
            stopWatching();
            // Its caller gave up as its turn came: the slot goes on at once.
            if (res.closed) {
              done();
              refused(new SemaphoreWaitAborted(new Error("the caller has gone")));
              return;
            }
            res.once("close", done);
            started();
          }),
        options.waiting,
        { key: familyId, maxQueuedOfKey: options.waitingPerFamily },
        waiting.signal,
      )
      .catch((err: unknown) => {
        stopWatching();
        refused(err);
      });
  });
}
