import { AppError } from "@hearth/contracts";
import type { IdempotencyRepository, StoredAnswer } from "./idempotency-repository";

export interface IdempotencyOptions {
  /** How long a key and its answer are kept: a retry within it gets the same answer. */
  retentionMs: number;
  /** How long a run holds its key; after that (its gateway died) the key may run again. Longer than any run. */
  lockMs: number;
  /** How long the client waits for the answer; a run still going then goes on, and a retry gets its answer. */
  answerWithinMs: number;
}

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = { retentionMs: 24 * 3600_000, lockMs: 5 * 60_000, answerWithinMs: 10_000 };

/** 1 to 255 visible ASCII characters (a UUID is the usual choice), as Stripe takes them. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function assertIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new AppError("bad_request", { message: "Idempotency-Key must be 1 to 255 visible ASCII characters" });
}

export interface IdempotentOutcome {
  /** A first run's success, or any stored answer (a replayed client error included); a first run's failure is thrown. */
  answer: StoredAnswer;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/** The answer a failure gets, if it may be stored: a client error is final; 5xx and 429 say "try again", so the key is given back. */
function storableError(err: unknown): StoredAnswer | null {
  if (!(err instanceof AppError) || err.status >= 500 || err.status === 429) return null;
  return { status: err.status, body: err.toBody() };
}

/**
 * Runs a creating request at most once per (credential, key): a retry with the same key and the
 * same request gets the first answer (even one the client never saw: a run that outlasts
 * `answerWithinMs` goes on and stores its answer); the same key with another request is 409, as
 * is a retry while the first is still running.
 */
export function createIdempotentRequests(repository: IdempotencyRepository, options: IdempotencyOptions = DEFAULT_IDEMPOTENCY) {
  async function take(credential: string, key: string, requestHash: string): Promise<StoredAnswer | "run"> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await repository.claim(credential, key, requestHash, options.lockMs, options.retentionMs)) return "run";
      const record = await repository.find(credential, key);
      if (!record) continue; // released between the two statements: claim again
      if (record.requestHash !== requestHash) {
        throw new AppError("conflict", { message: "This Idempotency-Key was already used with a different request; use a new key for a new request" });
      }
      if (record.answer) return record.answer;
      if (record.lockedUntil.getTime() < Date.now() && (await repository.reclaimLapsed(credential, key, requestHash, options.lockMs))) return "run";
      throw new AppError("conflict", { message: "A request with this Idempotency-Key is still being processed; retry it in a moment" });
    }
    throw new AppError("conflict", { message: "A request with this Idempotency-Key is still being processed; retry it in a moment" });
  }

  async function settle(credential: string, key: string, run: Promise<StoredAnswer>): Promise<StoredAnswer> {
    try {
      const answer = await run;
      await repository.complete(credential, key, answer);
      return answer;
    } catch (err) {
      const answer = storableError(err);
      if (answer) await repository.complete(credential, key, answer);
      else await repository.release(credential, key);
      throw err;
    }
  }

  return {
    async run(credential: string, key: string, requestHash: string, execute: () => Promise<StoredAnswer>): Promise<IdempotentOutcome> {
      const taken = await take(credential, key, requestHash);
      if (taken !== "run") return { answer: taken, replayed: true };
      const settled = settle(credential, key, execute());
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new AppError("service_unavailable", {
                message: "The request is taking longer than expected and goes on; retry it with the same Idempotency-Key for its answer",
              }),
            ),
          options.answerWithinMs,
        );
      });
      settled.catch(() => {}); // a run that outlasts the answer still settles (and stores) on its own
      try {
        return { answer: await Promise.race([settled, late]), replayed: false };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type IdempotentRequests = ReturnType<typeof createIdempotentRequests>;
