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

/**
 * At most `size` tasks at once. A slot freed goes to the owner with the fewest tasks running, then
 * to the longest waiter: one family's many reads never keep another's one waiting behind them
 * all, and tasks of one owner run in the order they came.
 */
export class Semaphore {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

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
  async run<T>(task: () => Promise<T>, maxQueued = Infinity, owner: TaskOwner = { key: "" }): Promise<T> {
    if (this.running >= this.size) {
      const own = this.waiting.filter((waiter) => waiter.key === owner.key).length;
      if (this.waiting.length >= maxQueued || own >= (owner.maxQueuedOfKey ?? Infinity)) throw new SemaphoreFull(this.waiting.length);
    }
    await this.acquire(owner.key);
    try {
      return await task();
    } finally {
      this.release(owner.key);
    }
  }

  private acquire(key: string): Promise<void> {
    if (this.running < this.size) {
      this.running++;
      this.count(key, 1);
      return Promise.resolve();
    }
    return new Promise((start) => this.waiting.push({ key, start }));
  }

  private release(key: string): void {
    this.count(key, -1);
    // The slot passes straight to the chosen waiter (running stays as it is), so none can jump it.
    const runningOf = (waiter: Waiter) => this.runningOf.get(waiter.key) ?? 0;
    let chosen = -1;
    for (let i = 0; i < this.waiting.length; i++) {
      if (chosen === -1 || runningOf(this.waiting[i]!) < runningOf(this.waiting[chosen]!)) chosen = i;
    }
    if (chosen === -1) {
      this.running--;
      return;
    }
    const [next] = this.waiting.splice(chosen, 1);
    this.count(next!.key, 1);
    next!.start();
  }

  private count(key: string, by: 1 | -1): void {
    const now = (this.runningOf.get(key) ?? 0) + by;
    if (now === 0) this.runningOf.delete(key);
    else this.runningOf.set(key, now);
  }
}

/**
 * NDJSON reads (an upload's create or preflight, a publish) running at once in the process: each
 * holds its file parsed, several times the file's size, so twenty parallel 10 MB uploads wait
 * their turn instead of holding twenty parsed files.
 */
export const NDJSON_READS = new Semaphore(2);

/**
 * Uploads (create, preflight) that may wait for an NDJSON read at once; more are refused as busy
 * (429) rather than each holding its 10 MB body in memory in an ever longer line. A publish in the
 * import worker always waits: it is already queued work.
 */
export const NDJSON_UPLOADS_WAITING = 8;

/** Of those, one family's at most: past them its uploads are refused (429), never another family's. */
export const NDJSON_UPLOADS_WAITING_PER_FAMILY = 2;
