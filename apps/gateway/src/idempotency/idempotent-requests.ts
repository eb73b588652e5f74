import { AppError } from "@hearth/contracts";
import type { IdempotencyRepository, StoredAnswer } from "./idempotency-repository";

export interface IdempotencyOptions {
  /** How long a key and its answer are kept: a retry within it gets the same answer. */
  retentionMs: number;
  /** How long a run holds its key; after that (its gateway died) the key may run again. Longer than any run. */
  lockMs: number;
  /** How long the client waits for the answer; a run still going then goes on, and a retry gets its answer. */
  answerWithinMs: number;
  /** Called when an answer could not be stored (the key then stays held until its claim lapses). */
  onStoreFailed?: (err: unknown) => void;
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

/** Socket errors that mean the request never reached the service: nothing can have run there. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function neverSent(err: unknown): boolean {
  let cause: unknown = err;
  for (let depth = 0; depth < 8 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && NEVER_SENT.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/**
 * What a failed run leaves behind: a client error is the answer (stored and replayed); a 429, or a
 * service that was never reached, ran nothing, so the key is given back; any other failure (a
 * timeout, a reset, a 5xx) may have committed, so the key stays held until its claim lapses.
 */
function outcomeOfFailure(err: unknown): { store: StoredAnswer } | "release" | "hold" {
  if (err instanceof AppError && err.status < 500 && err.status !== 429) return { store: { status: err.status, body: err.toBody() } };
  if ((err instanceof AppError && err.status === 429) || neverSent(err)) return "release";
  return "hold";
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

  /** Stores an answer, retrying a failing database a few times: a run that succeeded must never run again. */
  async function store(credential: string, key: string, answer: StoredAnswer): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await repository.complete(credential, key, answer);
        return;
      } catch (err) {
        // Still held after this: a retry is told to come back until the claim lapses.
        if (attempt >= 3) return options.onStoreFailed?.(err);
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  async function settle(credential: string, key: string, run: Promise<StoredAnswer>): Promise<StoredAnswer> {
    let answer: StoredAnswer;
    try {
      answer = await run;
    } catch (err) {
      const outcome = outcomeOfFailure(err);
      if (outcome === "release")
        await repository.release(credential, key).catch(() => {}); // unreleased, it lapses
      else if (outcome !== "hold") await store(credential, key, outcome.store);
      throw err;
    }
    await store(credential, key, answer);
    return answer;
  }

  // Runs still going (their answer was late): shutdown waits for them, so they store what they did.
  const inFlight = new Set<Promise<unknown>>();

  return {
    /** Waits up to `ms` for runs still going to settle and store their answers. */
    async drain(ms: number): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
      await Promise.race([Promise.allSettled([...inFlight]), waited]);
      clearTimeout(timer);
    },

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
      const tracked = settled.catch(() => {}); // a run that outlasts the answer still settles (and stores) on its own
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      try {
        return { answer: await Promise.race([settled, late]), replayed: false };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type IdempotentRequests = ReturnType<typeof createIdempotentRequests>;
