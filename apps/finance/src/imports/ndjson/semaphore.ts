/** The waiting line was full: the task was not started. */
export class SemaphoreFull extends Error {
  constructor(readonly queued: number) {
    super(`${queued} tasks are already waiting`);
    this.name = "SemaphoreFull";
  }
}

/**
 * At most `size` tasks at once; the others wait in the order they came (first in, first out: a
 * slot freed goes to the longest waiter, never to a task that comes later).
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

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
   * `maxQueued`, a task that would wait behind that many others is refused (SemaphoreFull) instead.
   */
  async run<T>(task: () => Promise<T>, maxQueued = Infinity): Promise<T> {
    if (this.running >= this.size && this.waiting.length >= maxQueued) throw new SemaphoreFull(this.waiting.length);
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    // The slot passes straight to the next waiter (running stays as it is), so none can jump the queue.
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
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
