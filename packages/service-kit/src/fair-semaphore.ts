/** The waiting line was full: the task was not started. */
export class SemaphoreFull extends Error {
  constructor(readonly queued: number) {
    super(`${queued} tasks are already waiting`);
    this.name = "SemaphoreFull";
  }
}

/** Whose a task is (a family), and how many of its tasks may wait at most. */
export interface TaskOwner {
  key: string;
  /** A task of this owner that would wait behind this many of its own is refused (SemaphoreFull). */
  maxQueuedOfKey?: number;
}

interface Waiter {
  key: string;
  start: () => void;
}

/** The task's caller gave up while it waited: its place in the line is gone, and it never ran. */
export class SemaphoreWaitAborted extends Error {
  constructor(readonly reason: unknown) {
    super("gave up waiting for a slot");
    this.name = "SemaphoreWaitAborted";
  }
}

/**
 * At most `size` tasks at once. A slot freed goes to the owner with the fewest tasks running, then
 * to the one served longest ago (or never), then to the longest waiter: one family's many tasks
 * never keep another's one waiting behind them all (with one slot too), and tasks of one owner
 * run in the order they came.
 */
export class Semaphore {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  /** When each owner with tasks running or waiting last got a slot (a count of slots given). */
  private readonly servedAt = new Map<string, number>();
  private served = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`A semaphore needs a whole number of slots, at least 1 (got ${size}).`);
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `task` once a slot is free, and frees the slot when it settles (resolved or thrown). With
   * `maxQueued`, a task that would wait behind that many others is refused (SemaphoreFull) instead;
   * with its owner's `maxQueuedOfKey`, one that would wait behind that many of its owner's own.
   */
  async run<T>(task: () => Promise<T>, maxQueued = Infinity, owner: TaskOwner = { key: "" }, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.size) {
      const own = this.waiting.filter((waiter) => waiter.key === owner.key).length;
      if (this.waiting.length >= maxQueued || own >= (owner.maxQueuedOfKey ?? Infinity)) throw new SemaphoreFull(this.waiting.length);
    }
    await this.acquire(owner.key, signal);
    try {
      return await task();
    } finally {
      this.release(owner.key);
    }
  }

  /** A slot now, or a place in the line that `signal` gives up (SemaphoreWaitAborted). */
  private acquire(key: string, signal?: AbortSignal): Promise<void> {
    if (this.running < this.size) {
      this.running++;
      this.count(key, 1);
      this.servedAt.set(key, ++this.served);
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(new SemaphoreWaitAborted(signal.reason));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        start: () => {
          signal?.removeEventListener("abort", giveUp);
          resolve();
        },
      };
      const giveUp = () => {
        const at = this.waiting.indexOf(waiter);
        if (at === -1) return; // started meanwhile
        this.waiting.splice(at, 1);
        this.forget(key);
        reject(new SemaphoreWaitAborted(signal!.reason));
      };
      signal?.addEventListener("abort", giveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(key: string): void {
    this.count(key, -1);
    // The slot passes straight to the chosen waiter (running stays as it is), so none can jump it.
    const runningOf = (waiter: Waiter) => this.runningOf.get(waiter.key) ?? 0;
    const servedAt = (waiter: Waiter) => this.servedAt.get(waiter.key) ?? 0;
    let chosen = -1;
    for (let i = 0; i < this.waiting.length; i++) {
      const candidate = this.waiting[i]!;
      if (chosen === -1) chosen = i;
      else {
        const best = this.waiting[chosen]!;
        const fewer = runningOf(candidate) - runningOf(best);
        if (fewer < 0 || (fewer === 0 && servedAt(candidate) < servedAt(best))) chosen = i;
      }
    }
    if (chosen === -1) {
      this.running--;
      this.forget(key);
      return;
    }
    const [next] = this.waiting.splice(chosen, 1);
    this.count(next!.key, 1);
    this.servedAt.set(next!.key, ++this.served);
    this.forget(key);
    next!.start();
  }

  /** An owner with nothing running or waiting is forgotten (the map holds only owners with tasks). */
  private forget(key: string): void {
    if (!this.runningOf.has(key) && !this.waiting.some((waiter) => waiter.key === key)) this.servedAt.delete(key);
  }

  private count(key: string, by: 1 | -1): void {
    const now = (this.runningOf.get(key) ?? 0) + by;
    if (now === 0) this.runningOf.delete(key);
    else this.runningOf.set(key, now);
  }
}
