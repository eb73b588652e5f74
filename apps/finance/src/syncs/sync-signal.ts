/** The in-process signal a committed change sends so the worker starts at once instead of at its next poll. */
export interface SyncSignal {
  /** A balance sync was queued. */
  poke(): void;
  /** An account's removal was queued (accounts.delete): poked apart, as a claim that finds nothing still costs two round trips beside every write's sync. */
  removalQueued(): void;
}
